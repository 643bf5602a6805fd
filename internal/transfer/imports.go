package transfer

import "github.com/unified-cognitive-substrate/ucs/internal/pyjson"

// ImportsKept is how many imported packages' digests a workspace
// remembers.
const ImportsKept = 100

// Seen reports whether digest is among those the state's imports member
// (raw, a JSON list; nil when there is none) remembers.
func Seen(raw []byte, digest string) bool {
	if raw == nil {
		return false
	}
	v, err := pyjson.Parse(raw)
	if err != nil {
		return false
	}
	for _, it := range v.Items() {
		if it.Str() == digest {
			return true
		}
	}
	return false
}

// Remember reports whether digest is among those raw remembers, and when
// it is not returns the member with it added (the oldest forgotten past
// ImportsKept); when it is, raw unchanged.
func Remember(raw []byte, digest string) ([]byte, bool) {
	var seen []string
	if raw != nil {
		v, err := pyjson.Parse(raw)
		if err == nil {
			for _, it := range v.Items() {
				seen = append(seen, it.Str())
			}
		}
	}
	for _, d := range seen {
		if d == digest {
			return raw, true
		}
	}
	seen = append(seen, digest)
	if len(seen) > ImportsKept {
		seen = seen[len(seen)-ImportsKept:]
	}
	return pyjson.AppendCompact(nil, pyjson.From(seen)), false
}
