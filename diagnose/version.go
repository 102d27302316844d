package diagnose

import "strings"

// Reading the release from the pasted text: a log or a report that names RisingWave's version
// ("RisingWave version: 3.0.2", "v3.0.2", an image "risingwave-v2.8", "risingwave:v2.7.4")
// answers for that release line when none was asked for.

// NamedRelease is a release the text names: the version as written, where, and the release
// line it belongs to ("" when the diagnosis has no facts for that line).
type NamedRelease struct {
	Version string // "3.0.2", "2.8"
	Excerpt string // the words it was read from
	Release string // "v3.0", or ""
	at, end int    // where the excerpt is in the folded text
}

// versionMarks are the words a version follows, in the folded (lower-case) text.
var versionMarks = []string{"risingwave version: ", "risingwave version ", "risingwave-v", "risingwave:v", "risingwave v", "version: v", "version: ", "version v", "version "}

// releaseInText finds the first version the folded text names.
func releaseInText(f string) (NamedRelease, bool) {
	best := -1
	var out NamedRelease
	try := func(at, skip int) {
		v := version(f[at+skip:])
		if v == "" || (best >= 0 && at >= best) {
			return
		}
		best = at
		out = NamedRelease{Version: v, Excerpt: f[at : at+skip+len(v)], Release: lineOf(v), at: at, end: at + skip + len(v)}
	}
	for _, m := range versionMarks {
		if i := strings.Index(f, m); i >= 0 {
			try(i, len(m))
		}
	}
	// a bare "v3.0.2": a v after a space, quote or start, then major.minor.patch
	for off := 0; off < len(f); {
		i := strings.Index(f[off:], "v")
		if i < 0 {
			break
		}
		i += off
		if i == 0 || strings.IndexByte(" \"'=(:[/", f[i-1]) >= 0 {
			if v := version(f[i+1:]); strings.Count(v, ".") == 2 {
				try(i, 1)
			}
		}
		off = i + 1
	}
	return out, best >= 0
}

// version reads "major.minor" or "major.minor.patch" at the start of s.
func version(s string) string {
	n, dots := 0, 0
	for n < len(s) {
		c := s[n]
		switch {
		case c >= '0' && c <= '9':
		case c == '.' && n > 0 && s[n-1] != '.' && dots < 2 && n+1 < len(s) && s[n+1] >= '0' && s[n+1] <= '9':
			dots++
		default:
			goto done
		}
		n++
	}
done:
	if dots == 0 {
		return ""
	}
	return s[:n]
}

// lineOf is the release line of a version ("3.0.2" → "v3.0"), or "" when it is none of Releases.
func lineOf(v string) string {
	parts := strings.SplitN(v, ".", 3)
	name := "v" + parts[0] + "." + parts[1]
	if _, ok := findRelease(name); ok {
		return name
	}
	return ""
}

// releaseFrom decides the release an answer is for, from the one asked for and the text, and
// says why in a sentence ("" when the text names none and none was asked for).
func releaseFrom(asked string, f folded, clean string) (release, why string) {
	named, ok := releaseInText(f.text)
	if ok {
		named.Excerpt = Escape(clean[f.from[named.at] : f.from[named.end-1]+1]) // as written
	}
	switch {
	case !ok:
		return asked, ""
	case asked != "" && named.Release != asked:
		return asked, "The text names RisingWave " + named.Version + " (\"" + named.Excerpt + "\"), but " + asked + " was asked for: this answer is for " + asked + "."
	case asked != "":
		return asked, "The text names RisingWave " + named.Version + " (\"" + named.Excerpt + "\"), of " + asked + ", the release asked for."
	case named.Release == "":
		return "", "The text names RisingWave " + named.Version + " (\"" + named.Excerpt + "\"), a release the diagnosis has no facts for (it knows " + strings.Join(ReleaseNames(), ", ") + "): pick the nearest release to answer for it."
	}
	return named.Release, "Release " + named.Release + " read from the text: it names RisingWave " + named.Version + " (\"" + named.Excerpt + "\")."
}
