package scenarios

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/internal/quote"
)

// release reads `release:`: a release's name (a number too is read as text, to say what to write).
func (p *parser) release(n *yaml.Node) *engine.Release {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		p.failAt(n, "release: expected one of %s, found %s", ReleaseNames(), describe(n))
	}
	r, err := ReleaseNamed(n.Value)
	if err != nil {
		failMsg(p.file, posOf(n), "release: "+err.Error()) // the name quoted as engine quotes input
	}
	return r
}

// create reads `create:`: foreground or background (docs/scenario-format.md, "The job").
func (p *parser) create(n *yaml.Node) engine.CreateType {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		p.failAt(n, "create: expected one of %s, found %s", CreateTypeNames, describe(n))
	}
	c, err := CreateTypeNamed(n.Value)
	if err != nil {
		failMsg(p.file, posOf(n), "create: "+err.Error()) // the name quoted as engine quotes input
	}
	return c
}

// ReleaseNamed returns the release a scenario names, or an error that says what to write.
func ReleaseNamed(name string) (*engine.Release, error) {
	for _, r := range engine.Releases {
		if r.Name == name {
			return r, nil
		}
	}
	for _, r := range engine.Releases {
		if "v"+name == r.Name || strings.HasPrefix(name, r.Name+".") || strings.HasPrefix("v"+name, r.Name+".") {
			return nil, fmt.Errorf("unknown release %s: write %s (one of %s)", quote.Q(name), r.Name, ReleaseNames())
		}
	}
	return nil, fmt.Errorf("unknown release %s: expected one of %s", quote.Q(name), ReleaseNames())
}

// CreateTypeNames lists the values a scenario's `create:` takes.
const CreateTypeNames = "foreground, background"

// CreateTypeNamed returns the create type a scenario names, or an error that says what to write.
func CreateTypeNamed(s string) (engine.CreateType, error) {
	switch s {
	case "foreground":
		return engine.CreateForeground, nil
	case "background":
		return engine.CreateBackground, nil
	}
	return 0, fmt.Errorf("unknown create type %s: expected one of %s", quote.Q(s), CreateTypeNames)
}

// ReleaseNames lists the release names, e.g. "v2.7, v2.8, v3.0, v3.1".
func ReleaseNames() string {
	n := make([]string, len(engine.Releases))
	for i, r := range engine.Releases {
		n[i] = r.Name
	}
	return strings.Join(n, ", ")
}
