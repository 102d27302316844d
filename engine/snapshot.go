package engine

import (
	"slices"

	"github.com/backfill-explainer/explainer/internal/persist"
)

// lane is one vnode's part of a snapshot stream: the committed rows after its pos.
type lane struct {
	vi    OwnedIndex
	vnode int
	rows  persist.Seq[Row] // a committed state-table version of the vnode's rows (read-only)
	first int              // index in rows of the lane's first row (the first after pos)
	next  int              // index in rows of the next row to deliver
}

// total is the number of rows in the lane.
func (l *lane) total() int { return l.rows.Len() - l.first }

// Snapshot is the snapshot stream: for each owned vnode in ascending order (Completed ones
// skipped), the rows after pos as of one commit, then its end. It keeps what it read from as of
// its opening (the committed rows, the progress, which vnodes have rows past their pos), and
// makes a vnode's lane only when the stream reaches it, so that opening one costs nothing per
// vnode or per row: a refresh at every barrier stays cheap however many rows wait.
type Snapshot struct {
	epoch     int64                                      // the commit it reads
	version   *persist.Vec[OwnedIndex, persist.Seq[Row]] // the committed rows it reads (frozen)
	progress  *persist.Vec[OwnedIndex, VnodeProgress]    // the progress when it opened (frozen)
	unread    persist.Bitset[OwnedIndex]                 // the vnodes with rows to read when it opened (frozen)
	owned     []int
	pk        []int
	cur       lane      // the lane being read (valid when reached() ≥ 0)
	done      *laneList // the lanes read before it, the last first (shared by copies)
	left      int       // rows still to deliver
	ended     bool      // the end has been delivered
	openedAt  int       // step that opened it
	refreshed bool      // opened by a refresh (rather than at backfill start)
	// leaf is the items of the leaf of cur's rows that the stream read last, from index leafAt
	// of them: the next row is usually there (read-only, see persist.Seq.LeafOf; nil when cur
	// changes)
	leaf   []Row
	leafAt int
}

// laneList is a list of lanes read to their end, newest first; copies share it.
type laneList struct {
	l    lane
	prev *laneList
}

func (s *Snapshot) clone() *Snapshot {
	c := *s
	return &c
}

// lanes returns the lanes reached so far, in vnode order (the last one is being read).
func (s *Snapshot) lanes() []lane {
	var out []lane
	for d := s.done; d != nil; d = d.prev {
		out = append(out, d.l)
	}
	slices.Reverse(out)
	if s.reached() >= 0 {
		out = append(out, s.cur)
	}
	return out
}

// Remaining counts the items still to deliver, the end counting as one.
func (s *Snapshot) Remaining() int {
	if s.ended {
		return 0
	}
	return s.left + 1
}

// laneAt makes the lane of vnode index vi as of the snapshot's opening.
func (s *Snapshot) laneAt(vi OwnedIndex) lane {
	l := lane{vi: vi, vnode: s.owned[vi], rows: s.version.At(vi)}
	if p := s.progress.At(vi); p.State == InProgress {
		l.first = l.rows.Search(func(r Row) bool { return comparePK(r, p.Pos, s.pk) > 0 })
	}
	l.next = l.first
	return l
}

// reached is the vnode index of the lane being read, or -1 before the first.
func (s *Snapshot) reached() OwnedIndex {
	if s.cur.rows.Len() == 0 {
		return -1
	}
	return s.cur.vi
}

// peek returns the next item: the vnode index it is on and the row, or ok=false for the end. It
// may move on to the next lane (the stream moves to the next vnode with rows once a lane is read).
func (s *Snapshot) peek() (vi OwnedIndex, row Row, ok bool) {
	for {
		if l := &s.cur; s.reached() >= 0 && l.next < l.rows.Len() {
			if j := l.next - s.leafAt; j >= 0 && j < len(s.leaf) {
				return l.vi, s.leaf[j], true
			}
			s.leaf, s.leafAt = l.rows.LeafOf(l.next)
			return l.vi, s.leaf[l.next-s.leafAt], true
		}
		vi := s.unread.Next(s.reached() + 1)
		if vi < 0 {
			return -1, nil, false
		}
		if s.reached() >= 0 {
			s.done = &laneList{s.cur, s.done}
		}
		s.cur, s.leaf = s.laneAt(vi), nil
	}
}

// advance consumes the item peek returned (vi < 0: the end).
func (s *Snapshot) advance(vi OwnedIndex) {
	if vi < 0 {
		s.ended = true
		return
	}
	s.cur.next++
	s.left--
}

// newSnapshot makes a snapshot stream over the committed state table at the current positions.
func (e *Engine) newSnapshot(refresh bool) *Snapshot {
	e.state.freeze()
	return &Snapshot{epoch: e.state.epoch, version: e.state.committed.Share(), progress: e.progress.Share(),
		unread: e.tally.unread.Share(), owned: e.owned, pk: e.pk, left: e.tally.unreadRows, openedAt: e.step, refreshed: refresh}
}

// laneViews lists the snapshot's lanes as the view shows them (laneStates), a long lane as a
// window of maxLaneRows rows around the next one.
func (e *Engine) laneViews() []LaneView {
	states := e.snap.laneStates()
	out := make([]LaneView, 0, len(states))
	for _, st := range states {
		l := st.lane
		lv := LaneView{Vnode: l.vnode, Rows: []Row{}, Pos: lanePos(e.progress, l.vi), Total: l.total(), Next: l.next - l.first}
		if lv.Total > maxLaneRows {
			lv.Offset = min(max(0, lv.Next-maxLaneRows/4), lv.Total-maxLaneRows)
			lv.Next -= lv.Offset
		}
		if lv.Total > 0 {
			lv.Rows = l.rows.Slice(l.first+lv.Offset, l.first+lv.Offset+min(lv.Total, maxLaneRows))
		}
		out = append(out, lv)
	}
	return out
}
