package engine

import "slices"

// Changed says which panels of the view the last step changed (docs/view.md): each flag is
// true exactly when that panel's part of the view differs from the view one step earlier on the
// same script. The engine works it out from a small record of the state before the step (slice
// headers, lengths, counts), never by rendering and comparing views.
type Changed struct {
	Phase           bool `json:"phase"`
	Epoch           bool `json:"epoch"`
	UpstreamNext    bool `json:"upstream_next"`
	UpstreamContent bool `json:"upstream_content"`
	Snapshot        bool `json:"snapshot"`
	Buffer          bool `json:"buffer"`
	Builders        bool `json:"builders"`
	Progress        bool `json:"progress"`
	StateTable      bool `json:"state_table"`
	ProgressTable   bool `json:"progress_table"`
	Outputs         bool `json:"outputs"`
	Downstream      bool `json:"downstream"`
	Invariant       bool `json:"invariant"`
	Narration       bool `json:"narration"`
	Note            bool `json:"note"`
	Fatal           bool `json:"fatal"`
}

// ChangedVnodes names, per panel, the vnodes whose part of it the last step changed, so that
// the page can mark the lane, builder, progress entry or table row itself.
type ChangedVnodes struct {
	Snapshot             []int `json:"snapshot"`
	Builders             []int `json:"builders"`
	Progress             []int `json:"progress"`
	StateTable           []int `json:"state_table"`
	ProgressTable        []int `json:"progress_table"`
	ProgressTableDurable []int `json:"progress_table_durable"`
}

// AddedRows lists the rows the last step added to the upstream's content and to downstream.
type AddedRows struct {
	UpstreamContent []Row `json:"upstream_content"`
	Downstream      []Row `json:"downstream"`
}

// before is what the view's panels showed before a step: enough to tell, after it, what the
// step changed. It costs a few words per owned vnode; rows are never copied.
type before struct {
	step      int
	phase     Phase
	epoch     int64
	upEnded   bool
	upstream  *rowset
	down      *rowset
	snap      *Snapshot
	laneNext  []int
	laneRows  [][]Row
	buffer    int
	bufFirst  int
	bufLast   int
	builders  []builderMark
	progress  []VnodeProgress
	committed [][]Row
	pending   int
	lastWrite write
	stEpoch   int64
	durEpoch  int64
	progTab   []*ProgressRow
	durProg   *ProgressTable
	outputs   int
	inv       Invariant
	effects   []Effect
	failure   *Failure
	queue     *queue // set when the step branches: the old script's upstream queue
}

type builderMark struct {
	n    int
	last Row
}

// record notes what the panels show now, before a step is applied to e.
func (e *Engine) record() *before {
	b := &before{
		step: e.step, phase: e.phase, epoch: e.epoch, upEnded: e.upEnded, upstream: e.upstream, down: e.down,
		snap: e.snap, buffer: len(e.buffer), progress: append([]VnodeProgress(nil), e.progress...),
		committed: append([][]Row(nil), e.state.committed...), pending: len(e.state.pending),
		stEpoch: e.state.epoch, durEpoch: e.dur.epoch, progTab: append([]*ProgressRow(nil), e.progTab.rows...),
		durProg: e.dur.progress, outputs: len(e.outputs), inv: e.inv, effects: e.effects, failure: e.failure,
	}
	if e.snap != nil {
		b.laneNext = make([]int, len(e.snap.lanes))
		b.laneRows = make([][]Row, len(e.snap.lanes))
		for i, l := range e.snap.lanes {
			b.laneNext[i], b.laneRows[i] = l.next, l.rows
		}
	}
	if n := len(e.buffer); n > 0 {
		b.bufFirst, b.bufLast = e.buffer[0].step, e.buffer[n-1].step
	}
	if e.builders != nil {
		b.builders = make([]builderMark, len(e.builders))
		for i, rows := range e.builders {
			if len(rows) > 0 {
				b.builders[i] = builderMark{len(rows), rows[len(rows)-1]}
			}
		}
	}
	if n := len(e.state.pending); n > 0 {
		b.lastWrite = e.state.pending[n-1]
	}
	return b
}

// changes compares the panels now with what b recorded before the step s was applied. Only the
// engine's panels are compared; upstream_next and note belong to the script (see Timeline).
func (e *Engine) changes(b *before, s Step) (Changed, ChangedVnodes, AddedRows) {
	var c Changed
	var cv ChangedVnodes
	var added AddedRows
	c.Phase = e.phase != b.phase
	c.Epoch = e.epoch != b.epoch
	c.Fatal = !sameFailure(e.failure, b.failure)
	c.Outputs = len(e.outputs) != b.outputs
	c.Invariant = !sameInvariant(e.inv, b.inv)
	c.Narration = !sameEffects(e.effects, b.effects)

	// The buffer only grows by one chunk or is emptied within a step.
	c.Buffer = len(e.buffer) != b.buffer
	if !c.Buffer && b.buffer > 0 {
		c.Buffer = e.buffer[0].step != b.bufFirst || e.buffer[len(e.buffer)-1].step != b.bufLast
	}

	// Builders: rows are only appended, or all emitted at once; a builder refilled after being
	// emitted in the same step ends on a later row.
	if (e.builders == nil) != (b.builders == nil) || len(e.builders) != len(b.builders) {
		c.Builders = true
		for vi := range max(len(e.builders), len(b.builders)) {
			cv.Builders = append(cv.Builders, e.owned[vi])
		}
	} else {
		for vi, rows := range e.builders {
			was := b.builders[vi]
			same := len(rows) == was.n && (was.n == 0 || rows[len(rows)-1].Equal(was.last))
			if !same {
				c.Builders = true
				cv.Builders = append(cv.Builders, e.owned[vi])
			}
		}
	}

	// Per-vnode progress.
	if len(e.progress) != len(b.progress) {
		c.Progress = true
		for vi := range max(len(e.progress), len(b.progress)) {
			cv.Progress = append(cv.Progress, e.owned[vi])
		}
	} else {
		for vi, p := range e.progress {
			if !sameProgress(p, b.progress[vi]) {
				c.Progress = true
				cv.Progress = append(cv.Progress, e.owned[vi])
			}
		}
	}

	// The snapshot: a new stream, or lanes that moved or whose shown pos moved. A lane of a new
	// stream changed when its rows, its cursor or its pos differ from the old stream's lane.
	switch {
	case e.snap != b.snap && (e.snap == nil || b.snap == nil):
		c.Snapshot = true
		for _, s := range []*Snapshot{e.snap, b.snap} {
			if s != nil {
				for _, l := range s.lanes {
					cv.Snapshot = append(cv.Snapshot, l.vnode)
				}
			}
		}
	case e.snap != nil:
		c.Snapshot = e.snap != b.snap // a new stream: its epoch and the step it opened at differ
		old := map[int]int{}          // vnode → index of its lane in the old stream
		for i, l := range b.snap.lanes {
			old[l.vnode] = i
		}
		seen := map[int]bool{}
		for _, l := range e.snap.lanes {
			seen[l.vnode] = true
			i, ok := old[l.vnode]
			if !ok || l.next != b.laneNext[i] || !sameRows(l.rows, b.laneRows[i]) || !sameLanePos(e.lanePos(l.vi), b.lanePos(l.vi)) {
				c.Snapshot = true
				cv.Snapshot = append(cv.Snapshot, l.vnode)
			}
		}
		for _, l := range b.snap.lanes {
			if !seen[l.vnode] {
				c.Snapshot = true
				cv.Snapshot = append(cv.Snapshot, l.vnode)
			}
		}
		slices.Sort(cv.Snapshot)
	}

	// The state table: committed versions are replaced, never changed in place; pending writes
	// are only appended within a step, or all committed.
	c.StateTable = e.state.epoch != b.stEpoch || e.dur.epoch != b.durEpoch || len(e.state.pending) != b.pending
	if !c.StateTable && b.pending > 0 {
		w := e.state.pending[len(e.state.pending)-1]
		c.StateTable = w.put != b.lastWrite.put || w.vi != b.lastWrite.vi || !w.row.Equal(b.lastWrite.row)
	}
	for vi, rows := range e.state.committed {
		if !sameRows(rows, b.committed[vi]) {
			c.StateTable = true
			cv.StateTable = append(cv.StateTable, e.owned[vi])
		}
	}

	// The progress table: rows are replaced, never changed in place; the durable table is a copy
	// made at a checkpoint.
	c.ProgressTable = e.dur.epoch != b.durEpoch
	for vi, r := range e.progTab.rows {
		if !sameProgressRow(r, b.progTab[vi]) {
			c.ProgressTable = true
			cv.ProgressTable = append(cv.ProgressTable, e.owned[vi])
		}
	}
	if e.dur.progress != b.durProg {
		for vi, r := range e.dur.progress.rows {
			if !sameProgressRow(r, b.durProg.rows[vi]) {
				c.ProgressTable = true
				cv.ProgressTableDurable = append(cv.ProgressTableDurable, e.owned[vi])
			}
		}
	}

	// The upstream's content changes only by a chunk's visible rows or by a recovery, and
	// downstream only by the visible rows this step emitted or by a recovery.
	if e.upstream != b.upstream {
		added.UpstreamContent = addedRows(e.upstream, b.upstream)
		c.UpstreamContent = len(added.UpstreamContent) > 0 || len(addedRows(b.upstream, e.upstream)) > 0
	} else if s.Kind == EventChunk {
		var deltas rowDeltas
		for _, r := range s.Chunk {
			if r.Visible {
				deltas.add(e, r.Row, r.Op.IsInsert())
			}
		}
		added.UpstreamContent, c.UpstreamContent = deltas.effect(e.upstream)
	}
	if e.down != b.down {
		added.Downstream = addedRows(e.down, b.down)
		c.Downstream = len(added.Downstream) > 0 || len(addedRows(b.down, e.down)) > 0
	} else {
		var deltas rowDeltas
		for _, o := range e.outputs[b.outputs:] {
			for _, r := range o.Rows {
				if r.Visible {
					deltas.add(e, r.Row, r.Op.IsInsert())
				}
			}
		}
		added.Downstream, c.Downstream = deltas.effect(e.down)
	}
	c.Downstream = c.Downstream || e.dur.epoch != b.durEpoch
	sortRows(added.UpstreamContent)
	sortRows(added.Downstream)
	return c, cv, added
}

// lanePos is the pos a snapshot lane shows for owned index vi (nil while not started).
func (e *Engine) lanePos(vi int) Row {
	if vi < len(e.progress) && e.progress[vi].State != NotStarted {
		return e.progress[vi].Pos
	}
	return nil
}

func (b *before) lanePos(vi int) Row {
	if vi < len(b.progress) && b.progress[vi].State != NotStarted {
		return b.progress[vi].Pos
	}
	return nil
}

func sameLanePos(a, b Row) bool { return (a == nil) == (b == nil) && a.Equal(b) }

func sameProgress(a, b VnodeProgress) bool {
	return a.State == b.State && a.Rows == b.Rows && (a.Pos == nil) == (b.Pos == nil) && a.Pos.Equal(b.Pos)
}

func sameProgressRow(a, b *ProgressRow) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil {
		return false
	}
	return a.Vnode == b.Vnode && a.Finished == b.Finished && a.Rows == b.Rows && a.Pos.Equal(b.Pos)
}

// sameRows compares two committed versions of a vnode: the same slice, or equal rows.
func sameRows(a, b []Row) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) == 0 || &a[0] == &b[0] {
		return true
	}
	for i := range a {
		if !a[i].Equal(b[i]) {
			return false
		}
	}
	return true
}

func sameFailure(a, b *Failure) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func sameInvariant(a, b Invariant) bool {
	return a.Status == b.Status && a.Step == b.Step && a.Epoch == b.Epoch && a.Text == b.Text &&
		sameRowList(a.Missing, b.Missing) && sameRowList(a.Extra, b.Extra)
}

func sameRowList(a, b []Row) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].Equal(b[i]) {
			return false
		}
	}
	return true
}

func sameEffects(a, b []Effect) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// rowDeltas adds up a step's changes to a row set, row by row.
type rowDeltas struct {
	vis   []int
	rows  []Row
	delta []int
}

func (d *rowDeltas) add(e *Engine, r Row, insert bool) {
	vi, _ := e.vnodeIndex(r)
	if vi < 0 {
		return
	}
	n := -1
	if insert {
		n = 1
	}
	for i := range d.rows {
		if d.vis[i] == vi && d.rows[i].Equal(r) {
			d.delta[i] += n
			return
		}
	}
	d.vis, d.rows, d.delta = append(d.vis, vi), append(d.rows, r), append(d.delta, n)
}

// effect reports, for a row set the deltas were applied to, the rows it now shows more often
// than before and whether what it shows changed at all (it shows rows with a positive count).
func (d *rowDeltas) effect(s *rowset) (added []Row, changed bool) {
	for i, r := range d.rows {
		if d.delta[i] == 0 {
			continue
		}
		now := s.count(d.vis[i], r)
		was := now - d.delta[i]
		if max(now, 0) != max(was, 0) {
			changed = true
		}
		for k := max(was, 0); k < now; k++ {
			added = append(added, r)
		}
	}
	return added, changed
}

// count is how many times the set holds row.
func (s *rowset) count(vi int, row Row) int {
	p := &s.parts[vi]
	if p.n == 0 {
		return 0
	}
	b, i := p.find(func(en rsEntry) bool { return s.cmp(en.row, row) >= 0 })
	if b == len(p.blocks) || s.cmp(p.blocks[b][i].row, row) != 0 {
		return 0
	}
	return p.blocks[b][i].count
}

// addedRows lists the rows a shows more often than b (both hold the same vnodes).
func addedRows(a, b *rowset) []Row {
	var out []Row
	for vi := range a.parts {
		pa, pb := &a.parts[vi], &b.parts[vi]
		if samePart(pa, pb) {
			continue // the same version of this vnode
		}
		cb := pb.entries(-1)
		have, okb := cb.next()
		ca := pa.entries(-1)
		for en, ok := ca.next(); ok; en, ok = ca.next() {
			for okb && a.cmp(have.row, en.row) < 0 {
				have, okb = cb.next()
			}
			n := 0
			if okb && a.cmp(have.row, en.row) == 0 {
				n = max(have.count, 0)
			}
			for k := n; k < en.count; k++ {
				out = append(out, en.row)
			}
		}
	}
	return out
}

// samePart reports whether two parts are one version: the same blocks (copy-on-write shares
// a block until one side changes it).
func samePart(a, b *part) bool {
	if a.n != b.n || len(a.blocks) != len(b.blocks) {
		return false
	}
	for i := range a.blocks {
		x, y := a.blocks[i], b.blocks[i]
		if len(x) != len(y) || len(x) > 0 && &x[0] != &y[0] {
			return false
		}
	}
	return true
}

// nonNil makes every list a JSON array.
func (cv ChangedVnodes) nonNil() ChangedVnodes {
	for _, l := range []*[]int{&cv.Snapshot, &cv.Builders, &cv.Progress, &cv.StateTable, &cv.ProgressTable, &cv.ProgressTableDurable} {
		if *l == nil {
			*l = []int{}
		}
	}
	return cv
}

func (a AddedRows) nonNil() AddedRows {
	if a.UpstreamContent == nil {
		a.UpstreamContent = []Row{}
	}
	if a.Downstream == nil {
		a.Downstream = []Row{}
	}
	return a
}
