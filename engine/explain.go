package engine

import "fmt"

// SourceCommit is the RisingWave commit the model was read off.
const SourceCommit = "448c6570b1b9d636736708340f61a85900c2b7d7"

// SourceURL links a range of lines of locality_provider.rs at SourceCommit.
func SourceURL(lines [2]int) string {
	return fmt.Sprintf("https://github.com/risingwavelabs/risingwave/blob/%s/src/stream/src/executor/locality_provider.rs#L%d-L%d", SourceCommit, lines[0], lines[1])
}

// Line ranges of locality_provider.rs at SourceCommit (protocol.md's source map).
var (
	LinesProgressStates  = [2]int{41, 160}
	LinesSnapshotStream  = [2]int{220, 266}
	LinesPersistLoad     = [2]int{268, 368}
	LinesMarking         = [2]int{370, 403}
	LinesSnapshotChunk   = [2]int{405, 425}
	LinesFirstBarrier    = [2]int{437, 465}
	LinesBuffering       = [2]int{466, 518}
	LinesBackfillLoop    = [2]int{546, 656}
	LinesFatalEnd        = [2]int{599, 604}
	LinesBackfillBarrier = [2]int{657, 735}
	LinesCompletion      = [2]int{741, 799}
	LinesForwarding      = [2]int{801, 833}
)

// Effect is one thing that happened in a step, in plain words, with the source lines that do it.
type Effect struct {
	Kind  string `json:"kind"`
	Text  string `json:"text"`
	Lines [2]int `json:"lines"`
	URL   string `json:"url"`
	Fix   string `json:"fix,omitempty"` // a link to the real fix, for a bug mode's explanation
}

// say records an effect of the current step.
func (e *Engine) say(kind string, lines [2]int, format string, args ...any) {
	if !e.narrate {
		return
	}
	e.effects = append(e.effects, Effect{Kind: kind, Text: fmt.Sprintf(format, args...), Lines: lines, URL: SourceURL(lines)})
}

// plural renders "1 row" / "2 rows".
func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}
