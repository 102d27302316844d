package session

import "github.com/backfill-explainer/explainer/scenarios"

// limits are the values a session keeps a run within: a scenario file's (scenarios.MaxBytes,
// MaxSteps, MaxRows), so that a saved run opens again, and the work a run may do
// (scenarios.MaxWork). Tests lower them to exercise the errors.
var limits = struct{ bytes, steps, rows, work int }{scenarios.MaxBytes, scenarios.MaxSteps, scenarios.MaxRows, scenarios.MaxWork}
