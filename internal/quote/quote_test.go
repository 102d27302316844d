package quote

import (
	"strings"
	"testing"
)

func TestClipAndLines(t *testing.T) {
	if got := Clip(strings.Repeat("é", 201)); got != strings.Repeat("é", 200)+"…" {
		t.Fatalf("Clip: %q", got)
	}
	if got := Q("short"); got != `"short"` {
		t.Fatalf("Q: %s", got)
	}
	got := Lines("a\n" + strings.Repeat("x", 1000) + "\nb\n")
	if want := "a\n" + strings.Repeat("x", 600) + "…\nb\n"; got != want {
		t.Fatalf("Lines: %q", got)
	}
}
