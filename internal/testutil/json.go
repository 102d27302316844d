package testutil

import "encoding/json"

// MustJSON is v as json.Marshal writes it; it panics if v cannot be written.
func MustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
