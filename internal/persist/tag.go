package persist

// Tag marks what one copy of a Vec or Seq may change in place: a page or node whose owner is
// the copy's tag is its own; anything else is shared and is copied before a change.
type Tag struct{ _ byte } // not zero-sized, so that every new tag is a distinct pointer

// NewTag returns a tag that owns nothing yet.
func NewTag() *Tag { return new(Tag) }
