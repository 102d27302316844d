package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/backfill-explainer/explainer/scenarios"
)

// readScenario reads a scenario file, never more than the size limit and one byte: a larger
// file (or a device that never ends, /dev/zero) is refused with its size, or with "more than",
// before it is read further.
func readScenario(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil {
		if st.IsDir() {
			return nil, fmt.Errorf("%s is a directory, not a scenario file", path)
		}
		if st.Mode().IsRegular() && st.Size() > scenarios.MaxBytes {
			return nil, tooLarge(path, fmt.Sprintf("%d bytes", st.Size()))
		}
	}
	return readLimited(path, f)
}

// readLimited reads r to its end, refusing it once it holds more than the size limit.
func readLimited(path string, r io.Reader) ([]byte, error) {
	text, err := io.ReadAll(io.LimitReader(r, scenarios.MaxBytes+1))
	if err != nil {
		return nil, err
	}
	if len(text) > scenarios.MaxBytes {
		return nil, tooLarge(path, fmt.Sprintf("more than %d bytes", scenarios.MaxBytes))
	}
	return text, nil
}

func tooLarge(path, size string) error {
	return &scenarios.Error{File: path, Line: 1, Col: 1, Msg: fmt.Sprintf("the scenario is %s; the limit is %d bytes (1 MiB)", size, scenarios.MaxBytes)}
}

// isNotExist reports whether err says the file is not there.
func isNotExist(err error) bool { return errors.Is(err, os.ErrNotExist) }
