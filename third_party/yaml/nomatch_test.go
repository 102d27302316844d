package yaml

import (
	"regexp"
	"testing"
)

// The regular expressions the hand matchers replace, as v3.0.6 wrote them.
var (
	yamlStyleFloatRE = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)
	base60floatRE    = regexp.MustCompile(`^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`)
)

var matchCases = []string{
	"", "+", "-", ".", "+.", "1", "-1", "+1", "1.", "1.5", ".5", "-.5", "..5", "1..5", "1.5.",
	"1e5", "1E5", "1e+5", "1e-5", "1e", "1e+", ".e5", "1.e5", ".5e5", "+.5E-05", "1.5e5e5", "1_0",
	"0x1F", "inf", ".inf", "NaN", " 1", "1 ", "1\n", "١", "1:2", "1:20", "1:60", "1:59", "1:5",
	"1:123", "1:67", "-1:30:00.5", "190:20:30.15", "1_000:20", "1:20.", "1:20._5", "1:20.5_",
	"_1:20", "1::20", "1:", ":20", "1:2:", "1:2:3:4:5", "+1:00", "1:0a", "12:34:56", "1:20.5:3",
	"1:6", "1:06", "1:66", "1:5x", "1_:2", "1e5:2", "1:2e5",
}

func TestMatchYAMLStyleFloatAsRegexp(t *testing.T) {
	for _, s := range matchCases {
		if got, want := matchYAMLStyleFloat(s), yamlStyleFloatRE.MatchString(s); got != want {
			t.Errorf("matchYAMLStyleFloat(%q) = %v, the regular expression says %v", s, got, want)
		}
	}
}

func TestMatchBase60FloatAsRegexp(t *testing.T) {
	for _, s := range matchCases {
		if got, want := matchBase60Float(s), base60floatRE.MatchString(s); got != want {
			t.Errorf("matchBase60Float(%q) = %v, the regular expression says %v", s, got, want)
		}
	}
}

func FuzzMatchersAsRegexp(f *testing.F) {
	for _, s := range matchCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := matchYAMLStyleFloat(s), yamlStyleFloatRE.MatchString(s); got != want {
			t.Errorf("matchYAMLStyleFloat(%q) = %v, the regular expression says %v", s, got, want)
		}
		if got, want := matchBase60Float(s), base60floatRE.MatchString(s); got != want {
			t.Errorf("matchBase60Float(%q) = %v, the regular expression says %v", s, got, want)
		}
	})
}
