package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/backfill-explainer/explainer/scenarios"
)

// newFlags makes a command's flag set; its usage line is derived from the flags (usageLine), so
// it names every flag the command has.
func newFlags(name, operands string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, usageLine(fs, operands))
		fs.PrintDefaults()
	}
	return fs
}

// usageLine is "usage: backfill NAME [--flag V]… OPERANDS", one bracket per flag, in name order;
// V is the flag's `back-quoted` word in its help text (flag.UnquoteUsage).
func usageLine(fs *flag.FlagSet, operands string) string {
	parts := []string{"usage: backfill " + fs.Name()}
	fs.VisitAll(func(f *flag.Flag) {
		v, _ := flag.UnquoteUsage(f)
		if v == "" {
			parts = append(parts, "[--"+f.Name+"]")
			return
		}
		parts = append(parts, "[--"+f.Name+" "+v+"]")
	})
	if operands != "" {
		parts = append(parts, operands)
	}
	return strings.Join(parts, " ")
}

// parseFlags parses flags before, between and after the operands (`run NAME --json` is
// `run --json NAME`) and returns the operands; after "--" everything is an operand. The code is
// 0 when parsing succeeded, else the exit code: 0 for -h (the usage was printed), 2 otherwise.
func parseFlags(fs *flag.FlagSet, args []string) (operands []string, code int, ok bool) {
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, 0, false
			}
			return nil, 2, false
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return operands, 0, true
		}
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" && !takesValue(fs, args[:used-1]) {
			return append(operands, rest...), 0, true
		}
		operands = append(operands, rest[0])
		args = rest[1:]
	}
}

// takesValue reports whether the last of args is a flag waiting for its value (`--bug --`).
func takesValue(fs *flag.FlagSet, args []string) bool {
	if len(args) == 0 {
		return false
	}
	name := strings.TrimLeft(args[len(args)-1], "-")
	if !strings.HasPrefix(args[len(args)-1], "-") || strings.Contains(name, "=") {
		return false
	}
	f := fs.Lookup(name)
	if f == nil {
		return false
	}
	b, isBool := f.Value.(interface{ IsBoolFlag() bool })
	return !isBool || !b.IsBoolFlag()
}

// usageError prints the command's usage (its line and its flags) and returns exit code 2.
func usageError(fs *flag.FlagSet) int {
	fs.Usage()
	return 2
}

// intFlag is an integer flag read as the format reads integers (decimal: scenarios.ParseDecimal)
// and held within lo..hi; unit, when set, follows the range in the error ("(MiB)").
type intFlag struct {
	v      *int
	lo, hi int
	unit   string
}

// intVar defines an integer flag with a range.
func intVar(fs *flag.FlagSet, name string, def, lo, hi int, unit, usage string) *int {
	v := def
	fs.Var(&intFlag{&v, lo, hi, unit}, name, usage)
	return &v
}

func (f *intFlag) String() string {
	if f == nil || f.v == nil {
		return ""
	}
	return strconv.Itoa(*f.v)
}

func (f *intFlag) Set(s string) error {
	n, err := scenarios.ParseDecimal(s)
	if err != nil {
		return err
	}
	if n < int64(f.lo) || n > int64(f.hi) {
		unit := ""
		if f.unit != "" {
			unit = " (" + f.unit + ")"
		}
		return fmt.Errorf("must be in %d..%d%s, found %d", f.lo, f.hi, unit, n)
	}
	*f.v = int(n)
	return nil
}
