package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/backfill-explainer/explainer/internal/golden"
	"github.com/backfill-explainer/explainer/scenarios"
	"github.com/backfill-explainer/explainer/session"
	"github.com/backfill-explainer/explainer/view"
	"github.com/backfill-explainer/explainer/wire"
	"github.com/backfill-explainer/explainer/workload"
)

// openWorkload finds a workload: a file whose top level has `workload:`, or a built-in
// workload's name. ok is false when arg is neither (it is then a scenario with steps).
func openWorkload(arg string) (ws *scenarios.WorkloadScenario, ok bool, err error) {
	text, rerr := readScenario(arg) // at most the size limit and a byte (read.go)
	var se *scenarios.Error
	if errors.As(rerr, &se) {
		return nil, true, rerr // too large, as a scenario or a workload
	}
	if rerr == nil {
		if !scenarios.IsWorkload(text) {
			return nil, false, nil
		}
		ws, err = scenarios.ParseWorkload(arg, text)
		return ws, true, err
	}
	if strings.ContainsAny(arg, "/\\.") {
		return nil, false, nil
	}
	for _, n := range scenarios.WorkloadNames() {
		if n == arg {
			ws, err = scenarios.OpenWorkload(n)
			return ws, true, err
		}
	}
	return nil, false, nil
}

// runWorkload runs a workload and prints its scale summary: JSON, or a table for people.
func runWorkload(ws *scenarios.WorkloadScenario, asJSON bool, bug string, stdout, stderr io.Writer) int {
	if bug != "" {
		if err := ws.SetBug(bug); err != nil {
			fmt.Fprintf(stderr, "backfill: %v\n", err)
			return 2
		}
	}
	sum, err := ws.Run(progressTo(stderr))
	if err != nil {
		var pe *scenarios.Error
		if errors.As(err, &pe) {
			fmt.Fprintln(stderr, pe.Error())
			return 2
		}
		fmt.Fprintf(stderr, "backfill: internal error: %v\n", err)
		return 1
	}
	if asJSON {
		b, err := wire.ScaleSummaryJSON(sum)
		if err != nil {
			fmt.Fprintf(stderr, "backfill: %v\n", err)
			return 1
		}
		_, err = stdout.Write(b)
		if err != nil {
			fmt.Fprintf(stderr, "backfill: %v\n", err)
			return 1
		}
		return 0
	}
	out := newTermWriter(stdout) // the title comes from the file
	writeScaleText(ws, sum, out)
	if err := out.Flush(); err != nil {
		fmt.Fprintf(stderr, "backfill: %v\n", err)
		return 1
	}
	return 0
}

// progressTo shows a run's progress on a terminal (nothing when stderr is a file or a pipe).
func progressTo(stderr io.Writer) func(done, total int) bool {
	if tw, ok := stderr.(*termWriter); ok {
		stderr = tw.w // the progress line is ours, its control characters on purpose
	}
	f, ok := stderr.(*os.File)
	if !ok {
		return nil
	}
	if st, err := f.Stat(); err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return nil
	}
	return func(done, total int) bool {
		if done >= total {
			fmt.Fprint(f, "\r\033[K")
		} else {
			fmt.Fprintf(f, "\rrunning the workload… %3d%%", done*100/max(1, total))
		}
		return true
	}
}

// maxTableLines bounds the text form's table: with more barriers, each line sums up a run of
// consecutive barriers.
const maxTableLines = 40

// writeScaleText prints a workload's summary for people: what ran, a table by barrier (or by
// runs of barriers), each recovery where it happened, and the totals.
func writeScaleText(ws *scenarios.WorkloadScenario, s *workload.ScaleSummary, w io.Writer) {
	cfg, wl := ws.Config, s.Workload
	fmt.Fprintf(w, "%s\n%s\n", s.Title, strings.Repeat("=", len([]rune(s.Title))))
	session.ReleaseHeader(w, cfg)
	if info := view.BugIn(cfg.Bug, cfg.RunRelease()); info != nil {
		fmt.Fprintf(w, "BUG MODE %s: %s.\n", info.Name, info.Summary)
	}
	owned := fmt.Sprintf("%s vnodes", num(s.Vnodes))
	if s.Owned != s.Vnodes {
		owned = fmt.Sprintf("%s of %s vnodes", num(s.Owned), num(s.Vnodes))
	}
	fmt.Fprintf(w, "Workload: %s rows inserted while buffering, over %s barriers; %s (%s), chunk size %d; seed %d.\n",
		num(wl.Rows), num(wl.StartAfter), owned, cfg.Rule, cfg.ChunkSize, wl.Seed)
	fmt.Fprintf(w, "Each backfill epoch: %s snapshot items, then %s upstream changes (insert %d : update %d : delete %d), then a barrier; %s more epochs after the snapshot ends.\n",
		num(wl.SnapshotPerEpoch), num(wl.UpstreamPerEpoch), wl.Mix.Insert, wl.Mix.Update, wl.Mix.Delete, num(wl.After))
	if f := wl.Fault; f != nil {
		fmt.Fprintf(w, "Fault: %s at epoch %d, instead of its barrier.\n", f.Kind, f.Epoch)
	}
	fmt.Fprintln(w)

	n := len(s.Series.Epoch)
	group := (n + maxTableLines - 1) / maxTableLines
	if group > 1 {
		fmt.Fprintf(w, "One line per %d barriers: buffered is the most at any of them, snapshot/visible/hidden their sums, vnodes as at the last.\n", group)
	}
	fmt.Fprintf(w, "%-13s %-24s %9s %10s %8s %8s %12s %10s\n", "epoch", "phase", "buffered", "snapshot", "visible", "hidden", "in progress", "completed")
	rec := 0
	printRecoveries := func(upTo int) {
		for ; rec < len(s.Recoveries) && s.Recoveries[rec].Barrier <= upTo; rec++ {
			writeRecovery(w, s.Recoveries[rec], s.Violation != nil && s.Violation.Missing > 0)
		}
	}
	ser := s.Series
	for i := 0; i < n; {
		j := min(n, i+group)
		printRecoveries(i)
		// a recovery inside the group splits it
		for r := rec; r < len(s.Recoveries); r++ {
			if b := s.Recoveries[r].Barrier; b > i && b < j {
				j = b
				break
			}
		}
		ep := fmt.Sprintf("e%d", ser.Epoch[i])
		if j-1 > i {
			ep += fmt.Sprintf("–e%d", ser.Epoch[j-1])
		}
		phase := ser.Phase[i]
		if ser.Phase[j-1] != phase {
			phase += "→" + ser.Phase[j-1]
		}
		buffered, snap, vis, hid := 0, 0, 0, 0
		for k := i; k < j; k++ {
			buffered = max(buffered, ser.BufferedRows[k])
			snap += ser.SnapshotRows[k]
			vis += ser.UpstreamVisible[k]
			hid += ser.UpstreamHidden[k]
		}
		fmt.Fprintf(w, "%-13s %-24s %9s %10s %8s %8s %12s %10s\n", ep, phase, num(buffered), num(snap), num(vis), num(hid),
			num(ser.VnodesInProgress[j-1]), num(ser.VnodesCompleted[j-1]))
		i = j
	}
	printRecoveries(n)
	t := s.Totals
	fmt.Fprintf(w, "\nphase: %s", s.Phase)
	if s.Error != nil {
		fmt.Fprintf(w, " (%s)", s.Error.Message)
	}
	fmt.Fprintf(w, "; %s barriers; downstream holds %s rows, the upstream %s.\n", num(s.Epochs), num(s.DownstreamRows), num(t.UpstreamRows))
	fmt.Fprintf(w, "Upstream changes: %s inserts (%s of them while buffering), %s updates, %s deletes; after the start %s rows came out visible and %s hidden. The snapshot emitted %s rows.\n",
		num(t.Inserted), num(wl.Rows), num(t.Updated), num(t.Deleted), num(t.UpstreamVisible), num(t.UpstreamHidden), num(t.SnapshotRows))
	if v := s.Violation; v != nil {
		fmt.Fprintf(w, "invariant: violated, first at e%d (%s missing, %s extra) — %s\n", v.Epoch, num(v.Missing), num(v.Extra), v.Text)
	} else {
		fmt.Fprintf(w, "invariant: %s at every barrier.\n", s.Invariant)
	}
}

// writeRecovery says what a recovery threw away. Where rows are missing downstream (the
// invariant broken) they are "lost"; otherwise the recovery read, delivered and emitted them
// again, and they were only discarded until it: web/scale/scale-panel.js says the same.
func writeRecovery(w io.Writer, r workload.ScaleRecovery, missing bool) {
	what := map[string]string{"end": "the upstream ends", "error": "the upstream yields an error", "recover": "the job recovers"}[r.Kind]
	fmt.Fprintf(w, "── e%d: %s instead of the barrier, while %s", r.Epoch, what, r.During)
	switch {
	case r.Error != nil:
		fmt.Fprintf(w, "; the executor fails: %q", r.Error.Message)
	case r.Outcome == "ended":
		fmt.Fprint(w, "; the executor's stream ends, with no error")
	}
	if r.Dropped {
		fmt.Fprintf(w, ".\n   The recovery dropped the job (%s). %s\n", r.DropReason, r.DropText)
		return
	}
	if missing {
		fmt.Fprintf(w, ".\n   Recovery to the checkpoint e%d: lost %s rows in the builders, %s in the upstream buffer, %s emitted since the checkpoint.\n",
			r.RolledBackTo, num(r.LostBuilderRows), num(r.LostBufferedRows), num(r.LostEmittedRows))
		return
	}
	fmt.Fprintf(w, ".\n   Recovery to the checkpoint e%d: %s rows in the builders and %s in the upstream buffer discarded until recovery, %s emitted since the checkpoint rolled back downstream; the recovery reads, delivers and emits them again: no row is lost.\n",
		r.RolledBackTo, num(r.LostBuilderRows), num(r.LostBufferedRows), num(r.LostEmittedRows))
}

// num writes an integer with thousands separators: 1,000,000.
func num(n int) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// workloadGoldens lists the workloads `backfill check` replays and where their golden summary
// (.json) and table (.txt) are: every built-in workload (scale/golden/NAME beside DIR, the golden
// traces' directory) and every scale/*.yaml beside DIR (the golden files next to it).
func workloadGoldens(dir string) (texts map[string][]byte, files map[string]string, base map[string]string, order []string) {
	texts, files, base = map[string][]byte{}, map[string]string{}, map[string]string{}
	scale := filepath.Join(dir, "..", "scale")
	for _, n := range scenarios.WorkloadNames() {
		t, err := scenarios.WorkloadText(n)
		if err != nil {
			continue
		}
		key := "workload " + n
		texts[key], files[key], base[key] = t, scenarios.WorkloadFile(n), filepath.Join(scale, "golden", n)
		order = append(order, key)
	}
	extra, _ := filepath.Glob(filepath.Join(scale, "*.yaml"))
	for _, f := range extra {
		t, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		key := "workload " + filepath.ToSlash(f)
		texts[key], files[key], base[key] = t, filepath.Base(f), strings.TrimSuffix(f, ".yaml")
		order = append(order, key)
	}
	return texts, files, base, order
}

// renderWorkload runs a workload and renders its summary as JSON and as the table.
func renderWorkload(ws *scenarios.WorkloadScenario) (js, table []byte, err error) {
	sum, err := ws.Run(nil)
	if err != nil {
		return nil, nil, err
	}
	if js, err = wire.ScaleSummaryJSON(sum); err != nil {
		return nil, nil, err
	}
	var b bytes.Buffer
	writeScaleText(ws, sum, &b)
	return js, b.Bytes(), nil
}

// checkWorkloads runs each workload of workloadGoldens (but those skip is true of, when skip is
// not nil) and compares (or, with update, writes) its summary and its table; it returns how
// many it checked and how many differ.
func checkWorkloads(dir string, update bool, skip func(*scenarios.WorkloadScenario) bool, stdout, stderr io.Writer) (n, failed int) {
	texts, files, base, order := workloadGoldens(dir)
	for _, key := range order {
		ws, err := scenarios.ParseWorkload(files[key], texts[key])
		if err == nil && skip != nil && skip(ws) {
			continue
		}
		n++
		var js, table []byte
		if err == nil {
			js, table, err = renderWorkload(ws)
		}
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", key, err)
			failed++
			continue
		}
		ok := true
		for _, g := range []struct {
			ext string
			got []byte
		}{{".json", js}, {".txt", table}} {
			path := base[key] + g.ext
			if update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err == nil {
					err = os.WriteFile(path, g.got, 0o644)
				}
				if err != nil {
					fmt.Fprintf(stderr, "%s: %v\n", key, err)
					return n, failed + 1
				}
				fmt.Fprintf(stdout, "updated %s\n", path)
				continue
			}
			want, err := os.ReadFile(path)
			switch {
			case err != nil:
				fmt.Fprintf(stderr, "%s: no golden summary (%v); run `backfill check -update` to write it\n", key, err)
				ok = false
			case !bytes.Equal(g.got, want):
				fmt.Fprintf(stderr, "%s: the summary differs from %s (rerun with -update if the change is on purpose), first at %s\n", key, path, golden.FirstDiff(g.got, want))
				ok = false
			}
		}
		switch {
		case update:
		case ok:
			fmt.Fprintf(stdout, "ok   %s\n", key)
		default:
			failed++
		}
	}
	return n, failed
}
