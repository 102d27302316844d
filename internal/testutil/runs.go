package testutil

import "testing"

// EveryRun runs each, as the subtest "NAME/MODE", on what open returns for every name under
// every mode: "" (as written), then each of bugs. Under -short with shortStride > 0 only every
// shortStride-th name runs, under one mode, the modes in turn (so each mode, as written too, is
// still run): for the checks that are slow on every pair.
func EveryRun[S any](t *testing.T, names, bugs []string, shortStride int, open func(name, bug string) (S, error), each func(*testing.T, S)) {
	t.Helper()
	modes := append([]string{""}, bugs...)
	stride := 0
	if testing.Short() {
		stride = shortStride
	}
	for i, name := range names {
		if stride > 0 && i%stride != 0 {
			continue
		}
		for j, bug := range modes {
			if stride > 0 && j != (i/stride)%len(modes) {
				continue
			}
			t.Run(name+"/"+bug, func(t *testing.T) {
				s, err := open(name, bug)
				if err != nil {
					t.Fatalf("%s under %q: %v", name, bug, err)
				}
				each(t, s)
			})
		}
	}
}
