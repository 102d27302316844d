package view

import "github.com/backfill-explainer/explainer/engine"

// MessageView is an upstream message still to come.
type MessageView struct {
	Type          string              `json:"type"`
	Step          int                 `json:"step"`
	Epoch         int64               `json:"epoch,omitempty"`
	Checkpoint    bool                `json:"checkpoint,omitempty"`
	StartBackfill []int64             `json:"start_backfill,omitempty"`
	Rescale       bool                `json:"rescale,omitempty"`
	Mutation      string              `json:"mutation,omitempty"` // pause | resume | throttle: a mutation the executor ignores
	Throttle      *int64              `json:"throttle,omitempty"` // the throttle's rate limit
	Rows          []engine.OutRowView `json:"rows,omitempty"`
	Column        string              `json:"column,omitempty"`
	Value         *engine.Value       `json:"value,omitempty"`
	Message       string              `json:"message,omitempty"`
}

// Message is upstream message s, script step step, as the view lists it still to come.
func Message(e *engine.Engine, s engine.Step, step int) MessageView {
	m := MessageView{Step: step, Type: s.Kind.Info().Key}
	if s.Kind.Info().Takes == engine.TakesText {
		m.Message = s.Message
	}
	switch s.Kind {
	case engine.EventBarrier:
		m.Epoch, m.Checkpoint, m.StartBackfill, m.Rescale = s.Barrier.Epoch, s.Barrier.Checkpoint, s.Barrier.StartBackfill, s.Barrier.Rescale
		if s.Barrier.Mutation != engine.MutationNone {
			m.Mutation = s.Barrier.Mutation.String()
		}
		if s.Barrier.Mutation == engine.MutationThrottle {
			t := s.Barrier.Throttle
			m.Throttle = &t
		}
	case engine.EventChunk:
		for _, r := range s.Chunk {
			m.Rows = append(m.Rows, engine.OutRowView{Op: r.Op.String(), Values: r.Row, Visible: r.Visible, Vnode: vnodeOf(e, r.Row)})
		}
	case engine.EventWatermark:
		val := s.Watermark.Value
		m.Column, m.Value = e.Config().Columns[s.Watermark.Column].Name, &val
	}
	return m
}

// EventLegend is the page's text for each kind's pill, keyed "message.KEY" as the legend
// (glossary.Legend) keys its texts.
func EventLegend() map[string]string {
	m := map[string]string{}
	for _, ev := range engine.Events {
		if ev.Pill != "" {
			m["message."+ev.Key] = ev.Pill
		}
	}
	return m
}
