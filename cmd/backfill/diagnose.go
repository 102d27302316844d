package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/backfill-explainer/explainer/diagnose"
)

// diagnoseCmd answers an engineer holding a log line:
//
//	backfill diagnose [--release R] [--json] TEXT|-
//
// TEXT is the message or log excerpt (several arguments are joined with spaces); - reads it
// from stdin. At most 64 KiB is read. Exit 0 whether or not the text was recognised, 2 for bad
// flags, an unknown release or no text.
func diagnoseCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("diagnose", "TEXT|-", stderr)
	release := fs.String("release", "", "the RisingWave release `R` the log comes from: "+strings.Join(diagnose.ReleaseNames(), ", "))
	asJSON := fs.Bool("json", false, "print the structured answer as JSON")
	operands, code, ok := parseFlags(fs, args)
	if !ok {
		return code
	}
	if len(operands) == 0 {
		fmt.Fprintln(stderr, usageLine(fs, "TEXT|-")+"   (- reads the text from stdin)")
		return 2
	}
	text := strings.Join(operands, " ")
	if len(operands) == 1 && operands[0] == "-" {
		b, err := io.ReadAll(io.LimitReader(stdin, diagnose.Limit+1))
		if err != nil {
			fmt.Fprintf(stderr, "backfill: reading stdin: %v\n", err)
			return 1
		}
		text = string(b)
	}
	a, err := diagnose.Diagnose(text, *release)
	if err != nil {
		fmt.Fprintf(stderr, "backfill: --release: %v\n", err)
		return 2
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(a); err != nil {
			fmt.Fprintf(stderr, "backfill: internal error: %v\n", err)
			return 1
		}
		return 0
	}
	fmt.Fprint(stdout, a.Text())
	return 0
}
