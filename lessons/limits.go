package lessons

import "github.com/backfill-explainer/explainer/scenarios"

// Limits of a lesson file (docs/lesson-format.md). Each is reported with a clear error.
const (
	MaxBytes          = 64 << 10 // text of a lesson file, inline scenarios included (a 932 KB one took 17 s on the page)
	MaxSections       = 100      // entries of `sections`
	MaxQuestions      = 50       // questions of one section
	MaxSectionMinutes = 240      // a section's planned minutes are 1..MaxSectionMinutes
	MaxMinutes        = 600      // the sections' minutes in all
	MaxSteps          = scenarios.MaxSteps
)

// limits are the values the reader enforces; tests lower them to exercise the errors.
var limits = struct{ bytes, sections, questions int }{MaxBytes, MaxSections, MaxQuestions}
