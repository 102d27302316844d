package main

import (
	"bytes"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/diagnose"
	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/internal/plainwords"
	"github.com/backfill-explainer/explainer/lessons"
	"github.com/backfill-explainer/explainer/scenarios"
)

// The rule for what a person reads: a Rust identifier or an internal label appears only in a
// citation (file:lines), in the glossary entry that explains it, or in parentheses beside its
// meaning in plain words ("the start signal (StartFragmentBackfill)"); a banned term never, not
// even in parentheses. The lists are internal/plainwords/words.json, which the docs' test and
// the page's (web/test/plain-words.mjs) read too.
var (
	plain    = plainwords.Load()
	citation = plain.Citation
)

// plainProblems lists what text shows that a person should not have to decode.
func plainProblems(text string) []string { return plain.Problems(text) }

// words gathers the problems of many texts, each named once with where it was first seen.
type words map[string]string

func (w words) check(where, text string) {
	for _, p := range plainProblems(text) {
		if _, ok := w[p]; !ok {
			line := ""
			for _, l := range strings.Split(text, "\n") {
				if strings.Contains(citation.ReplaceAllString(l, " "), p) {
					line = strings.TrimSpace(l)
					break
				}
			}
			w[p] = where + ": " + line
		}
	}
}

func (w words) assertNone(t *testing.T) {
	t.Helper()
	keys := make([]string, 0, len(w))
	for k := range w {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		assert.Fail(t, "not in plain words: "+k, "%s", w[k])
	}
}

func TestPlainProblems(t *testing.T) {
	assert.Empty(t, plainProblems("the start signal (StartFragmentBackfill, naming fragment 7) [locality_provider.rs:486-498]"))
	assert.Empty(t, plainProblems(`the error "actor_id closed" (src/stream/src/task/actor_manager.rs:582)`))
	assert.Equal(t, []string{"StartFragmentBackfill{"}, plainProblems("a barrier (StartFragmentBackfill{7})"))
	assert.Equal(t, []string{"NotStarted"}, plainProblems("Every owned vnode is NotStarted"))
	assert.Equal(t, []string{"expect_first_barrier"}, plainProblems("expect_first_barrier panics"))
	assert.Equal(t, []string{"s Completed"}, plainProblems("every vnode becomes Completed."))
	assert.Empty(t, plainProblems("Completed vnodes pass. RisingWave reads it."))
}

// TestRunSpeaksPlainly: `backfill run` and `backfill run --code` of every built-in under every
// release and bug mode, the scale summary of every built-in workload, and `backfill releases`,
// name no Rust identifier outside citations.
func TestRunSpeaksPlainly(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every built-in under every release and bug mode")
	}
	w := words{}
	modes := []string{"none"}
	for _, b := range engine.Bugs {
		modes = append(modes, b.Name)
	}
	for _, name := range scenarios.BuiltinNames() {
		for _, r := range engine.Releases {
			for _, mode := range modes {
				for _, code := range []string{"--json=false", "--code"} {
					var out, errb bytes.Buffer
					run([]string{"run", code, "--release", r.Name, "--bug", mode, name}, &out, &errb)
					w.check("run "+code+" --release "+r.Name+" --bug "+mode+" "+name, out.String())
				}
			}
		}
	}
	for _, name := range scenarios.WorkloadNames() {
		var out, errb bytes.Buffer
		require.Equal(t, 0, run([]string{"run", name}, &out, &errb), errb.String())
		w.check("run "+name+" (a workload's scale summary)", out.String())
	}
	var out bytes.Buffer
	run([]string{"releases"}, &out, &out)
	w.check("releases", out.String())
	w.assertNone(t)
}

// TestExploreSpeaksPlainly: `backfill explore`'s report of every built-in under every release.
func TestExploreSpeaksPlainly(t *testing.T) {
	if testing.Short() {
		t.Skip("explores every built-in under every release")
	}
	w := words{}
	for _, name := range scenarios.BuiltinNames() {
		for _, r := range engine.Releases {
			var out, errb bytes.Buffer
			run([]string{"explore", "--release", r.Name, name}, &out, &errb)
			w.check("explore --release "+r.Name+" "+name, out.String()+errb.String())
		}
	}
	w.assertNone(t)
}

// TestDiagnosisSpeaksPlainly: the diagnosis's answer to every message it knows, under every
// release, quotes log lines and queries but names no Rust identifier in its own sentences.
func TestDiagnosisSpeaksPlainly(t *testing.T) {
	w := words{}
	for _, k := range diagnose.KnownMessages() {
		for _, r := range append([]string{""}, diagnose.ReleaseNames()...) {
			a, err := diagnose.Diagnose(k.Text, r)
			require.NoError(t, err)
			var own []string
			for _, l := range strings.Split(a.Text(), "\n") {
				if !strings.HasPrefix(l, "Error: ") && !strings.HasPrefix(l, "Panic: ") && !strings.HasPrefix(l, "  Found in: ") {
					own = append(own, l)
				}
			}
			w.check("diagnose --release "+r+" "+k.Text, strings.Join(own, "\n"))
		}
	}
	w.assertNone(t)
}

// TestLessonPlansSpeakPlainly: the built-in lessons' plans.
func TestLessonPlansSpeakPlainly(t *testing.T) {
	w := words{}
	for _, name := range lessons.BuiltinNames() {
		l, err := lessons.OpenBuiltin(name)
		require.NoError(t, err)
		w.check("lesson "+name, l.Plan().Text())
	}
	w.assertNone(t)
}
