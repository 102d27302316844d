package engine

import "strconv"

// keyWriter builds a canonical encoding of an engine's state for the explorer's de-duplication.
type keyWriter []byte

func (k *keyWriter) int(n int64)  { *k = strconv.AppendInt(append(*k, '|'), n, 36) }
func (k *keyWriter) str(s string) { k.int(int64(len(s))); *k = append(append(*k, ':'), s...) }
func (k *keyWriter) bool(b bool) {
	if b {
		k.int(1)
	} else {
		k.int(0)
	}
}
func (k *keyWriter) row(r Row) { k.str(r.key()) }
func (k *keyWriter) rows(rs []Row) {
	k.int(int64(len(rs)))
	for _, r := range rs {
		k.row(r)
	}
}
func (k *keyWriter) rowset(s *rowset) {
	for i := range s.parts {
		k.int(int64(s.parts[i].n))
		c := s.parts[i].entries(-1)
		for e, ok := c.next(); ok; e, ok = c.next() {
			k.row(e.row)
			k.int(int64(e.count))
		}
	}
}
func (k *keyWriter) progressTable(t *ProgressTable) {
	for _, r := range t.rows {
		if r == nil {
			k.int(-1)
			continue
		}
		k.row(r.Pos)
		k.bool(r.Finished)
		k.int(r.Rows)
	}
}

// stateKey encodes everything that decides what the engine does and shows from here on, but
// not its history (outputs, narration): two paths to an equal key have equal futures.
func (e *Engine) stateKey() string {
	var k keyWriter
	k.int(int64(e.phase))
	k.int(e.lastEpoch)
	k.int(e.epoch)
	k.bool(e.upEnded)
	k.bool(e.snapshotFinished)
	if e.failure != nil {
		k.str(e.failure.Message)
	}
	k.str(e.inv.Status)
	k.int(int64(len(e.progress)))
	for _, p := range e.progress {
		k.int(int64(p.State))
		k.row(p.Pos)
		k.int(p.Rows)
	}
	k.int(int64(len(e.builders)))
	for _, b := range e.builders {
		k.rows(b)
	}
	k.int(int64(len(e.buffer)))
	for _, c := range e.buffer {
		k.int(int64(len(c.rows)))
		for _, r := range c.rows {
			k.int(int64(r.Op))
			k.row(r.Row)
		}
		k.int(int64(len(c.marked)))
		for _, o := range c.marked {
			k.bool(o.Visible)
		}
	}
	if e.snap != nil {
		k.int(e.snap.epoch)
		k.bool(e.snap.ended)
		for _, l := range e.snap.lanes {
			k.int(int64(l.vnode))
			k.rows(l.rows[l.next:])
		}
	} else {
		k.int(-1)
	}
	k.int(e.state.epoch)
	for _, p := range e.state.committed {
		k.rows(p)
	}
	for _, w := range e.state.pending {
		k.bool(w.put)
		k.row(w.row)
	}
	k.progressTable(e.progTab)
	k.int(e.dur.epoch)
	for _, p := range e.dur.state {
		k.rows(p)
	}
	k.progressTable(e.dur.progress)
	k.rowset(e.dur.down)
	k.rowset(e.dur.upstream)
	k.rowset(e.down)
	k.rowset(e.upstream)
	return string(k)
}
