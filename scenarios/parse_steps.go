package scenarios

import (
	"math"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/backfill-explainer/explainer/engine"
)

// EventKeys are the kinds of step a scenario file has (engine.Events), in the order error
// messages list them.
func EventKeys() []string {
	keys := make([]string, len(engine.Events))
	for i, ev := range engine.Events {
		keys[i] = ev.Key
	}
	return keys
}

func eventList() string { return strings.Join(EventKeys(), ", ") }

// step reads one entry of `steps` (number is 1-based, 0 for ParseStep) and returns the step
// and, for a chunk, each row's position.
func (p *parser) step(n *yaml.Node, number int) (engine.Step, []Pos) {
	var st engine.Step
	switch n.Kind {
	case yaml.ScalarNode:
		ev, ok := eventNamed(n.Value)
		switch {
		case ok && ev.Takes == engine.TakesNone:
			st.Kind = ev.Kind
		case ok:
			p.failAt(n, "step %s needs a value, e.g. %s", n.Value, ev.Example)
		case n.Value == "stop":
			p.failAt(n, "stop is not a step: a Stop is a barrier's mutation, e.g. barrier: {epoch: 9, mutation: stop}")
		default:
			p.failAt(n, "unknown step %s; a step is one of %s", describe(n), eventList())
		}
		return st, nil
	case yaml.MappingNode:
	default:
		p.failAt(n, "a step is one of %s (with an optional note), found %s", eventList(), describe(n))
	}
	f := p.mapping(n, "a step", append(EventKeys(), "note", "pause")...)
	var ev *field
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if k.Value == "note" || k.Value == "pause" {
			continue
		}
		if ev != nil {
			p.failAt(k, "a step has one event; found both %s and %s (write them as two steps)", ev.key.Value, k.Value)
		}
		fl := f.m[k.Value]
		ev = &fl
	}
	if ev == nil {
		p.failAt(n, "a step with a note or pause needs an event beside it: one of %s", eventList())
	}
	if nf, ok := f.get("note"); ok {
		st.Note, st.NoteBy = p.noteByRelease(nf.val) // (note_release.go)
	}
	if pf, ok := f.get("pause"); ok {
		st.Pause = p.boolean(pf.val, "pause")
	}
	v := ev.val
	var rows []Pos
	info, _ := eventNamed(ev.key.Value)
	st.Kind = info.Kind
	switch info.Takes {
	case engine.TakesBarrier:
		st.Barrier = p.barrier(v)
	case engine.TakesRows:
		items := p.sequence(v, "chunk")
		if len(items) == 0 {
			p.failAt(v, "chunk: [] is empty; a chunk needs at least one row (an invisible row is written in parentheses)")
		}
		st.Chunk = make([]engine.RowOp, len(items))
		rows = make([]Pos, len(items))
		for i, it := range items {
			p.countRow(posOf(it))
			st.Chunk[i] = p.row(it)
			rows[i] = posOf(it)
		}
	case engine.TakesWatermark:
		wf := p.mapping(v, "watermark", "column", "value")
		c := p.require(wf, "column", "watermark")
		col := -1
		if c.val.Kind == yaml.ScalarNode {
			for i, cc := range p.cfg.Columns {
				if cc.Name == c.val.Value {
					col = i
				}
			}
		}
		if col < 0 {
			p.failAt(c.val, "unknown column %s in watermark; columns are %s", describe(c.val), p.columnNames())
		}
		val := p.require(wf, "value", "watermark")
		st.Watermark = engine.Watermark{Column: col, Value: p.yamlValue(val.val, col)}
		if st.Watermark.Value.IsNull() {
			p.failAt(val.val, "a watermark value cannot be null")
		}
	case engine.TakesCount:
		c := p.integer(v, info.Key)
		if c < 1 {
			p.failAt(v, "%s delivers at least 1 item, found %d", info.Key, c)
		}
		if c > int64(limits.rows)+1 {
			p.failAt(v, "%s %d asks for more items than a scenario can hold (%d rows and the end)", info.Key, c, limits.rows)
		}
		st.Count = int(c)
	case engine.TakesText:
		st.Message = p.text(v, info.Key)
		if strings.TrimSpace(st.Message) == "" {
			p.failAt(v, "%s needs a message, e.g. %s", info.Key, info.Example)
		}
	case engine.TakesNone:
		if v.Kind != yaml.ScalarNode || v.Tag != "!!null" {
			p.failAt(v, "%s takes no value, found %s", info.Key, describe(v))
		}
	}
	if st.Kind == engine.EventBarrier && !p.noEpochCheck {
		e := st.Barrier.Epoch
		if p.haveEpoch && e <= p.lastEpoch {
			at := v
			if v.Kind == yaml.MappingNode {
				at = p.mapping(v, "barrier", barrierKeys...).m["epoch"].val
			}
			p.failAt(at, "epoch %d does not increase: the barrier at line %d had epoch %d (epochs increase strictly, also across recover)", e, p.lastEpochAt.Line, p.lastEpoch)
		}
		p.haveEpoch, p.lastEpoch, p.lastEpochAt = true, e, posOf(v)
	}
	return st, rows
}

var barrierKeys = []string{"epoch", "start_backfill", "rescale", "mutation", "checkpoint"}

func (p *parser) barrier(n *yaml.Node) engine.Barrier {
	b := engine.Barrier{Checkpoint: true}
	if n.Kind == yaml.ScalarNode {
		b.Epoch = p.intIn(n, "barrier epoch", 1, math.MaxInt64)
		return b
	}
	if n.Kind != yaml.MappingNode {
		p.failAt(n, "barrier: expected an epoch or a mapping with keys %s, found %s", strings.Join(barrierKeys, ", "), describe(n))
	}
	f := p.mapping(n, "barrier", barrierKeys...)
	b.Epoch = p.intIn(p.require(f, "epoch", "barrier").val, "barrier epoch", 1, math.MaxInt64)
	var muts []*yaml.Node // the keys of the mutations this barrier carries
	if sb, ok := f.get("start_backfill"); ok {
		b.StartBackfill = []int64{}
		for _, it := range p.sequence(sb.val, "barrier start_backfill") {
			b.StartBackfill = append(b.StartBackfill, p.intIn(it, "a fragment id", 0, MaxID))
		}
		muts = append(muts, sb.key)
	}
	if r, ok := f.get("rescale"); ok {
		b.Rescale = p.boolean(r.val, "barrier rescale")
		if b.Rescale {
			muts = append(muts, r.key)
		}
	}
	if m, ok := f.get("mutation"); ok {
		b.Mutation, b.Throttle = p.mutation(m.val)
		muts = append(muts, m.key)
	}
	if len(muts) > 1 {
		slices.SortFunc(muts, func(a, b *yaml.Node) int {
			if a.Line != b.Line {
				return a.Line - b.Line
			}
			return a.Column - b.Column
		})
		name := func(k *yaml.Node) string {
			if k.Value == "mutation" {
				return "mutation: " + b.Mutation.String()
			}
			return k.Value
		}
		p.failAt(muts[1], "a barrier carries one mutation: %s and %s together are an error (use two barriers)", name(muts[0]), name(muts[1]))
	}
	if c, ok := f.get("checkpoint"); ok {
		b.Checkpoint = p.boolean(c.val, "barrier checkpoint")
	}
	return b
}

// mutation reads a barrier's `mutation:`: pause, resume, stop or {throttle: N} (mutations the
// executor ignores; after a Stop the actor stops).
func (p *parser) mutation(n *yaml.Node) (engine.Mutation, int64) {
	const want = "pause, resume, stop or {throttle: N}"
	switch {
	case n.Kind == yaml.ScalarNode && n.Tag == "!!str" && n.Value == "pause":
		return engine.MutationPause, 0
	case n.Kind == yaml.ScalarNode && n.Tag == "!!str" && n.Value == "resume":
		return engine.MutationResume, 0
	case n.Kind == yaml.ScalarNode && n.Tag == "!!str" && n.Value == "stop":
		return engine.MutationStop, 0
	case n.Kind == yaml.ScalarNode && n.Value == "throttle":
		p.failAt(n, "a throttle needs its rate limit: mutation: {throttle: N}, N from 0 to %d", int64(engine.MaxThrottle))
	case n.Kind == yaml.MappingNode && len(n.Content) >= 2 && n.Content[0].Value == "stop":
		p.failAt(n.Content[0], "stop takes no value: write mutation: stop (it always stops this actor)")
	case n.Kind == yaml.MappingNode:
		f := p.mapping(n, "mutation", "throttle")
		t := p.require(f, "throttle", "mutation")
		v := t.val
		if v.Kind != yaml.ScalarNode || !(v.Tag == "!!int" || v.Tag == "!!float" && plainInt(v.Value)) {
			p.failAt(v, "throttle: expected a non-negative integer (the rate limit, 0 to %d), found %s", int64(engine.MaxThrottle), describe(v))
		}
		return engine.MutationThrottle, p.intIn(v, "throttle", 0, engine.MaxThrottle)
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" {
		p.failAt(n, "unknown mutation %s; a barrier's mutation is %s", describe(n), want)
	}
	p.failAt(n, "mutation: expected %s, found %s", want, describe(n))
	return engine.MutationNone, 0
}

// eventNamed is the kind whose key a scenario file writes.
func eventNamed(key string) (*engine.EventInfo, bool) {
	for i := range engine.Events {
		if engine.Events[i].Key == key {
			return &engine.Events[i], true
		}
	}
	return nil, false
}
