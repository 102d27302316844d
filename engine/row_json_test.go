package engine

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Row.MarshalJSON writes exactly what encoding/json writes for the same values as a []Value.
func TestRowMarshalJSONIsEncodingJSONs(t *testing.T) {
	for _, c := range []struct {
		name string
		row  Row
	}{
		{"nil", nil},
		{"empty", Row{}},
		{"ints", Row{Int(0), Int(-7), Int(1 << 62), Int(-1 << 63)}},
		{"strings that need escaping", Row{Str(`a"b\c`), Str("<&>"), Str("tab\tnew\nline\u2028"), Str("")}},
		{"null and mixed", Row{Null(), Int(3), Str("x")}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := json.Marshal(c.row)
			require.NoError(t, err)
			want, err := json.Marshal([]Value(c.row))
			require.NoError(t, err)
			assert.Equal(t, string(want), string(got))
			// inside a struct, and with SetEscapeHTML(false) as the wasm bridge encodes
			type wrap struct {
				R Row   `json:"r"`
				S []Row `json:"s"`
			}
			got, err = json.Marshal(wrap{c.row, []Row{c.row, c.row}})
			require.NoError(t, err)
			want, err = json.Marshal(struct {
				R []Value   `json:"r"`
				S [][]Value `json:"s"`
			}{[]Value(c.row), [][]Value{c.row, c.row}})
			require.NoError(t, err)
			assert.Equal(t, string(want), string(got))
		})
	}
}
