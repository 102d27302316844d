package testutil

import (
	"testing"
	"time"
)

// Deadline fires a second before the test's deadline (go test -timeout), and never when there
// is none: a test that waits for an event bounds the wait by it, with no window of its own.
func Deadline(t *testing.T) <-chan time.Time {
	d, ok := t.Deadline()
	if !ok {
		return nil
	}
	return time.After(time.Until(d.Add(-time.Second)))
}

// WaitFor polls cond every 10 ms until it holds; it fails the test, saying what it waited for,
// at Deadline.
func WaitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	end := Deadline(t)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		select {
		case <-end:
			t.Fatalf("still waiting for %s at the test's deadline", what)
		case <-tick.C:
		}
	}
}
