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

// isoDate formats t as YYYY-MM-DD (UTC).
func isoDate(t time.Time) string { return t.UTC().Format("2006-01-02") }
