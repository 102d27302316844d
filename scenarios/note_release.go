package scenarios

import (
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/backfill-explainer/explainer/engine"
)

// A title, a summary and a step's note are written for the releases of the file's `written_for:`
// (the file's release by default), or per release: a mapping from release names to texts
// (`note: {v3.1: …, v3.0: …}`), one key naming one release or several (`v2.7 v2.8 v3.0: …`),
// which must hold the file's release (docs/scenario-format.md, "Steps").

// noteByRelease reads a step's `note:` (byRelease).
func (p *parser) noteByRelease(n *yaml.Node) (string, map[string]string) {
	return p.byRelease(n, "note")
}

// byRelease reads a text written for the file's releases, or per release: the file's release's
// text and, when written per release, every release's.
func (p *parser) byRelease(n *yaml.Node, what string) (string, map[string]string) {
	if n.Kind != yaml.MappingNode {
		return p.text(n, what), nil
	}
	by := map[string]string{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		names := releaseKey(k.Value)
		if len(names) == 0 {
			p.failAt(k, "%s: a %s written per release has release names as keys, found %s", what, what, describe(k))
		}
		for _, name := range names {
			r, err := ReleaseNamed(name)
			if err != nil {
				p.failAt(k, "%s: a %s written per release has release names as keys: %s", what, what, err.Error())
			}
			if _, dup := by[r.Name]; dup {
				p.failAt(k, "%s: %s is written twice", what, r.Name)
			}
			by[r.Name] = p.text(v, r.Name+"'s "+what)
		}
	}
	own := p.cfg.RunRelease().Name
	text, ok := by[own]
	if !ok {
		p.failAt(n, "%s: written per release, it needs one for %s, the release the file runs (its `release:` or the default)", what, own)
	}
	p.borrow(by)
	return text, by
}

// releaseKey splits a key of a text written per release into its release names: one, or several
// separated by commas or spaces (`v2.7, v2.8`, `v2.7 v2.8`).
func releaseKey(k string) []string {
	return strings.FieldsFunc(k, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
}

// writtenFor reads `written_for:`: the releases the file's texts not written per release are
// written for; the file's own release is always one of them (first).
func (p *parser) writtenFor(n *yaml.Node) []string {
	own := p.cfg.RunRelease().Name
	out, seen := []string{own}, map[string]bool{}
	for _, item := range p.sequence(n, "written_for") {
		if item.Kind != yaml.ScalarNode || item.Tag == "!!null" {
			p.failAt(item, "written_for: expected a release name (one of %s), found %s", ReleaseNames(), describe(item))
		}
		r, err := ReleaseNamed(item.Value)
		if err != nil {
			failMsg(p.file, posOf(item), "written_for: "+err.Error())
		}
		if seen[r.Name] {
			p.failAt(item, "written_for: %s is named twice", r.Name)
		}
		seen[r.Name] = true
		if r.Name != own {
			out = append(out, r.Name)
		}
	}
	return out
}

// borrow gives a release a text written per release does not name the text of its ProseOf,
// when there is one (a release borrows another's texts: engine.Release.ProseOf).
func (p *parser) borrow(by map[string]string) {
	for _, r := range engine.Releases { // oldest first: a borrower may lend in turn
		if f := r.ProseOf; f != nil {
			if _, ok := by[r.Name]; !ok {
				if t, ok := by[f.Name]; ok {
					by[r.Name] = t
					p.lent(r.Name, f.Name)
				}
			}
		}
	}
}

// borrowWritten is borrow for `written_for:`'s list.
func (p *parser) borrowWritten(written []string) []string {
	for _, r := range engine.Releases {
		if f := r.ProseOf; f != nil && !slices.Contains(written, r.Name) && slices.Contains(written, f.Name) {
			written = append(written, r.Name)
			p.lent(r.Name, f.Name)
		}
	}
	return written
}

func (p *parser) lent(to, from string) {
	if p.borrowed == nil {
		p.borrowed = map[string]string{}
	}
	p.borrowed[to] = from
}
