package scenarios

import (
	"go.yaml.in/yaml/v3"

	"github.com/backfill-explainer/explainer/engine"
)

// noteByRelease reads a step's `note:`: a text (written for the file's release), or a mapping
// from release names to texts (`note: {v3.1: …, v3.0: …}`), which must hold the file's release.
func (p *parser) noteByRelease(n *yaml.Node) (string, map[string]string) {
	if n.Kind != yaml.MappingNode {
		return p.text(n, "note"), nil
	}
	by := map[string]string{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		r, err := engine.ReleaseNamed(k.Value)
		if err != nil {
			p.failAt(k, "note: a note written per release has release names as keys: %s", err.Error())
		}
		if _, dup := by[r.Name]; dup {
			p.failAt(k, "note: %s is written twice", r.Name)
		}
		by[r.Name] = p.text(v, "note for "+r.Name)
	}
	own := p.cfg.RunRelease().Name
	text, ok := by[own]
	if !ok {
		p.failAt(n, "note: written per release, it needs one for %s, the release the file runs (its `release:` or the default)", own)
	}
	return text, by
}
