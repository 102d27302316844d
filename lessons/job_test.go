package lessons

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/backfill-explainer/explainer/scenarios"
	"github.com/backfill-explainer/explainer/session"
)

// TestASectionThatShowsADroppedJobSaysSo: a section whose stops reach a recovery that drops the
// job (a creating foreground job, on a release whose meta service drops one) says so in its
// notes or answers, and never that the job resumes without saying how it was created. It failed
// on the workshop's "under v3.0" sections, which told the recovery as a resume.
func TestASectionThatShowsADroppedJobSaysSo(t *testing.T) {
	for _, n := range BuiltinNames() {
		l, err := OpenBuiltin(n)
		require.NoError(t, err, n)
		for i, sec := range l.Sections {
			if sec.Scenario == "" {
				continue
			}
			text, err := scenarios.BuiltinText(sec.Scenario)
			require.NoError(t, err)
			s, err := session.Load(sec.Scenario+".yaml", text)
			require.NoError(t, err)
			if sec.Release != "" {
				require.NoError(t, s.SetRelease(sec.Release))
			}
			dropped := false
			for _, st := range sec.Stops {
				require.NoError(t, s.Goto(st))
				dropped = dropped || s.View().Phase == "dropped"
			}
			if !dropped {
				continue
			}
			said := strings.ToLower(sec.Notes)
			for _, q := range sec.Questions {
				said += " " + strings.ToLower(q.Answer)
			}
			assert.Contains(t, said, "drops", "%s section %d (%s) shows a dropped job", n, i+1, sec.Title)
			assert.Contains(t, said, "foreground", "%s section %d: which jobs are dropped", n, i+1)
		}
	}
}
