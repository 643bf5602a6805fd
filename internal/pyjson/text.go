package pyjson

import "time"

// Quote is s as a JSON string literal (AppendString): how an answer's
// sentences and warnings name a value the caller gave, so an odd name
// (a quote, a newline) reads unambiguously.
func Quote(s string) string { return string(AppendString(nil, s)) }

// ISOTime is t as Python's datetime.isoformat() writes an aware UTC time
// (microseconds only when non-zero, and "+00:00"): how the reference, and
// so every answer and record of ucs, writes a time.
func ISOTime(t time.Time) string {
	t = t.UTC()
	if t.Nanosecond()/1000 == 0 {
		return t.Format("2006-01-02T15:04:05") + "+00:00"
	}
	return t.Format("2006-01-02T15:04:05.000000") + "+00:00"
}
