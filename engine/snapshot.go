package engine

// lane is one vnode's part of a snapshot stream: the committed rows after its pos.
type lane struct {
	vi    int
	vnode int
	rows  []Row // read-only view of a committed state-table version
	next  int   // index of the next row to deliver
}

// Snapshot is the snapshot stream: for each owned vnode in ascending order (Completed ones
// skipped), the rows after pos as of one commit, then its end.
type Snapshot struct {
	epoch     int64 // the commit it reads
	lanes     []lane
	cur       int  // lane being read
	ended     bool // the end has been delivered
	openedAt  int  // step that opened it
	refreshed bool // opened by a refresh (rather than at backfill start)
}

func (s *Snapshot) clone() *Snapshot {
	c := *s
	c.lanes = append([]lane(nil), s.lanes...)
	return &c
}

// Remaining counts the items still to deliver, the end counting as one.
func (s *Snapshot) Remaining() int {
	if s.ended {
		return 0
	}
	n := 1
	for i := s.cur; i < len(s.lanes); i++ {
		n += len(s.lanes[i].rows) - s.lanes[i].next
	}
	return n
}

// peek returns the next item: a lane index and row, or ok=false for the end.
func (s *Snapshot) peek() (li int, row Row, ok bool) {
	for i := s.cur; i < len(s.lanes); i++ {
		if l := &s.lanes[i]; l.next < len(l.rows) {
			return i, l.rows[l.next], true
		}
	}
	return -1, nil, false
}

// advance consumes the item peek returned.
func (s *Snapshot) advance(li int) {
	if li < 0 {
		s.ended = true
		s.cur = len(s.lanes)
		return
	}
	s.cur = li
	s.lanes[li].next++
}
