package lessons

import "github.com/backfill-explainer/explainer/internal/jsonw"

// The JSON the page gets, written by hand as the engine's is (no encoding/json in the wasm):
// byte for byte as encoding/json writes the same values; json_test.go checks it.

// AppendJSON writes a built-in lesson's entry.
func (i *Info) AppendJSON(b []byte) []byte {
	b = jsonw.KeyString(b, `{"name":`, i.Name)
	b = jsonw.KeyString(b, `,"title":`, i.Title)
	b = jsonw.KeyString(b, `,"summary":`, i.Summary)
	b = jsonw.KeyInt(b, `,"minutes":`, int64(i.Minutes))
	b = jsonw.KeyInt(b, `,"sections":`, int64(i.Sections))
	return append(b, '}')
}

// AppendJSONInfos writes the list of built-in lessons.
func AppendJSONInfos(b []byte, infos []Info) []byte { return jsonw.List(b, infos, (*Info).AppendJSON) }

// AppendJSON writes a plan.
func (p *Plan) AppendJSON(b []byte) []byte {
	b = jsonw.KeyString(b, `{"name":`, p.Name)
	b = jsonw.KeyString(b, `,"title":`, p.Title)
	b = jsonw.KeyString(b, `,"summary":`, p.Summary)
	b = jsonw.KeyInt(b, `,"minutes":`, int64(p.Minutes))
	b = jsonw.Key(b, `,"sections":`)
	b = jsonw.List(b, p.Sections, (*PlanSection).AppendJSON)
	return append(b, '}')
}

// AppendJSON writes a plan's section.
func (s *PlanSection) AppendJSON(b []byte) []byte {
	b = jsonw.KeyString(b, `{"title":`, s.Title)
	b = jsonw.KeyString(b, `,"goal":`, s.Goal)
	b = jsonw.KeyString(b, `,"scenario":`, s.Scenario)
	b = jsonw.KeyString(b, `,"scenario_title":`, s.ScenarioTitle)
	b = jsonw.KeyString(b, `,"scenario_text":`, s.ScenarioText)
	b = jsonw.KeyInt(b, `,"steps":`, int64(s.Steps))
	b = jsonw.KeyString(b, `,"release":`, s.Release)
	b = jsonw.KeyString(b, `,"bug":`, s.Bug)
	b = jsonw.Key(b, `,"stops":`)
	b = jsonw.Ints(b, s.Stops)
	b = jsonw.KeyInt(b, `,"minutes":`, int64(s.Minutes))
	b = jsonw.KeyString(b, `,"notes":`, s.Notes)
	b = jsonw.Key(b, `,"questions":`)
	b = jsonw.List(b, s.Questions, (*PlanQuestion).AppendJSON)
	return append(b, '}')
}

// AppendJSON writes a question and its answer.
func (q *PlanQuestion) AppendJSON(b []byte) []byte {
	b = jsonw.KeyString(b, `{"ask":`, q.Ask)
	b = jsonw.KeyInt(b, `,"at":`, int64(q.At))
	b = jsonw.KeyBool(b, `,"predict":`, q.Predict)
	b = jsonw.KeyString(b, `,"answer":`, q.Answer)
	b = jsonw.KeyInt(b, `,"epoch":`, q.Epoch)
	b = jsonw.Key(b, `,"visible":`)
	b = jsonw.Strings(b, q.Visible)
	b = jsonw.Key(b, `,"hidden":`)
	b = jsonw.Strings(b, q.Hidden)
	b = jsonw.Key(b, `,"why":`)
	b = jsonw.Strings(b, q.Why)
	return append(b, '}')
}
