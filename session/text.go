package session

import (
	"fmt"
	"io"
	"strings"

	"github.com/backfill-explainer/explainer/codemap"
	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/failure"
	"github.com/backfill-explainer/explainer/view"
	"github.com/backfill-explainer/explainer/wire"
)

// WriteText writes the run as a readable trace, from its first step to its last, whatever the
// current step (it is kept): each step, its outputs with ✓/✗ per row, the explanation. It is
// what `backfill run` prints and what the page saves as text.
func (s *Session) WriteText(w io.Writer) error { return s.WriteTextCode(w, false) }

// WriteTextCode is WriteText; with code, each step also names the code-map lines it lights
// (`backfill run --code`).
func (s *Session) WriteTextCode(w io.Writer, code bool) error {
	tl := s.Timeline()
	at := tl.Pos()
	if err := tl.Goto(0); err != nil {
		return err
	}
	err := s.writeText(w, code)
	if gerr := tl.Goto(at); err == nil {
		err = gerr
	}
	return err
}

func (s *Session) writeText(w io.Writer, code bool) error {
	tl := s.Timeline()
	cfg := s.Scenario.Config
	fmt.Fprintf(w, "%s\n%s\n", cfg.Title, strings.Repeat("=", len([]rune(cfg.Title))))
	ReleaseHeader(w, cfg)
	if info := view.BugIn(cfg.Bug, cfg.RunRelease()); info != nil {
		fmt.Fprintf(w, "BUG MODE %s: %s.\n%s\n", info.Name, info.Summary, info.Why)
		if info.History != "" {
			fmt.Fprintf(w, "%s\n", info.History)
		}
	}
	if cfg.Summary != "" {
		fmt.Fprintf(w, "%s\n", strings.TrimSpace(cfg.Summary))
	}
	fmt.Fprintln(w, "Key: → what the executor emits downstream (✓ a visible row, ✗ a hidden one); · what it does, with the source lines [file:lines].")
	fmt.Fprintln(w)
	for tl.Pos() < tl.Len() {
		st := tl.Script()[tl.Pos()]
		if err := s.Step(); err != nil {
			return err
		}
		e := tl.Engine()
		fmt.Fprintf(w, "step %d  %s   [%s]\n", tl.Pos(), st.Describe(cfg.Columns), e.Phase())
		if code {
			for _, l := range codemap.Text(e.Release(), codemap.Lit(e.Release(), e.Explanations())) {
				fmt.Fprintf(w, "  ▶ code: %s\n", l)
			}
		}
		if note, _ := tl.Note(); note != "" {
			fmt.Fprintf(w, "  note: %s\n", note)
		}
		outs := e.Outputs()
		first := len(outs)
		for first > 0 && outs[first-1].Step == tl.Pos() {
			first--
		}
		for _, o := range outs[first:] {
			fmt.Fprintf(w, "  → %s\n", outputWords(o))
		}
		for _, ef := range e.Explanations() {
			fmt.Fprintf(w, "  · %s  [%s]\n", ef.Text, view.Where(ef.File, ef.Lines, ef.Uncited))
		}
		if f := s.FailureExplanation(); f != nil && f.Step == tl.Pos() {
			writeFailure(w, f)
		}
	}
	e := tl.Engine()
	tr := e.Trace()
	fmt.Fprintf(w, "\nphase: %s\n", tr.Phase)
	if tr.Error != nil {
		kind := "error"
		if tr.Error.Panic {
			kind = "panic"
		}
		fmt.Fprintf(w, "%s at step %d: %s\n", kind, tr.Error.Step, tr.Error.Message)
	}
	writeProgressTable(w, cfg, tr.ProgressTable)
	fmt.Fprintf(w, "downstream:")
	for _, r := range tr.Downstream {
		fmt.Fprintf(w, " %s", r)
	}
	inv := e.Invariant()
	fmt.Fprintf(w, "\ninvariant: %s", inv.Status)
	if inv.Text != "" {
		fmt.Fprintf(w, " — %s", inv.Text)
	}
	fmt.Fprintln(w)
	return nil
}

// outputWords names an output as the page's chips do: "barrier e4", "watermark a = 7".
func outputWords(o engine.Output) string {
	switch o.Type {
	case engine.OutBarrier:
		if !o.Checkpoint {
			return fmt.Sprintf("barrier e%d (not a checkpoint)", o.Epoch)
		}
		return fmt.Sprintf("barrier e%d", o.Epoch)
	case engine.OutWatermark:
		return fmt.Sprintf("watermark %s = %s", o.Column, o.Value)
	}
	return o.String()
}

// writeProgressTable prints the durable progress table's rows ([vnode, pos…, finished, rows])
// as a small table with headings.
func writeProgressTable(w io.Writer, cfg *engine.Config, rows [][]any) {
	if len(rows) == 0 {
		fmt.Fprintln(w, "progress table (durable): no rows")
		return
	}
	var names []string
	for _, c := range cfg.PK() {
		names = append(names, cfg.Columns[c].Name)
	}
	table := [][]string{{"vnode", "position (" + strings.Join(names, ", ") + ")", "finished", "rows"}}
	for _, r := range rows {
		cell := func(v any) string { return string(wire.AppendAny(nil, v, true)) } // as json.Marshal writes it (no encoding/json in the wasm)
		var pos []string
		for _, v := range r[1 : len(r)-2] {
			pos = append(pos, cell(v))
		}
		fin := "no"
		if f, _ := r[len(r)-2].(bool); f {
			fin = "yes"
		}
		table = append(table, []string{cell(r[0]), "(" + strings.Join(pos, ",") + ")", fin, cell(r[len(r)-1])})
	}
	width := make([]int, 4)
	for _, row := range table {
		for i, c := range row {
			width[i] = max(width[i], len([]rune(c)))
		}
	}
	fmt.Fprintln(w, "progress table (durable):")
	for _, row := range table {
		line := " "
		for i, c := range row {
			line += " " + c + strings.Repeat(" ", width[i]-len([]rune(c))+1)
		}
		fmt.Fprintln(w, strings.TrimRight(line, " "))
	}
}

// writeFailure prints a failure's explanation: what it means, what the source proves (with
// lines), what we only infer, what it left behind and what recovery does.
func writeFailure(w io.Writer, f *failure.FailureView) {
	what := "error"
	if f.Panic {
		what = "panic"
	}
	fmt.Fprintf(w, "  ✕ %s (%s): %s\n", what, f.Kind, f.Message)
	fmt.Fprintf(w, "    failed %s, under %s\n", f.PhaseLabel, f.Release)
	fmt.Fprintf(w, "    what happens to data: %s %s %s\n", f.Data.Headline, f.Data.Until, f.Data.After)
	if len(f.Checks) > 0 {
		fmt.Fprintf(w, "    what to check, in order (%s):\n", f.ChecksFrom)
		for i, c := range f.Checks {
			fmt.Fprintf(w, "      %d. %s\n", i+1, c)
		}
	}
	fmt.Fprintf(w, "    what it means: %s\n", f.Meaning)
	fmt.Fprintf(w, "    what the source proves:\n")
	for _, c := range f.Proven {
		fmt.Fprintf(w, "      - %s  [%s]\n", c.Text, view.Where(c.File, c.Lines, ""))
	}
	fmt.Fprintf(w, "    what we infer (not in the source):\n")
	for _, s := range f.Inferred {
		fmt.Fprintf(w, "      - %s\n", s)
	}
	fmt.Fprintf(w, "    left behind: %s\n", f.LeftBehind)
	fmt.Fprintf(w, "    from here: %s\n", f.Recovery)
}

// ReleaseHeader writes the readable traces' line naming a release other than the default.
func ReleaseHeader(w io.Writer, cfg *engine.Config) {
	if r := cfg.Release; r != nil && r != engine.DefaultRelease {
		fmt.Fprintf(w, "RELEASE %s (%s, cited at %s): %s.\n", r.Name, r.Tags, r.Ref, r.Summary)
	}
}
