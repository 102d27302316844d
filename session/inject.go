package session

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/backfill-explainer/explainer/engine"
	"github.com/backfill-explainer/explainer/scenarios"

	"github.com/backfill-explainer/explainer/internal/quote"
)

// StepForm describes how to write one kind of step from a small form: the page's Inject dialog
// draws its fields from these, and FormatForm turns the filled-in values into the step's text in
// the scenario format. Everything the form knows about steps is here, next to the parser.
type StepForm struct {
	Kind   string      `json:"kind"` // the step's key in a scenario file: barrier, chunk, …, recover
	Label  string      `json:"label"`
	Hint   string      `json:"hint"`
	Fields []FormField `json:"fields"`
}

// FormField is one input of a StepForm.
type FormField struct {
	Name        string       `json:"name"`
	Label       string       `json:"label"`
	Type        string       `json:"type"` // number | text | rows | choice | check
	Default     any          `json:"default"`
	Options     []FormOption `json:"options,omitempty"` // for a choice
	Placeholder string       `json:"placeholder,omitempty"`
	Hint        string       `json:"hint,omitempty"`
	When        *FormWhen    `json:"when,omitempty"` // shown (and used) only when another field has a value
}

// FormOption is one value of a choice.
type FormOption struct {
	Value string `json:"value"`
	Label string `json:"label"`
}

// FormWhen makes a field depend on a choice.
type FormWhen struct {
	Field string `json:"field"`
	Value string `json:"value"`
}

// StepForms lists the forms for every kind of step, with defaults for the current step (the
// next epoch, this actor's fragment, the table's columns).
func (s *Session) StepForms() []StepForm {
	cfg := s.Scenario.Config
	var cols []FormOption
	for _, c := range cfg.Columns {
		cols = append(cols, FormOption{Value: c.Name, Label: c.Name})
	}
	names := make([]string, len(cfg.Columns))
	example := make([]string, len(cfg.Columns))
	for i, c := range cfg.Columns {
		names[i] = c.Name
		example[i] = strconv.Itoa(5 + 100*i)
		if c.Type == engine.TypeVarchar {
			example[i] = "x"
		}
	}
	mutations := []FormOption{{"none", "none"}, {"start_backfill", "StartFragmentBackfill"}, {"rescale", "rescale (this actor)"}}
	for _, m := range extraMutations {
		if _, err := scenarios.ParseStep(cfg, m.probe); err == nil {
			mutations = append(mutations, m.option)
		}
	}
	barrier := []FormField{
		{Name: "epoch", Label: "Epoch", Type: "number", Default: s.tl.Engine().NextEpoch()},
		{Name: "mutation", Label: "Mutation", Type: "choice", Default: "none", Options: mutations},
		{Name: "fragments", Label: "Fragment ids", Type: "text", Default: strconv.FormatInt(cfg.Fragment, 10),
			Hint: fmt.Sprintf("this actor's fragment is %d", cfg.Fragment), When: &FormWhen{"mutation", "start_backfill"}},
		{Name: "throttle", Label: "Rate limit (rows per second)", Type: "number", Default: 100, When: &FormWhen{"mutation", "throttle"}},
		{Name: "checkpoint", Label: "checkpoint (durable)", Type: "check", Default: true},
	}
	locality := cfg.Columns[cfg.Locality[0]].Name
	return []StepForm{
		{Kind: "barrier", Label: "Barrier", Hint: "Closes the epoch: drains the builders, marks the buffered chunks, commits, persists progress.", Fields: barrier},
		{Kind: "chunk", Label: "Chunk", Hint: "One row a line: the op (+ - U- U+) then one value per column. Wrap a row in ( ) to make it invisible.",
			Fields: []FormField{{Name: "rows", Label: "Rows", Type: "rows", Default: "", Placeholder: "+ " + strings.Join(example, " "), Hint: "columns: " + strings.Join(names, ", ")}}},
		{Kind: "watermark", Label: "Watermark", Hint: "Dropped while buffering and backfilling, forwarded afterwards.",
			Fields: []FormField{{Name: "column", Label: "Column", Type: "choice", Default: locality, Options: cols},
				{Name: "value", Label: "Value", Type: "text", Default: "", Placeholder: "7"}}},
		{Kind: "snapshot", Label: "Snapshot", Hint: "The upstream has nothing ready, so the snapshot delivers its next items (only while the executor backfills).",
			Fields: []FormField{{Name: "count", Label: "Items", Type: "number", Default: 1}}},
		{Kind: "end", Label: "Upstream end", Hint: "The upstream stream ends. What that means depends on the phase.", Fields: []FormField{}},
		{Kind: "error", Label: "Upstream error", Hint: "The upstream yields an error with this message.",
			Fields: []FormField{{Name: "message", Label: "Message", Type: "text", Default: "upstream actor panicked"}}},
		{Kind: "snapshot_error", Label: "Snapshot error", Hint: "Reading the snapshot fails with this message (only while the executor backfills).",
			Fields: []FormField{{Name: "message", Label: "Message", Type: "text", Default: "storage read timed out"}}},
		{Kind: "recover", Label: "Recovery", Hint: "The job restarts from the last checkpoint barrier.", Fields: []FormField{}},
	}
}

// extraMutations are barrier mutations offered once the parser reads them.
var extraMutations = []struct {
	option FormOption
	probe  string
}{
	{FormOption{"pause", "pause"}, `{barrier: {epoch: 1, mutation: pause}}`},
	{FormOption{"resume", "resume"}, `{barrier: {epoch: 1, mutation: resume}}`},
	{FormOption{"throttle", "throttle"}, `{barrier: {epoch: 1, mutation: {throttle: 1}}}`},
}

// FormatForm turns a filled-in StepForm (its kind and field values, as the page sends them:
// strings, numbers, booleans) into the step's text, read back by the parser and written by
// FormatStep: the one serializer of steps. Errors say which field is wrong.
func (s *Session) FormatForm(values map[string]any) (string, error) {
	kind, _ := values["kind"].(string)
	str := func(name string) string {
		switch v := values[name].(type) {
		case string:
			return strings.TrimSpace(v)
		case float64:
			return strconv.FormatFloat(v, 'f', -1, 64)
		case int:
			return strconv.Itoa(v)
		case int64:
			return strconv.FormatInt(v, 10)
		case bool:
			return strconv.FormatBool(v)
		}
		return ""
	}
	whole := func(name, label string) (int64, error) {
		n, err := strconv.ParseInt(str(name), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("%s: write a whole number", label)
		}
		return n, nil
	}
	var ev any
	switch kind {
	case "barrier":
		epoch, err := whole("epoch", "epoch")
		if err != nil {
			return "", err
		}
		b := map[string]any{"epoch": epoch}
		switch m := str("mutation"); m {
		case "", "none":
		case "start_backfill":
			ids := []int64{}
			for _, f := range strings.FieldsFunc(str("fragments"), func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
				id, err := strconv.ParseInt(f, 10, 64)
				if err != nil {
					return "", fmt.Errorf("fragment ids: %s is not a whole number", quote.Q(f))
				}
				ids = append(ids, id)
			}
			b["start_backfill"] = ids
		case "rescale":
			b["rescale"] = true
		case "throttle":
			n, err := whole("throttle", "rate limit")
			if err != nil {
				return "", err
			}
			b["mutation"] = map[string]any{"throttle": n}
		default:
			b["mutation"] = m
		}
		if values["checkpoint"] == false {
			b["checkpoint"] = false
		}
		ev = b
	case "chunk":
		rows := []string{}
		for _, l := range strings.Split(str("rows"), "\n") {
			if l = strings.TrimSpace(l); l != "" {
				rows = append(rows, l)
			}
		}
		if len(rows) == 0 {
			return "", errors.New("rows: write at least one row, e.g. + 5 104")
		}
		ev = rows
	case "watermark":
		if str("value") == "" {
			return "", errors.New("value: write the watermark's value")
		}
		var v any = str("value")
		for _, c := range s.Scenario.Config.Columns {
			if n, err := strconv.ParseInt(str("value"), 10, 64); err == nil && c.Name == str("column") && c.Type != engine.TypeVarchar {
				v = n
			}
		}
		ev = map[string]any{"column": str("column"), "value": v}
	case "snapshot":
		n, err := whole("count", "items")
		if err != nil {
			return "", err
		}
		ev = n
	case "error", "snapshot_error":
		ev = str("message")
	case "end", "recover":
		ev = nil
	default:
		return "", fmt.Errorf("unknown kind of step %s", quote.Q(kind))
	}
	raw := appendStepJSON(nil, map[string]any{kind: ev})
	st, err := scenarios.ParseStep(s.Scenario.Config, string(raw))
	if err != nil {
		var pe *scenarios.Error
		if errors.As(err, &pe) {
			return "", errors.New(pe.Msg) // a position in generated text would mean nothing
		}
		return "", err
	}
	return scenarios.FormatStep(s.Scenario.Config, st), nil
}
