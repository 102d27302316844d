package engine

import "fmt"

// Play applies the next step of a script that was written for another run of the scenario,
// typically the same script under another bug mode. A step that fits is applied as it is. One
// that no longer fits is adapted and never dropped in silence: a snapshot delivery asking for
// more items than this run's snapshot has left delivers what remains; a step that cannot happen
// at all here (no snapshot is being read, the executor has already failed or ended, the upstream
// cannot send that chunk now) is skipped. Either way the step counts, so the run stays aligned
// with its script, and an explanation says what the script asked, what happened instead and why.
// Play returns the step as it happened (a shortened snapshot delivery has the count it
// delivered) and, when the step was skipped, why it could not happen ("" when it did).
func (e *Engine) Play(s Step) (played Step, skipped string) {
	err := e.validate(s)
	if err == nil {
		if werr := e.checkWork(s); werr != nil {
			err = werr // past the run's work limit: it cannot happen here either
		}
	}
	if err == nil {
		e.Apply(s) //nolint:errcheck // validated above, within the work limit
		return s, ""
	}
	why := err.(*InputError).Msg
	asked := s.Describe(e.cfg.Columns)
	if s.Kind == EventBarrier && e.startRefused(s.Barrier) {
		// the release's meta service never sends it: the barrier comes without the signal
		plain := s
		plain.Barrier.StartBackfill = nil
		for _, id := range s.Barrier.StartBackfill {
			if id != e.cfg.Fragment {
				plain.Barrier.StartBackfill = append(plain.Barrier.StartBackfill, id)
			}
		}
		if werr := e.Apply(plain); werr == nil {
			if e.narration.on {
				e.narration.explanations = append([]Explanation{e.adaptExplanation("The script's step asks: %s. Under %s it cannot carry the start signal: %s, so the barrier comes without it.", asked, e.rel().Name, e.startRefusedText())}, e.narration.explanations...)
			}
			return plain, ""
		}
	}
	if s.Kind == EventSnapshot && e.phase == PhaseBackfilling && e.snap != nil {
		if left := e.snap.Remaining(); left > 0 && left < s.Count {
			short := s
			short.Count = left
			werr := e.Apply(short)
			if werr == nil {
				if e.narration.on {
					e.narration.explanations = append([]Explanation{e.adaptExplanation("The script's step asks: %s. In this run the snapshot has only %s left: the script was written for another run, and %s, so it delivers those.", asked, Plural(left, "item"), e.runDiffers())}, e.narration.explanations...)
				}
				return short, ""
			}
			why = werr.(*InputError).Msg // past the work limit: skipped like a step that cannot happen
		}
	}
	e.step++
	e.narration.explanations = e.narration.explanations[:0:0]
	e.narration.skipped = true
	if e.narration.on {
		e.narration.explanations = append(e.narration.explanations, e.adaptExplanation("The script's step asks: %s. In this run it cannot happen: %s. The script was written for another run, and %s, so the step is skipped.", asked, lowerFirst(why), e.runDiffers()))
	}
	return s, lowerFirst(why)
}

// Skipped reports whether the last step was skipped by Play: it could not happen in this run.
func (e *Engine) Skipped() bool { return e.narration.skipped }

// adaptExplanation is the explainer's own sentence about adapting a script to this run: it cites
// nothing.
func (e *Engine) adaptExplanation(format string, args ...any) Explanation {
	return Explanation{Kind: siteAdapt.Kind, Text: fmt.Sprintf(format, args...), Uncited: siteAdapt.Uncited, Site: siteAdapt.ID}
}

// runDiffers says why this run differs from the one its script was written for.
func (e *Engine) runDiffers() string {
	if e.cfg.Bug != BugNone {
		return fmt.Sprintf("bug mode %s changed what happened before this step", e.cfg.Bug)
	}
	return "without its bug mode things happened differently before this step"
}

func lowerFirst(s string) string {
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		return s
	}
	return string(s[0]-'A'+'a') + s[1:]
}
