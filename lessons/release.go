package lessons

import "github.com/backfill-explainer/explainer/session"

// Releases are the RisingWave releases a section may name (docs/scenario-format.md, "Releases"):
// v2.7 (v2.7.0–v2.7.4), v2.8 (v2.8.0–v2.8.5), v3.0 (v3.0.0–v3.0.3) and v3.1 (the release-3.1
// branch, the default). The list is ours until the engine carries its own; then it is the
// engine's, and playRelease sets the release on the session.
var Releases = []string{"v2.7", "v2.8", "v3.0", "v3.1"}

// playRelease runs a section's session as the named release. The engine models the v3.1
// executor only so far: the name is checked, the run stays v3.1's (the seam for release
// profiles: set the session's release here once the engine has them).
func playRelease(_ *session.Session, _ string) error { return nil }

// ReleasePlayed reports whether the engine plays a section's release as named ("" is the
// default, v3.1); when it does not, the plan says the run is v3.1's.
func ReleasePlayed(name string) bool { return name == "" || name == "v3.1" }
