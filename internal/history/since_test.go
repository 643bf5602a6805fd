package history

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// A period's start is a date, an RFC 3339 time or a span back from now;
// anything else is bad input.
func TestParseSince(t *testing.T) {
	now := time.Date(2026, 11, 21, 21, 1, 0, 0, time.UTC)
	for _, tc := range []struct {
		in   string
		want time.Time
		bad  bool
	}{
		{in: "2026-11-01", want: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)},
		{in: "2026-11-01T10:00:00+02:00", want: time.Date(2026, 11, 1, 8, 0, 0, 0, time.UTC)},
		{in: "2026-11-01T10:00:00.5Z", want: time.Date(2026, 11, 1, 10, 0, 0, 5e8, time.UTC)},
		{in: "7d", want: now.AddDate(0, 0, -7)},
		{in: "0d", want: now},
		{in: "36h", want: now.Add(-36 * time.Hour)},
		{in: "-1d", bad: true},
		{in: "-2h", bad: true},
		{in: "yesterday", bad: true},
		{in: "", bad: true},
	} {
		got, err := ParseSince(tc.in, now)
		if tc.bad {
			var fe *fault.Error
			require.True(t, errors.As(err, &fe), "%q", tc.in)
			assert.Equal(t, fault.CodeInvalidValue, fe.Code, "%q", tc.in)
			continue
		}
		require.NoError(t, err, "%q", tc.in)
		assert.Equal(t, tc.want, got, "%q", tc.in)
	}
}

// Without a since, a period starts today at midnight and keeps the clock's
// sub-second part, as the reference's datetime.replace does.
func TestPeriodStart(t *testing.T) {
	now := time.Date(2026, 11, 21, 21, 1, 2, 345678000, time.UTC)
	for _, tc := range []struct {
		since string
		want  time.Time
	}{
		{"", time.Date(2026, 11, 21, 0, 0, 0, 345678000, time.UTC)},
		{"2026-11-01", time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)},
		{"1d", now.AddDate(0, 0, -1)},
	} {
		got, err := PeriodStart(tc.since, now)
		require.NoError(t, err, tc.since)
		assert.Equal(t, tc.want, got, tc.since)
	}
	_, err := PeriodStart("soon", now)
	assert.Error(t, err)
}

// synthesize's period starts at the start given, else at the last
// synthesis, else today; a start it cannot read is bad input.
func TestSince(t *testing.T) {
	now := time.Date(2026, 11, 21, 21, 1, 0, 500, time.UTC)
	for _, tc := range []struct {
		since, last, want string
	}{
		{"", "2026-11-01", "2026-11-01"},
		{"", "", pyjson.ISOTime(time.Date(2026, 11, 21, 0, 0, 0, 500, time.UTC))},
		{"2026-11-10", "2026-11-01", pyjson.ISOTime(time.Date(2026, 11, 10, 0, 0, 0, 0, time.UTC))},
		{"1d", "", pyjson.ISOTime(now.AddDate(0, 0, -1))},
	} {
		got, err := Since(tc.since, tc.last, now)
		require.NoError(t, err, "%q %q", tc.since, tc.last)
		assert.Equal(t, tc.want, got, "%q %q", tc.since, tc.last)
	}
	_, err := Since("soon", "2026-11-01", now)
	assert.Error(t, err)
}
