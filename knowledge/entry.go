package knowledge

import (
	"crypto/sha256"
	"encoding/hex"
	"time"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// An Entry is one piece of knowledge: a JSON object such as
//
//	{"date": "2026-11-21", "capabilities": [...], "keywords": [...], "summary": ..., "id": ...}
//
// Fields are read with pyjson.Value's StrOf and the helpers below, which
// treat a missing or mistyped field as empty, as the reference's dict.get
// does.
type Entry = pyjson.Value

// EntryID is the reference's id for an entry: the first 12 hex digits of
// SHA-256 over its stable JSON (pyjson.Canonical).
func EntryID(e Entry) string {
	sum := sha256.Sum256(pyjson.Canonical(e))
	return hex.EncodeToString(sum[:6])
}

// Strings returns a list-of-strings field of e; other items are skipped.
func Strings(e Entry, key string) []string {
	v, _ := e.Get(key)
	var out []string
	for _, it := range v.Items() {
		if it.Kind() == pyjson.String {
			out = append(out, it.Str())
		}
	}
	return out
}

// Decay returns the temporal weight of an entry dated date ("YYYY-MM-DD")
// at now: 1/(1 + rate·age in whole days), or 1 when the date is missing or
// malformed (the reference then leaves the score alone).
func Decay(date string, now time.Time, rate float64) float64 {
	if date == "" || rate <= 0 {
		return 1
	}
	days, ok := DaysSince(now, date)
	if !ok {
		return 1
	}
	return 1.0 / (1.0 + rate*float64(max(days, 0)))
}

// DaysSince returns the whole days from midnight UTC of date (YYYY-MM-DD) to
// now, floored as Python's timedelta.days is, and false for a malformed date.
func DaysSince(now time.Time, date string) (int, bool) {
	d, err := time.Parse("2006-01-02", date)
	if err != nil {
		return 0, false
	}
	age := now.Sub(d)
	days := int(age / (24 * time.Hour))
	if age < 0 && age%(24*time.Hour) != 0 {
		days--
	}
	return days, true
}
