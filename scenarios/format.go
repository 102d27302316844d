package scenarios

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/backfill-explainer/explainer/engine"
)

// FormatStep writes a step as one line of YAML flow syntax that ParseStep reads back to an
// equal Step, e.g. `barrier: 3`, `barrier: {epoch: 4, checkpoint: false}`,
// `chunk: ["+ 1 100", "(- 2 'it”s')"]`, `end`. The note is kept: a step with a note is
// written as a flow mapping, `{chunk: ["+ 1 100"], note: "first rows"}`, `{end: null, note: …}`.
func FormatStep(cfg *engine.Config, s engine.Step) string {
	ev := formatEvent(cfg, s)
	note := ""
	if s.NoteBy != nil { // written per release: kept when it holds the run's release
		if _, ok := s.NoteBy[cfg.RunRelease().Name]; ok {
			note = formatByRelease(s.NoteBy)
		}
	} else if s.Note != "" {
		note = YAMLString(s.Note)
	}
	if note == "" && !s.Pause {
		return ev
	}
	if s.Kind.Info().Takes == engine.TakesNone {
		ev += ": null"
	}
	if note != "" {
		ev += ", note: " + note
	}
	if s.Pause {
		ev += ", pause: true"
	}
	return "{" + ev + "}"
}

func formatEvent(cfg *engine.Config, s engine.Step) string {
	info := s.Kind.Info()
	switch info.Takes {
	case engine.TakesBarrier:
		b := s.Barrier
		if b.Checkpoint && b.StartBackfill == nil && !b.Rescale && b.Mutation == engine.MutationNone {
			return "barrier: " + strconv.FormatInt(b.Epoch, 10)
		}
		parts := []string{"epoch: " + strconv.FormatInt(b.Epoch, 10)}
		if b.StartBackfill != nil {
			ids := make([]string, len(b.StartBackfill))
			for i, id := range b.StartBackfill {
				ids[i] = strconv.FormatInt(id, 10)
			}
			parts = append(parts, "start_backfill: ["+strings.Join(ids, ", ")+"]")
		}
		if b.Rescale {
			parts = append(parts, "rescale: true")
		}
		switch b.Mutation {
		case engine.MutationPause, engine.MutationResume, engine.MutationStop:
			parts = append(parts, "mutation: "+b.Mutation.String())
		case engine.MutationThrottle:
			parts = append(parts, "mutation: {throttle: "+strconv.FormatInt(b.Throttle, 10)+"}")
		}
		if !b.Checkpoint {
			parts = append(parts, "checkpoint: false")
		}
		return "barrier: {" + strings.Join(parts, ", ") + "}"
	case engine.TakesRows:
		rows := make([]string, len(s.Chunk))
		for i, r := range s.Chunk {
			rows[i] = yamlQuoted(FormatRow(r))
		}
		return "chunk: [" + strings.Join(rows, ", ") + "]"
	case engine.TakesWatermark:
		name := strconv.Itoa(s.Watermark.Column)
		if cfg != nil && s.Watermark.Column >= 0 && s.Watermark.Column < len(cfg.Columns) {
			name = cfg.Columns[s.Watermark.Column].Name
		}
		return "watermark: {column: " + name + ", value: " + yamlValue(s.Watermark.Value) + "}"
	case engine.TakesText:
		return info.Key + ": " + YAMLString(s.Message)
	case engine.TakesCount:
		return info.Key + ": " + strconv.Itoa(s.Count)
	}
	return info.Key
}

// FormatRow writes a chunk row as the row string of a scenario file: `+ 1 100 x`, or
// `(U- 2 'a b')` when it is invisible. Strings that are not bare words are single-quoted.
func FormatRow(r engine.RowOp) string {
	var b strings.Builder
	b.WriteString(r.Op.String())
	for _, v := range r.Row {
		b.WriteByte(' ')
		b.WriteString(formatRowValue(v))
	}
	if !r.Visible {
		return "(" + b.String() + ")"
	}
	return b.String()
}

// formatRowValue writes a value as inside a row string.
func formatRowValue(v engine.Value) string {
	switch v.Kind {
	case engine.KindNull:
		return "null"
	case engine.KindInt:
		return strconv.FormatInt(v.I, 10)
	}
	if isBareWord(v.S) {
		return v.S
	}
	return "'" + strings.ReplaceAll(v.S, "'", "''") + "'"
}

// yamlValue writes a value as a YAML scalar (start rows, progress pos, watermark value).
func yamlValue(v engine.Value) string {
	switch v.Kind {
	case engine.KindNull:
		return "null"
	case engine.KindInt:
		return strconv.FormatInt(v.I, 10)
	}
	return YAMLString(v.S)
}

// YAMLString writes text as a YAML scalar that reads back as the same string: plain when it is
// an identifier YAML cannot take for anything else, double-quoted otherwise.
func YAMLString(s string) string {
	if isPlainSafe(s) {
		return s
	}
	return yamlQuoted(s)
}

func isPlainSafe(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	switch strings.ToLower(s) {
	case "null", "true", "false", "yes", "no", "on", "off", "y", "n", "nan", "inf":
		return false
	}
	return true
}

// yamlQuoted writes s as a YAML double-quoted scalar, escaping everything YAML would not read
// back verbatim (controls, line breaks of every kind, the BOM, non-characters, invalid UTF-8).
func yamlQuoted(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			// not representable in YAML text; write the replacement character
			b.WriteString(`\uFFFD`)
			i++
			continue
		}
		i += size
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f || r == 0x2028 || r == 0x2029 ||
			r == 0xfeff || r >= 0xd800 && r <= 0xdfff || r == 0xfffe || r == 0xffff:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// FormatScenario writes a whole scenario file that Parse reads back to an equal Scenario
// (Config and Steps; positions differ). Column types are always written out, so a column whose
// type was inferred keeps it.
func FormatScenario(sc *Scenario) string { return FormatScenarioCommented(sc, nil) }

// FormatScenarioCommented is FormatScenario with comment lines: comments[k] are written before step k
// (and comments[len(steps)] after the last one), each as one `# …` line.
func FormatScenarioCommented(sc *Scenario, comments map[int][]string) string {
	cfg := sc.Config
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	w("title: %s\n", YAMLString(cfg.Title))
	if cfg.Summary != "" {
		w("summary: %s\n", YAMLString(cfg.Summary))
	}
	cols := make([]string, len(cfg.Columns))
	for i, c := range cfg.Columns {
		cols[i] = c.Name + ":" + c.Type.String()
	}
	names := func(idx []int) string {
		s := make([]string, len(idx))
		for i, c := range idx {
			s[i] = cfg.Columns[c].Name
		}
		return strings.Join(s, ", ")
	}
	w("table:\n  columns: [%s]\n  locality: [%s]\n  stream_key: [%s]\n", strings.Join(cols, ", "), names(cfg.Locality), names(cfg.StreamKey))
	w("vnodes:\n  count: %d\n", cfg.VnodeCount)
	if len(cfg.Owned) != cfg.VnodeCount {
		w("  owned: [%s]\n", joinInts(cfg.Owned))
	}
	w("  rule: %s\n", cfg.Rule)
	if cfg.Rule == engine.RuleRanges && len(cfg.Bounds) > 0 {
		w("  bounds: [%s]\n", joinInt64s(cfg.Bounds))
	}
	w("chunk_size: %d\nfragment: %d\nactor: %d\n", cfg.ChunkSize, cfg.Fragment, cfg.Actor)
	if cfg.Bug != engine.BugNone {
		w("bug: %s\n", cfg.Bug)
	}
	if cfg.Release != nil {
		w("release: %s\n", cfg.Release)
	}
	if cfg.Create != engine.CreateForeground {
		w("create: %s\n", cfg.Create)
	}
	if len(cfg.StartState) > 0 || len(cfg.StartProgress) > 0 {
		w("start:\n")
		if len(cfg.StartState) > 0 {
			w("  state_table:\n")
			for _, r := range cfg.StartState {
				w("    - [%s]\n", yamlRow(r))
			}
		}
		if len(cfg.StartProgress) > 0 {
			w("  progress:\n")
			for _, pr := range cfg.StartProgress {
				w("    - {vnode: %d, pos: [%s], finished: %t, rows: %d}\n", pr.Vnode, yamlRow(pr.Pos), pr.Finished, pr.Rows)
			}
		}
	}
	comment := func(k int) {
		for _, c := range comments[k] {
			w("  # %s\n", strings.Join(strings.Fields(c), " "))
		}
	}
	if len(sc.Steps) == 0 {
		w("steps: []\n")
		comment(0)
		return b.String()
	}
	w("steps:\n")
	for i, s := range sc.Steps {
		comment(i)
		w("  - %s\n", FormatStep(cfg, s))
	}
	comment(len(sc.Steps))
	return b.String()
}

func yamlRow(r engine.Row) string {
	s := make([]string, len(r))
	for i, v := range r {
		s[i] = yamlValue(v)
	}
	return strings.Join(s, ", ")
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ", ")
}

func joinInt64s(v []int64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.FormatInt(x, 10)
	}
	return strings.Join(s, ", ")
}

// formatByRelease writes a text per release as a flow mapping, the releases with the same text
// under one key: `{"v2.7 v2.8": "…", v3.1: "…"}`.
func formatByRelease(by map[string]string) string {
	var keys, texts []string
	for _, r := range engine.Releases {
		t, ok := by[r.Name]
		if !ok {
			continue
		}
		i := slices.Index(texts, t)
		if i < 0 {
			keys, texts = append(keys, r.Name), append(texts, t)
			continue
		}
		keys[i] += " " + r.Name
	}
	parts := make([]string, len(keys))
	for i := range keys {
		parts[i] = YAMLString(keys[i]) + ": " + YAMLString(texts[i])
	}
	return "{" + strings.Join(parts, ", ") + "}"
}
