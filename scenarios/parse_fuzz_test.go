package scenarios

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// FuzzParse: Parse never panics, every error is an *Error with a position, and every scenario
// it accepts round-trips through FormatScenario (and each step through FormatStep/ParseStep).
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "parse", "valid", "*"))
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	for _, c := range errorCases {
		f.Add([]byte(c.text))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		sc, err := Parse("fuzz.yaml", text)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error is %T, not *Error: %v", err, err)
			}
			if e.Line < 1 || e.Col < 1 || e.File != "fuzz.yaml" {
				t.Fatalf("bad position: %#v", e)
			}
			return
		}
		out := FormatScenario(sc)
		back, err := Parse("fuzz.yaml", []byte(out))
		if err != nil {
			t.Fatalf("FormatScenario output does not parse: %v\n%s", err, out)
		}
		if !reflect.DeepEqual(sc.Config, back.Config) {
			t.Fatalf("config differs after round trip:\n%+v\n%+v\n%s", sc.Config, back.Config, out)
		}
		if !reflect.DeepEqual(sc.Steps, back.Steps) {
			t.Fatalf("steps differ after round trip:\n%+v\n%+v\n%s", sc.Steps, back.Steps, out)
		}
		for _, s := range sc.Steps {
			line := FormatStep(sc.Config, s)
			got, err := ParseStep(sc.Config, line)
			if err != nil {
				t.Fatalf("FormatStep output %q does not parse: %v", line, err)
			}
			if !reflect.DeepEqual(s, got) {
				t.Fatalf("step differs after round trip %q:\n%+v\n%+v", line, s, got)
			}
		}
	})
}
