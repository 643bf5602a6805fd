package history

import (
	"strconv"
	"strings"
	"time"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// ParseSince reads a period's start: a date, an RFC 3339 time, or a span
// back from now (a Go duration, or a number of days: 7d).
func ParseSince(v string, now time.Time) (time.Time, error) {
	if t, err := time.Parse("2006-01-02", v); err == nil {
		return t.UTC(), nil
	}
	if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
		return t.UTC(), nil
	}
	if days, ok := strings.CutSuffix(v, "d"); ok {
		if n, err := strconv.Atoi(days); err == nil && n >= 0 {
			return now.AddDate(0, 0, -n), nil
		}
	}
	if d, err := time.ParseDuration(v); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	return time.Time{}, fault.BadInput(fault.CodeInvalidValue, "give a date (2026-11-01), an RFC 3339 time, or a span such as 7d or 36h",
		"--since %q is neither a date, a time nor a span", v)
}

// PeriodStart is where a synthesis's period starts when it does not start
// at the last synthesis: since (ParseSince), or for "" today at 00:00:00,
// keeping the sub-second part as the reference's datetime.replace(hour=0,
// minute=0, second=0) does.
func PeriodStart(since string, now time.Time) (time.Time, error) {
	if since != "" {
		return ParseSince(since, now)
	}
	y, mo, d := now.Date()
	return time.Date(y, mo, d, 0, 0, 0, now.Nanosecond(), time.UTC), nil
}

// Since is where synthesize's period starts: at since when given
// (PeriodStart, as an ISO time), else at the last synthesis (a date), or
// when none ran today.
func Since(since, lastSynthesis string, now time.Time) (string, error) {
	if since == "" && lastSynthesis != "" {
		return lastSynthesis, nil
	}
	t, err := PeriodStart(since, now)
	if err != nil {
		return "", err
	}
	return pyjson.ISOTime(t), nil
}

// InPeriod keeps the action-log lines stamped at or after since (both
// ISO times, compared as text as the reference does).
func InPeriod(lines []pyjson.Value, since string) []pyjson.Value {
	var out []pyjson.Value
	for _, a := range lines {
		if a.StrOf("timestamp") >= since {
			out = append(out, a)
		}
	}
	return out
}
