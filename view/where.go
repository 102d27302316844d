package view

import "github.com/backfill-explainer/explainer/engine"

// Where says for people where a sentence's lines are, e.g. "locality_provider.rs:437-465" or
// "executor/mod.rs:1469-1473" (engine.RangeKey), or why it cites none (uncited).
func Where(file string, lines [2]int, uncited string) string {
	switch {
	case file != "":
		return engine.RangeKey(file, lines)
	case uncited == engine.UncitedOutside:
		return "not in locality_provider.rs"
	}
	return "not RisingWave's code: the explainer's own"
}
