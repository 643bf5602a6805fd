package pyjson

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestQuote(t *testing.T) {
	assert.Equal(t, `"a\"b\n"`, Quote("a\"b\n"))
	assert.Equal(t, `"é"`, Quote("é"))
}

// ISOTime writes a time as Python's datetime.isoformat() writes an aware
// UTC one: microseconds only when there are any, any zone turned to UTC.
func TestISOTime(t *testing.T) {
	for _, tc := range []struct {
		t    time.Time
		want string
	}{
		{time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC), "2026-11-27T12:00:00+00:00"},
		{time.Date(2026, 11, 27, 12, 0, 0, 1500, time.UTC), "2026-11-27T12:00:00.000001+00:00"},
		{time.Date(2026, 11, 27, 12, 0, 0, 999, time.UTC), "2026-11-27T12:00:00+00:00"},
		{time.Date(2026, 11, 27, 13, 0, 0, 0, time.FixedZone("CET", 3600)), "2026-11-27T12:00:00+00:00"},
	} {
		assert.Equal(t, tc.want, ISOTime(tc.t))
	}
}
