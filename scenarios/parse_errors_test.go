package scenarios

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/engine"
)

// hdr is a valid scenario head: 2 vnodes by ranges (a < 10 → vnode 0), steps from line 5.
const hdr = "title: t\n" +
	"table: {columns: [a, id], locality: [a], stream_key: [id]}\n" +
	"vnodes: {count: 2, rule: ranges, bounds: [10]}\n" +
	"steps:\n"

func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

type errCase struct {
	name string
	text string
	want string // exact line:col: message
}

// errorCases is the table of malformed scenarios; FuzzParse seeds from it as well.
var errorCases = []errCase{
	// YAML itself
	{"yaml syntax", hdr + "  - chunk: [\"+ 1 100\"\n", "5:22: invalid YAML: did not find expected ',' or ']'"},
	{"tab indentation", "title: t\n\ttable: {}\n", "2:1: invalid YAML: found a tab character that violates indentation"},
	{"empty file", "", "1:1: empty scenario: expected a mapping with keys title, table and steps"},
	{"only a comment", "# nothing\n", "1:1: empty scenario: expected a mapping with keys title, table and steps"},
	{"not a mapping", "- a\n", "1:1: scenario: expected a mapping with keys title, summary, table, vnodes, chunk_size, fragment, actor, bug, release, create, written_for, start, steps, workload, open_at, found a list"},
	{"two documents", hdr + "  - end\n---\ntitle: u\n", "6:1: a scenario is one YAML document; found a second one"},
	// the problem's own position, not the library's (the line of its context, no column)
	{"mis-indented item", "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nsteps:\n  - barrier: 1\n - end\n", "5:2: invalid YAML: did not find expected key"},
	{"over-indented item", "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nsteps:\n  - barrier: 1\n    - end\n", "5:5: invalid YAML: did not find expected key"},
	{"unterminated quote on the first line", "title: \"abc\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nsteps: []\n", "1:8: invalid YAML: found unexpected end of stream"},
	{"unterminated quote later", hdr + "  - barrier: 1\n  - error: 'boom\n  - end\n", "6:12: invalid YAML: found unexpected end of stream"},
	{"unterminated quote after a quote in a block scalar", "title: t\nsummary: |\n  \"a quoted line in a block scalar\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nsteps:\n  - error: 'boom\n", "6:12: invalid YAML: found unexpected end of stream"},
	{"stray bracket in a flow mapping", "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nvnodes: {count: 2, rule: ranges, bounds: 10]}\nsteps: []\n", "3:44: invalid YAML: did not find expected ',' or '}'"},
	{"indented key", "title: t\n  table: {}\n", "2:8: invalid YAML: mapping values are not allowed in this context"},
	{"alias", "title: &t x\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nsteps: [*t]\n", "3:9: aliases (*t) are not supported in scenario files; write the value out"},
	{"duplicate key", "title: t\ntitle: u\n", "2:1: duplicate key \"title\" (first at line 1, column 1)"},

	// top level
	{"unknown top-level key", "title: t\ncolour: red\n", "2:1: unknown key \"colour\" in scenario; allowed keys: title, summary, table, vnodes, chunk_size, fragment, actor, bug, release, create, written_for, start, steps, workload, open_at"},
	{"title missing", "table: {columns: [a, id], locality: [a], stream_key: [id]}\nsteps: []\n", "1:1: scenario: missing key \"title\""},
	{"title empty", "title: ''\n", "1:8: title must not be empty"},
	{"title a list", "title: [x]\n", "1:8: title: expected text, found a list"},
	{"table missing", "title: t\nsteps: []\n", "1:1: scenario: missing key \"table\""},
	{"steps missing", "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\n", "1:1: scenario: missing key \"steps\""},
	{"steps not a list", "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nsteps: {barrier: 1}\n", "3:8: steps: expected a list, found a mapping"},
	{"steps a scalar", "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nsteps: end\n", "3:8: steps: expected a list, found \"end\""},
	{"chunk_size zero", "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nchunk_size: 0\nsteps: []\n", "3:13: chunk_size must be in 1..1000000, found 0"},
	{"chunk_size a string", "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nchunk_size: big\nsteps: []\n", "3:13: chunk_size: expected an integer, found \"big\""},
	{"fragment negative", "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nfragment: -1\nsteps: []\n", "3:11: fragment must be in 0..4294967295, found -1"},
	{"actor too large", "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nactor: 4294967296\nsteps: []\n", "3:8: actor must be in 0..4294967295, found 4294967296"},

	// table
	{"unknown key in table", "title: t\ntable: {columns: [a], locality: [a], stream_key: [a], pk: [a]}\n", "2:55: unknown key \"pk\" in table; allowed keys: columns, locality, stream_key"},
	{"table not a mapping", "title: t\ntable: [a]\n", "2:8: table: expected a mapping with keys columns, locality, stream_key, found a list"},
	{"columns missing", "title: t\ntable: {locality: [a], stream_key: [a]}\n", "2:8: table: missing key \"columns\""},
	{"no columns", "title: t\ntable: {columns: [], locality: [a], stream_key: [a]}\n", "2:18: table.columns needs at least one column"},
	{"bad column name", "title: t\ntable: {columns: [A, id], locality: [A], stream_key: [id]}\n", "2:19: bad column name \"A\"; names match [a-z_][a-z0-9_]*"},
	{"column name starting with a digit", "title: t\ntable: {columns: [1a, id], locality: [a], stream_key: [id]}\n", "2:19: bad column name \"1a\"; names match [a-z_][a-z0-9_]*"},
	{"column a number", "title: t\ntable: {columns: [1, id], locality: [a], stream_key: [id]}\n", "2:19: table.columns: expected a column name like a or a:int, found the number 1"},
	{"duplicate column", "title: t\ntable: {columns: [a, id, a], locality: [a], stream_key: [id]}\n", "2:26: duplicate column \"a\""},
	{"unknown type", "title: t\ntable: {columns: [a:text, id], locality: [a], stream_key: [id]}\n", "2:19: unknown type \"text\" for column a; expected int, bigint or varchar"},
	{"unknown column in locality", "title: t\ntable: {columns: [a, id], locality: [b], stream_key: [id]}\n", "2:38: unknown column \"b\" in locality; columns are a, id"},
	{"unknown column in stream_key", "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [ix]}\n", "2:55: unknown column \"ix\" in stream_key; columns are a, id"},
	{"empty locality", "title: t\ntable: {columns: [a, id], locality: [], stream_key: [id]}\n", "2:37: table.locality needs at least one column"},
	{"stream_key missing", "title: t\ntable: {columns: [a, id], locality: [a]}\n", "2:8: table: missing key \"stream_key\""},
	{"locality twice", "title: t\ntable: {columns: [a, id], locality: [a, a], stream_key: [id]}\n", "2:41: column a appears twice in locality"},

	// vnodes
	{"zero vnodes", "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nvnodes: {count: 0}\n", "3:17: vnodes.count must be in 1..32768, found 0"},
	{"vnodes over 32768", "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nvnodes: {count: 32769}\n", "3:17: vnodes.count must be in 1..32768, found 32769"},
	{"unknown key in vnodes", "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nvnodes: {cnt: 2}\n", "3:10: unknown key \"cnt\" in vnodes; allowed keys: count, owned, rule, bounds"},
	{"owned duplicate", "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nvnodes: {count: 4, owned: [1, 2, 1]}\n", "3:34: owned vnode 1 is listed twice (first at line 3)"},
	{"owned out of range", "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nvnodes: {count: 4, owned: [1, 4]}\n", "3:31: owned vnode 4 is outside 0..3 (count 4)"},
	{"owned negative", "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nvnodes: {count: 4, owned: [-1]}\n", "3:28: owned vnode -1 is outside 0..3 (count 4)"},
	{"owned empty", "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nvnodes: {count: 4, owned: []}\n", "3:27: vnodes.owned must name at least one vnode"},
	{"unknown rule", "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nvnodes: {rule: hash}\n", "3:16: vnodes.rule: unknown rule \"hash\"; expected crc32, modulo or ranges"},
	{"ranges without bounds", "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nvnodes: {count: 3, rule: ranges}\n", "3:26: rule ranges needs bounds: 2 increasing integers for count 3"},
	{"bounds not increasing", "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nvnodes: {count: 3, rule: ranges, bounds: [10, 10]}\n", "3:47: vnodes.bounds must increase: 10 follows 10"},
	{"count != len(bounds)+1", "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nvnodes: {count: 3, rule: ranges, bounds: [10]}\n", "3:42: rule ranges with count 3 needs 2 bounds (count == len(bounds)+1), found 1"},
	{"bounds without ranges", "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nvnodes: {count: 2, bounds: [10]}\n", "3:20: vnodes.bounds is only for rule ranges (the rule is crc32)"},
	{"modulo with varchar key", "title: t\ntable: {columns: [a:varchar, id], locality: [a], stream_key: [id]}\nvnodes: {count: 2, rule: modulo}\n", "3:26: rule modulo needs an integer locality column; a is varchar"},
	{"ranges with two locality columns", "title: t\ntable: {columns: [a, b, id], locality: [a, b], stream_key: [id]}\nvnodes: {count: 1, rule: ranges}\n", "3:26: rule ranges needs exactly one locality column, found 2"},
	{"modulo with a word key", "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nvnodes: {count: 2, rule: modulo}\nsteps:\n  - chunk: [\"+ x 1\"]\n", "5:16: column a must hold integers (rule modulo); x is a string"},
	{"modulo with a NULL key", "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nvnodes: {count: 2, rule: modulo}\nsteps:\n  - chunk: [\"+ null 1\"]\n", "5:13: row (null,1): rule modulo cannot place a NULL key"},

	// steps
	{"unknown step", hdr + "  - checkpoint: 3\n", "5:5: unknown key \"checkpoint\" in a step; allowed keys: barrier, chunk, watermark, snapshot, snapshot_error, end, error, recover, note, pause"},
	{"unknown bare step", hdr + "  - halt\n", "5:5: unknown step \"halt\"; a step is one of barrier, chunk, watermark, snapshot, snapshot_error, end, error, recover"},
	{"bare step needing a value", hdr + "  - barrier\n", "5:5: step barrier needs a value, e.g. barrier: 1"},
	{"step a list", hdr + "  - [end]\n", "5:5: a step is one of barrier, chunk, watermark, snapshot, snapshot_error, end, error, recover (with an optional note), found a list"},
	{"two event keys", hdr + "  - {barrier: 1, chunk: [\"+ 1 1\"]}\n", "5:18: a step has one event; found both barrier and chunk (write them as two steps)"},
	{"note without event", hdr + "  - note: hello\n", "5:5: a step with a note or pause needs an event beside it: one of barrier, chunk, watermark, snapshot, snapshot_error, end, error, recover"},
	{"end with a value", hdr + "  - end: now\n", "5:10: end takes no value, found \"now\""},
	{"error without message", hdr + "  - error:\n", "5:11: error needs a message, e.g. error: upstream actor panicked"},
	{"error empty message", hdr + "  - error: ''\n", "5:12: error needs a message, e.g. error: upstream actor panicked"},

	{"snapshot_error without a message", hdr + "  - snapshot_error: ''\n", "5:21: snapshot_error needs a message, e.g. snapshot_error: storage read timed out"},

	// barriers
	{"unknown key in barrier", hdr + "  - barrier: {epoch: 1, stop: true}\n", "5:25: unknown key \"stop\" in barrier; allowed keys: epoch, start_backfill, rescale, mutation, checkpoint"},
	{"unknown mutation", hdr + "  - barrier: {epoch: 1, mutation: halt}\n", "5:35: unknown mutation \"halt\"; a barrier's mutation is pause, resume, stop or {throttle: N}"},
	{"mutation a list", hdr + "  - barrier: {epoch: 1, mutation: [pause]}\n", "5:35: mutation: expected pause, resume, stop or {throttle: N}, found a list"},
	{"stop with a value", hdr + "  - barrier: {epoch: 1, mutation: {stop: true}}\n", "5:36: stop takes no value: write mutation: stop (it always stops this actor)"},
	{"stop as a step", hdr + "  - stop\n", "5:5: stop is not a step: a Stop is a barrier's mutation, e.g. barrier: {epoch: 9, mutation: stop}"},
	{"stop with start_backfill", hdr + "  - barrier: {epoch: 1, mutation: stop, start_backfill: [7]}\n", "5:41: a barrier carries one mutation: mutation: stop and start_backfill together are an error (use two barriers)"},
	{"stop with rescale", hdr + "  - barrier: {epoch: 1, rescale: true, mutation: stop}\n", "5:40: a barrier carries one mutation: rescale and mutation: stop together are an error (use two barriers)"},
	{"stop in capitals", hdr + "  - barrier: {epoch: 1, mutation: Stop}\n", "5:35: unknown mutation \"Stop\"; a barrier's mutation is pause, resume, stop or {throttle: N}"},
	{"throttle without its rate limit", hdr + "  - barrier: {epoch: 1, mutation: throttle}\n", "5:35: a throttle needs its rate limit: mutation: {throttle: N}, N from 0 to 4294967295"},
	{"throttle negative", hdr + "  - barrier: {epoch: 1, mutation: {throttle: -1}}\n", "5:46: throttle must be in 0..4294967295, found -1"},
	{"throttle too large", hdr + "  - barrier: {epoch: 1, mutation: {throttle: 4294967296}}\n", "5:46: throttle must be in 0..4294967295, found 4294967296"},
	{"throttle not an integer", hdr + "  - barrier: {epoch: 1, mutation: {throttle: fast}}\n", "5:46: throttle: expected a non-negative integer (the rate limit, 0 to 4294967295), found \"fast\""},
	{"throttle a fraction", hdr + "  - barrier: {epoch: 1, mutation: {throttle: 1.5}}\n", "5:46: throttle: expected a non-negative integer (the rate limit, 0 to 4294967295), found the number 1.5"},
	{"unknown key in mutation", hdr + "  - barrier: {epoch: 1, mutation: {rate: 1}}\n", "5:36: unknown key \"rate\" in mutation; allowed keys: throttle"},
	{"mutation with start_backfill", hdr + "  - barrier: {epoch: 1, start_backfill: [7], mutation: pause}\n", "5:46: a barrier carries one mutation: start_backfill and mutation: pause together are an error (use two barriers)"},
	{"mutation with rescale", hdr + "  - barrier: {epoch: 1, mutation: resume, rescale: true}\n", "5:43: a barrier carries one mutation: mutation: resume and rescale together are an error (use two barriers)"},
	{"barrier without epoch", hdr + "  - barrier: {checkpoint: false}\n", "5:14: barrier: missing key \"epoch\""},
	{"epoch going back", hdr + "  - barrier: 2\n  - barrier: 1\n", "6:14: epoch 1 does not increase: the barrier at line 5 had epoch 2 (epochs increase strictly, also across recover)"},
	{"equal epoch", hdr + "  - barrier: 2\n  - barrier: {epoch: 2, checkpoint: false}\n", "6:22: epoch 2 does not increase: the barrier at line 5 had epoch 2 (epochs increase strictly, also across recover)"},
	{"epoch back across recover", hdr + "  - barrier: 3\n  - recover\n  - barrier: 2\n", "7:14: epoch 2 does not increase: the barrier at line 5 had epoch 3 (epochs increase strictly, also across recover)"},
	{"epoch zero", hdr + "  - barrier: 0\n", "5:14: barrier epoch must be in 1..9223372036854775807, found 0"},
	{"epoch a string", hdr + "  - barrier: '1'\n", "5:14: barrier epoch: expected an integer, found \"1\""},
	{"start_backfill with rescale", hdr + "  - barrier: {epoch: 1, start_backfill: [7], rescale: true}\n", "5:46: a barrier carries one mutation: start_backfill and rescale together are an error (use two barriers)"},
	{"start_backfill not a list", hdr + "  - barrier: {epoch: 1, start_backfill: 7}\n", "5:41: barrier start_backfill: expected a list, found the number 7"},
	{"rescale not a boolean", hdr + "  - barrier: {epoch: 1, rescale: yes}\n", "5:34: barrier rescale: expected true or false, found \"yes\""},

	// chunks and rows
	{"empty chunk", hdr + "  - chunk: []\n", "5:12: chunk: [] is empty; a chunk needs at least one row (an invisible row is written in parentheses)"},
	{"chunk not a list", hdr + "  - chunk: \"+ 1 1\"\n", "5:12: chunk: expected a list, found \"+ 1 1\""},
	{"row not a string", hdr + "  - chunk: [[1, 2]]\n", "5:13: a chunk row is a string like \"+ 1 100\", found a list"},
	{"bad op", hdr + "  - chunk: [\"* 1 100\"]\n", "5:14: bad op \"*\"; a row starts with +, -, U- or U+"},
	{"bad op after others", hdr + "  - chunk: [\"+ 1 100\", \"U 2 101\"]\n", "5:25: bad op \"U\"; a row starts with +, -, U- or U+"},
	{"empty row", hdr + "  - chunk: [\"  \"]\n", "5:16: empty row; expected OP v1 v2 … with OP one of +, -, U-, U+"},
	{"too few values", hdr + "  - chunk: [\"+ 1\"]\n", "5:14: row has 1 value; the table has 2 columns (a, id)"},
	{"too many values", hdr + "  - chunk: [\"+ 1 100 7\"]\n", "5:22: row has 3 values; the table has 2 columns (a, id)"},
	{"unowned vnode", "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nvnodes: {count: 2, owned: [0], rule: ranges, bounds: [10]}\nsteps:\n  - chunk: [\"+ 1 100\", \"+ 11 200\"]\n", "5:24: row (11,200) is on vnode 1, which actor 1 does not own (owned: 0)"},
	{"unterminated quoted string", hdr + "  - chunk: [\"+ 1 'abc\"]\n", "5:18: unterminated quoted string; close it with ' (write '' for a quote inside)"},
	{"text after a quoted string", hdr + "  - chunk: [\"+ 1 'a'b\"]\n", "5:21: expected a space after the quoted string"},
	{"unclosed parenthesis", hdr + "  - chunk: [\"(+ 1 100\"]\n", "5:14: an invisible row is written in parentheses, (OP v1 v2 …); the closing ) is missing"},
	{"bad value", hdr + "  - chunk: [\"+ 1 x!\"]\n", "5:18: bad value x!; a value is an integer, null, a bare word ([A-Za-z0-9_] then [A-Za-z0-9_.-]) or a 'quoted string'"},
	{"bare true in a row", hdr + "  - chunk: [\"+ 1 true\"]\n", "5:18: true is not a value; write 'true' in quotes for a string"},
	{"NULL in capitals", hdr + "  - chunk: [\"+ 1 NULL\"]\n", "5:18: write null in lower case for NULL, or 'NULL' in quotes for a string"},
	{"integer with a leading zero", "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nchunk_size: 010\nsteps: []\n", "3:13: chunk_size: integer 010: integers are decimal; a leading zero is not allowed (YAML 1.1 reads 010 as octal 8); write 8 or 10"},
	{"hexadecimal integer", "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nchunk_size: 0x10\nsteps: []\n", "3:13: chunk_size: integer 0x10: integers are decimal; hexadecimal is not allowed; write 16"},
	{"binary integer", "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nchunk_size: 0b10\nsteps: []\n", "3:13: chunk_size: integer 0b10: integers are decimal; binary is not allowed; write 2"},
	{"integer with a digit separator", "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nchunk_size: 1_0\nsteps: []\n", "3:13: chunk_size: integer 1_0: integers are decimal; digit separators (_) are not allowed; write 10"},
	{"08", hdr + "  - barrier: 08\n", "5:14: barrier epoch: integer 08: integers are decimal; a leading zero is not allowed (YAML 1.1 reads 010 as octal 8); write 8"},
	{"leading zero in a row", hdr + "  - chunk: [\"+ 010 1\"]\n", "5:16: integer 010: integers are decimal; a leading zero is not allowed (YAML 1.1 reads 010 as octal 8); write 8 or 10"},
	{"title too long", "title: " + strings.Repeat("x", 201) + "\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nsteps: []\n", "1:8: title is 201 characters; the limit is 200"},
	{"note too long", hdr + "  - {barrier: 1, note: " + strings.Repeat("é", 10001) + "}\n", "5:24: note is 10001 characters; the limit is 10000"},
	{"value too long in a row", hdr + "  - chunk: [\"+ 1 '" + strings.Repeat("x", 1001) + "'\"]\n", "5:18: a value is 1001 characters; the limit is 1000"},
	{"bare word too long in a row", hdr + "  - chunk: [\"+ 1 " + strings.Repeat("x", 1001) + "\"]\n", "5:18: a value is 1001 characters; the limit is 1000"},
	{"bigint overflow in a row", hdr + "  - chunk: [\"+ 1 9223372036854775808\"]\n", "5:18: integer 9223372036854775808 overflows bigint (-9223372036854775808..9223372036854775807)"},
	{"int overflow in a row", "title: t\ntable: {columns: [a:int, id], locality: [a], stream_key: [id]}\nsteps:\n  - chunk: [\"+ 2147483648 1\"]\n", "4:16: integer 2147483648 overflows int column a (-2147483648..2147483647)"},
	{"int underflow in a row", "title: t\ntable: {columns: [a:int, id], locality: [a], stream_key: [id]}\nsteps:\n  - chunk: [\"+ -2147483649 1\"]\n", "4:16: integer -2147483649 overflows int column a (-2147483648..2147483647)"},
	{"mixing types in a column", hdr + "  - chunk: [\"+ 1 100\", \"+ 2 x\"]\n", "5:29: column id holds integers (first at 5:18); x is a string"},
	{"mixing types, string first", "title: t\ntable: {columns: [a, v], locality: [a], stream_key: [v]}\nsteps:\n  - chunk: [\"+ 1 x\", \"+ 2 7\"]\n", "4:27: column v holds strings (first at 4:18); 7 is an integer (write '7' in quotes for a string)"},
	{"integer in a varchar column", "title: t\ntable: {columns: [a, v:varchar], locality: [a], stream_key: [v]}\nsteps:\n  - chunk: [\"+ 1 7\"]\n", "4:18: column v is varchar; 7 is an integer (write '7' in quotes for a string)"},
	{"string in an int column", "title: t\ntable: {columns: [a:int, v], locality: [a], stream_key: [v]}\nsteps:\n  - chunk: [\"+ 'x y' 7\"]\n", "4:16: column a is int; 'x y' is a string"},
	{"position in a single-quoted YAML scalar", hdr + "  - chunk: ['+ ''a'' x']\n", "5:16: column a must hold integers (rule ranges); a is a string"},
	{"position after '' in a single-quoted YAML scalar", hdr + "  - chunk: ['+ 1 ''a'' x']\n", "5:24: row has 3 values; the table has 2 columns (a, id)"},
	{"watermark value mixing types", "title: t\ntable: {columns: [a, v], locality: [a], stream_key: [a]}\nsteps:\n  - chunk: [\"+ 1 7\"]\n  - watermark: {column: v, value: x}\n", "5:35: column v holds integers (first at 4:18); x is a string"},
	{"control character", "title: t\x01\n", "1:9: invalid YAML: control characters are not allowed"},
	{"invalid UTF-8", "title: t\nsummary: \xff\n", "2:10: invalid YAML: invalid leading UTF-8 octet"},
	{"position after a YAML escape", hdr + "  - chunk: [\"+\\t1 \\\"x\"]\n", "5:19: bad value \"x; a value is an integer, null, a bare word ([A-Za-z0-9_] then [A-Za-z0-9_.-]) or a 'quoted string'"},
	{"position in a block scalar row", hdr + "  - chunk:\n    - + 1 x!\n", "6:11: bad value x!; a value is an integer, null, a bare word ([A-Za-z0-9_] then [A-Za-z0-9_.-]) or a 'quoted string'"},

	// watermark
	{"unknown column in watermark", hdr + "  - watermark: {column: b, value: 5}\n", "5:25: unknown column \"b\" in watermark; columns are a, id"},
	{"unknown key in watermark", hdr + "  - watermark: {column: a, value: 5, at: 1}\n", "5:38: unknown key \"at\" in watermark; allowed keys: column, value"},
	{"watermark value of the wrong type", hdr + "  - chunk: [\"+ 1 100\"]\n  - watermark: {column: a, value: x}\n", "6:35: column a must hold integers (rule ranges); x is a string"},
	{"watermark null", hdr + "  - watermark: {column: a, value: null}\n", "5:35: a watermark value cannot be null"},
	{"YAML boolean as value", hdr + "  - watermark: {column: a, value: true}\n", "5:35: column a: the YAML boolean true is not a value; write 'true' in quotes for a string"},
	{"YAML float as value", hdr + "  - watermark: {column: a, value: 1.5}\n", "5:35: column a: 1.5 is not an integer; values are integers, null or strings (write '1.5' in quotes for a string)"},
	{"bigint overflow in YAML", hdr + "  - watermark: {column: a, value: 9223372036854775808}\n", "5:35: integer 9223372036854775808 overflows bigint (-9223372036854775808..9223372036854775807)"},
	{"int overflow in YAML", "title: t\ntable: {columns: [a:int, id], locality: [a], stream_key: [id]}\nsteps:\n  - watermark: {column: a, value: 2147483648}\n", "4:35: integer 2147483648 overflows int column a (-2147483648..2147483647)"},

	// snapshot
	{"snapshot 0", hdr + "  - snapshot: 0\n", "5:15: snapshot delivers at least 1 item, found 0"},
	{"snapshot negative", hdr + "  - snapshot: -2\n", "5:15: snapshot delivers at least 1 item, found -2"},
	{"snapshot a word", hdr + "  - snapshot: all\n", "5:15: snapshot: expected an integer, found \"all\""},

	// start
	{"unknown key in start", hdr + "  - end\nstart: {state: []}\n", "6:9: unknown key \"state\" in start; allowed keys: state_table, progress"},
	{"start row wrong width", "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nstart: {state_table: [[1, 2, 3]]}\nsteps: []\n", "3:23: start.state_table row has 3 values; the table has 2 columns (a, id)"},
	{"start row unowned", "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nvnodes: {count: 2, owned: [1], rule: ranges, bounds: [10]}\nstart: {state_table: [[1, 2]]}\nsteps: []\n", "4:23: start row (1,2) is on vnode 0, which actor 1 does not own (owned: 1)"},
	{"start row pk twice", "title: t\ntable: {columns: [a, id, v], locality: [a], stream_key: [id]}\nstart: {state_table: [[1, 2, x], [1, 2, y]]}\nsteps: []\n", "3:34: start.state_table has pk (1,2) twice (first at line 3)"},
	{"start row boolean", "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nstart: {state_table: [[1, false]]}\nsteps: []\n", "3:27: column id: the YAML boolean false is not a value; write 'false' in quotes for a string"},
	{"progress pos wrong width", "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nstart:\n  progress:\n    - {vnode: 0, pos: [1]}\nsteps: []\n", "5:23: start.progress pos has 1 value; the pk (locality ++ stream_key) has 2: a, id"},
	{"progress unowned vnode", "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nvnodes: {count: 4, owned: [0, 1]}\nstart:\n  progress:\n    - {vnode: 2, pos: [1, 1]}\nsteps: []\n", "6:15: start.progress names vnode 2, which actor 1 does not own (owned: 0, 1)"},
	{"progress vnode twice", "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nvnodes: {count: 4}\nstart:\n  progress:\n    - {vnode: 1, pos: [1, 1]}\n    - {vnode: 1, pos: [2, 1]}\nsteps: []\n", "7:15: start.progress names vnode 1 twice (first at line 6)"},
	{"progress vnode out of range", "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nvnodes: {count: 4}\nstart:\n  progress:\n    - {vnode: 4, pos: [1, 1]}\nsteps: []\n", "6:15: start.progress vnode must be in 0..3, found 4"},
	{"progress without pos", "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nstart:\n  progress:\n    - {vnode: 0}\nsteps: []\n", "5:7: start.progress entry: missing key \"pos\""},
	{"progress pos type", "title: t\ntable: {columns: [a, id:varchar], locality: [a], stream_key: [id]}\nstart:\n  progress:\n    - {vnode: 0, pos: [1, 2]}\nsteps: []\n", "5:27: column id is varchar; 2 is an integer (write '2' in quotes for a string)"},
	{"progress unknown key", "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nstart:\n  progress:\n    - {vnode: 0, pos: [1, 2], done: true}\nsteps: []\n", "5:31: unknown key \"done\" in start.progress entry; allowed keys: vnode, pos, finished, rows"},
	{"progress rows negative", "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nstart:\n  progress:\n    - {vnode: 0, pos: [1, 2], rows: -1}\nsteps: []\n", "5:37: start.progress rows must be in 0..4611686018427387904, found -1"},
}

func TestParseErrors(t *testing.T) {
	for _, c := range errorCases {
		t.Run(c.name, func(t *testing.T) {
			sc, err := Parse("", []byte(c.text))
			require.Error(t, err, "parsed: %+v", sc)
			var e *Error
			require.True(t, errors.As(err, &e), "not an *Error: %T %v", err, err)
			assert.Equal(t, c.want, err.Error())
			assert.GreaterOrEqual(t, e.Line, 1)
			assert.GreaterOrEqual(t, e.Col, 1)
		})
	}
}

func TestErrorString(t *testing.T) {
	assert.Equal(t, "f.yaml:3:4: boom", (&Error{File: "f.yaml", Line: 3, Col: 4, Msg: "boom"}).Error())
	assert.Equal(t, "3:4: boom", (&Error{Line: 3, Col: 4, Msg: "boom"}).Error())
	_, err := Parse("dir/x.yaml", []byte("title: t\nbogus: 1\n"))
	assert.EqualError(t, err, `dir/x.yaml:2:1: unknown key "bogus" in scenario; allowed keys: title, summary, table, vnodes, chunk_size, fragment, actor, bug, release, create, written_for, start, steps, workload, open_at`)
}

func TestLimits(t *testing.T) {
	cfg := validConfig(t)
	old := limits
	defer func() { limits = old }()
	limits.bytes, limits.steps, limits.rows = 200, 2, 3

	_, err := Parse("", []byte(hdr+strings.Repeat("  - end\n", 30)))
	assert.EqualError(t, err, "1:1: the scenario is 362 bytes; the limit is 200 bytes (1 MiB)")

	_, err = Parse("", []byte(hdr+"  - barrier: 1\n  - end\n  - recover\n"))
	assert.EqualError(t, err, "7:5: more than 2 steps; the limit is 2")

	_, err = Parse("", []byte("title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nstart: {state_table: [[1, 1], [1, 2]]}\nsteps:\n  - chunk: [\"+ 1 3\", \"+ 1 4\"]\n"))
	assert.EqualError(t, err, "5:22: more than 3 rows in all (chunk rows and start rows); the limit is 3")

	_, err = ParseStep(cfg, strings.Repeat(" ", 201)+"end")
	assert.EqualError(t, err, "1:1: the step is 204 bytes; the limit is 200 bytes (1 MiB)")
}

func TestRealLimitsAreTheSpec(t *testing.T) {
	assert.Equal(t, 1<<20, limits.bytes)
	assert.Equal(t, 100_000, limits.steps)
	assert.Equal(t, 1_000_000, limits.rows)
	// a file just over 1 MiB is refused before YAML sees it
	big := hdr + "  - end\n" + "# " + strings.Repeat("x", 1<<20) + "\n"
	_, err := Parse("big.yaml", []byte(big))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "big.yaml:1:1: the scenario is ")
}

func TestBugKey(t *testing.T) {
	base := "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nsteps: []\n"
	sc, err := Parse("", []byte(base+"bug: mark-before-drain\n"))
	require.NoError(t, err)
	assert.Equal(t, engine.BugMarkBeforeDrain, sc.Config.Bug)
	back, err := Parse("", []byte(FormatScenario(sc)))
	require.NoError(t, err)
	assert.Equal(t, engine.BugMarkBeforeDrain, back.Config.Bug, "the bug mode round-trips")
	_, err = Parse("", []byte(base+"bug: off-by-one\n"))
	require.EqualError(t, err, `4:6: unknown bug mode "off-by-one" (one of: no-state-write, mark-before-drain, mark-on-arrival, emit-beyond-pos)`)
}

func TestReleaseKeyRoundTrips(t *testing.T) {
	base := "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nsteps: []\n"
	sc, err := Parse("", []byte(base+"release: v3.0\n"))
	require.NoError(t, err)
	assert.Contains(t, FormatScenario(sc), "\nrelease: v3.0\n")
	back, err := Parse("", []byte(FormatScenario(sc)))
	require.NoError(t, err)
	assert.Equal(t, engine.ReleaseV30, back.Config.Release, "the release round-trips")
}

func TestCreateKey(t *testing.T) {
	base := "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nsteps: []\n"
	sc, err := Parse("", []byte(base))
	require.NoError(t, err)
	assert.Equal(t, engine.CreateForeground, sc.Config.Create, "foreground is the default (background_ddl false)")
	sc, err = Parse("", []byte(base+"create: background\n"))
	require.NoError(t, err)
	assert.Equal(t, engine.CreateBackground, sc.Config.Create)
	back, err := Parse("", []byte(FormatScenario(sc)))
	require.NoError(t, err)
	assert.Equal(t, engine.CreateBackground, back.Config.Create, "the create type round-trips")
	_, err = Parse("", []byte(base+"create: later\n"))
	require.EqualError(t, err, `4:9: create: unknown create type "later": expected one of foreground, background`)
	_, err = Parse("", []byte(base+"create: [background]\n"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "4:9: create: expected one of foreground, background")
}

func TestPauseKey(t *testing.T) {
	cfg := &engine.Config{Columns: []engine.Column{{Name: "a"}, {Name: "id"}}, Locality: []int{0}, StreamKey: []int{1}, VnodeCount: 1, Owned: []int{0}, ChunkSize: 1}
	st, err := ParseStep(cfg, `{barrier: 3, note: "look here", pause: true}`)
	require.NoError(t, err)
	assert.True(t, st.Pause)
	assert.Equal(t, "look here", st.Note)
	back, err := ParseStep(cfg, FormatStep(cfg, st))
	require.NoError(t, err)
	assert.Equal(t, st, back)
	_, err = ParseStep(cfg, `{end: null, pause: yes}`)
	assert.Error(t, err)
}
