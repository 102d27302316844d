package diagnose

// The 10-minute lesson for someone who met the backfill's fatal error in a log
// (lessons/met-this-error.yaml): the answer links it for that error and for what older
// releases raise instead.

// LessonLink opens a built-in lesson on the page.
type LessonLink struct {
	Name    string `json:"name"`
	Title   string `json:"title"`
	Minutes int    `json:"minutes"`
	Hash    string `json:"hash"` // #lesson=NAME&section=1
}

// MetThisError is the lesson (its name, title and minutes; a test checks them against the file).
var MetThisError = LessonLink{Name: "met-this-error", Title: "I met this error: locality provider upstream ended unexpectedly during backfill", Minutes: 10, Hash: "#lesson=met-this-error&section=1"}

// lessonFor is the lesson an answer links, or nil.
func lessonFor(id MessageID) *LessonLink {
	if id == MsgUpstreamEnded || id == MsgActorExited {
		l := MetThisError
		return &l
	}
	return nil
}
