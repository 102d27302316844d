//go:build js && wasm

package main

import (
	"errors"
	"fmt"
	"runtime/debug"
	"strconv"

	"github.com/backfill-explainer/explainer/internal/jsonw"
	"github.com/backfill-explainer/explainer/scenarios"
	"github.com/backfill-explainer/explainer/wasm/api"
	"github.com/backfill-explainer/explainer/wire"
	"github.com/backfill-explainer/explainer/workload"
)

// Scale mode over the bridge (the methods are in bridge.go's table):
//
//   - workloads → [{name, title, summary}], the built-in workloads (backfill list --workloads);
//     workload_text(name) → the file's text.
//   - scale(text) → the scale summary, exactly what `backfill run --json` prints for that text
//     (one call: the run, start to end).
//   - scale_start(text) → {done, total} | {done, total, summary}: starts a run that pauses at each
//     of scenarios.Scale's progress calls (about 200 of them) and answers with the first pause;
//     scale_next → the next pause, or the end, whose answer carries the summary. Between two
//     calls the caller is free: the scale worker posts the progress to the page; the offline
//     page, which runs it on its own thread, lets the browser paint and handle Cancel.
//     scale_cancel ends a paused run (scenarios.Scale returns ErrCanceled, restoring the
//     collector's settings); scale_start cancels a paused run first.
//
// A paused run is a goroutine blocked in its progress callback: each call hands it the thread
// by a channel and takes it back at the next pause, within the call, so nothing waits for
// JavaScript's event loop. A panic in the run is recovered in its goroutine and answers the
// call as an internal error, as entry (js.go) does for every other method.

// scalePoint is one pause of a run, or its end (summary or err set).
type scalePoint struct {
	Done    int    `json:"done"`
	Total   int    `json:"total"`
	Summary string `json:"summary,omitempty"` // the summary's JSON text, byte for byte as the CLI prints it
	err     error
}

// scaleRun is a run in progress, paused in its progress callback.
type scaleRun struct {
	resume chan bool       // true: run to the next pause; false: cancel
	points chan scalePoint // each pause, then the end
}

// startScale starts the run and returns it with its first pause (or its end).
func startScale(text string) (*scaleRun, scalePoint) {
	r := &scaleRun{resume: make(chan bool), points: make(chan scalePoint)}
	go r.run(text)
	return r, <-r.points
}

func (r *scaleRun) run(text string) {
	var end scalePoint
	defer func() {
		if rec := recover(); rec != nil {
			debugLog("scale", rec, debug.Stack())
			end = scalePoint{err: fmt.Errorf("internal error: %v", rec)}
		}
		r.points <- end
	}()
	sum, err := scenarios.Scale("", []byte(text), func(done, total int) bool {
		end.Done, end.Total = done, total
		r.points <- scalePoint{Done: done, Total: total}
		return <-r.resume
	})
	if err != nil {
		end.err = err
		return
	}
	b, err := wire.ScaleSummaryJSON(sum)
	if err != nil {
		end.err = fmt.Errorf("internal error: encoding the scale summary: %w", err)
		return
	}
	end.Summary = string(b)
}

// next runs to the next pause; cancel ends the run.
func (r *scaleRun) next() scalePoint   { r.resume <- true; return <-r.points }
func (r *scaleRun) cancel() scalePoint { r.resume <- false; return <-r.points }

func (p scalePoint) ended() bool { return p.Summary != "" || p.err != nil }

// scaleWhole is the method scale: one run, start to end. The answer is the summary's JSON
// compact (the command line's text without its indentation, which is all JSON.parse skips).
func scaleWhole(_ *bridge, text string) (*workload.ScaleSummary, error) {
	return scenarios.Scale("", []byte(text), nil)
}

// appendScalePoint writes a pause {done, total} or the end {done, total, summary}.
func appendScalePoint(b []byte, p api.ScalePoint) []byte {
	b = append(b, `{"done":`...)
	b = strconv.AppendInt(b, int64(p.Done), 10)
	b = append(b, `,"total":`...)
	b = strconv.AppendInt(b, int64(p.Total), 10)
	if p.Summary != "" {
		b = append(b, `,"summary":`...)
		b = jsonw.String(b, p.Summary)
	}
	return append(b, '}')
}

func scaleStart(b *bridge, text string) (api.ScalePoint, error) {
	scaleCancel(b, api.None{})
	r, p := startScale(text)
	return b.scalePaused(r, p)
}

func scaleNext(b *bridge, _ api.None) (api.ScalePoint, error) {
	if b.scale == nil {
		return api.ScalePoint{}, errors.New("scale_next: no workload is running (start one with scale_start)")
	}
	return b.scalePaused(b.scale, b.scale.next())
}

// scaleCancel ends the paused run, if there is one.
func scaleCancel(b *bridge, _ api.None) (api.None, error) {
	if b.scale != nil {
		r := b.scale
		b.scale = nil
		r.cancel()
	}
	return api.None{}, nil
}

// scalePaused keeps a run that paused, or answers with its end.
func (b *bridge) scalePaused(r *scaleRun, p scalePoint) (api.ScalePoint, error) {
	point := api.ScalePoint{Done: p.Done, Total: p.Total, Summary: p.Summary}
	if !p.ended() {
		b.scale = r
		return point, nil
	}
	b.scale = nil
	if p.err != nil {
		return api.ScalePoint{}, p.err
	}
	return point, nil
}

func workloadText(_ *bridge, name string) (string, error) {
	t, err := scenarios.WorkloadText(name)
	return string(t), err
}
