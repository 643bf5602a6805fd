package bridge

import (
	"fmt"
	"time"
)

// ParseNow parses a UCS_NOW value: RFC 3339, with or without fractional
// seconds.
func ParseNow(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("UCS_NOW %q is not an RFC 3339 time such as 2026-11-21T21:01:00Z", s)
	}
	return t.UTC(), nil
}

// isoTime formats t as Python's datetime.isoformat() does for an aware UTC
// time: microseconds only when non-zero, and "+00:00".
func isoTime(t time.Time) string {
	t = t.UTC()
	if t.Nanosecond()/1000 == 0 {
		return t.Format("2006-01-02T15:04:05") + "+00:00"
	}
	return t.Format("2006-01-02T15:04:05.000000") + "+00:00"
}

// isoDate formats t as YYYY-MM-DD (UTC).
func isoDate(t time.Time) string { return t.UTC().Format("2006-01-02") }
