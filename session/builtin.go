package session

import (
	"path"

	"github.com/backfill-explainer/explainer/scenarios"
)

// OpenBuiltin loads a built-in scenario.
func OpenBuiltin(name string) (*Session, error) {
	text, err := scenarios.BuiltinText(name)
	if err != nil {
		return nil, err
	}
	s, err := Load(path.Join("scenarios", name+".yaml"), text)
	if err != nil {
		return nil, err
	}
	s.Name = name
	return s, nil
}
