package scenarios

import (
	"math/rand/v2"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The hand-written matchers match exactly what the regular expressions they replace matched.

var (
	plainIntRE  = regexp.MustCompile(`^[-+]?[0-9]+$`)
	columnRE    = regexp.MustCompile(`^[a-z_][a-z0-9_]*$`)
	yamlLineRE  = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)
	matchInputs = []string{
		"", "0", "7", "-7", "+7", "-", "+", "--1", "+-1", "1.0", "1e3", "0x1f", " 1", "1 ", "1\n", "12a", "٣", "-0012",
		"a", "_", "a1", "_a_1", "1a", "A", "aB", "a-b", "a b", "é", "a\n", "abc_def_123",
		"yaml: line 3: did not find expected key", "yaml: line 12: x", "yaml: line : x", "yaml: line 3:x",
		"yaml: line 3: two\nlines", "yaml: line 3: ", "yaml: line 3: bad \xff byte", "yaml: line 99999999999999999999: big",
		"yaml:line 3: x", "yaml: line 3a: x", "xyaml: line 3: x", "yaml: line 3: x\n", "yaml: line ٣: x",
		"yaml: line 3: : colon", "yaml: line 3: \r", "yaml: control characters are not allowed",
	}
)

func checkMatchers(t *testing.T, s string) {
	assert.Equal(t, plainIntRE.MatchString(s), plainInt(s), "plainInt(%q)", s)
	assert.Equal(t, columnRE.MatchString(s), columnName(s), "columnName(%q)", s)
	line, problem, ok := yamlLine(s)
	m := yamlLineRE.FindStringSubmatch(s)
	assert.Equal(t, m != nil, ok, "yamlLine(%q)", s)
	if m != nil {
		assert.Equal(t, m[1], line, s)
		assert.Equal(t, m[2], problem, s)
	}
}

func TestMatchersAsTheirRegexps(t *testing.T) {
	for _, s := range matchInputs {
		checkMatchers(t, s)
	}
	r := rand.New(rand.NewPCG(5, 6))
	const alphabet = "09az_-+. :\n\xffAy"
	for range 20000 {
		b := make([]byte, r.IntN(6))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		checkMatchers(t, string(b))
		checkMatchers(t, "yaml: line "+string(b))
	}
}

func FuzzMatchers(f *testing.F) {
	for _, s := range matchInputs {
		f.Add(s)
	}
	f.Fuzz(checkMatchers)
}
