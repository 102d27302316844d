package scenarios

import (
	"go.yaml.in/yaml/v3"

	"github.com/backfill-explainer/explainer/engine"
)

// release reads `release:`: a release's name (a number too is read as text, to say what to write).
func (p *parser) release(n *yaml.Node) *engine.Release {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		p.failAt(n, "release: expected one of %s, found %s", engine.ReleaseNames(), describe(n))
	}
	r, err := engine.ReleaseNamed(n.Value)
	if err != nil {
		failMsg(p.file, posOf(n), "release: "+err.Error()) // the name quoted as engine quotes input
	}
	return r
}

// create reads `create:`: foreground or background (docs/scenario-format.md, "The job").
func (p *parser) create(n *yaml.Node) engine.CreateType {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		p.failAt(n, "create: expected one of %s, found %s", engine.CreateTypeNames, describe(n))
	}
	c, err := engine.CreateTypeNamed(n.Value)
	if err != nil {
		failMsg(p.file, posOf(n), "create: "+err.Error()) // the name quoted as engine quotes input
	}
	return c
}
