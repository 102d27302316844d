// Package docs holds the explainer's documentation and the tests that keep it true: the
// glossary section of protocol.md is generated from glossary.Glossary, links stay inside the
// repository, citations of RisingWave's source point at engine.SourceCommit, and the examples of
// scenario-format.md load and match what the command line prints.
//
// Regenerate the glossary section after editing glossary/glossary.go:
//
//	go generate ./docs
package docs

//go:generate go test -run TestGlossarySection -update .
