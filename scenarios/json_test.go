package scenarios

import (
	"testing"

	"github.com/backfill-explainer/explainer/wire/wiretest"
)

func TestListsAsEncodingJSON(t *testing.T) {
	b := Builtins()
	wiretest.AsEncoder(t, b, AppendJSONInfos(nil, b), "builtins")
	w := Workloads()
	wiretest.AsEncoder(t, w, AppendJSONInfos(nil, w), "workloads")
}

// Values with every field set at random: a key added to a type and not to its AppendJSON fails.
func TestAppendJSONAsEncodingJSON(t *testing.T) {
	wiretest.CheckFilled(t, 1, func(x *[]Info, b []byte) []byte { return AppendJSONInfos(b, *x) })
}
