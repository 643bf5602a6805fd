package bridge

import (
	"fmt"
	"io"
	"time"
)

// timings records how long each phase of a call takes, for UCS_TIMINGS=1.
// The zero value records nothing: the hot path pays one nil check a phase.
type timings struct {
	w     io.Writer
	start time.Time
	last  time.Time
	parts []string
}

func newTimings(w io.Writer) *timings {
	if w == nil {
		return nil
	}
	now := time.Now()
	return &timings{w: w, start: now, last: now}
}

// mark ends a phase.
func (t *timings) mark(phase string) {
	if t == nil {
		return
	}
	now := time.Now()
	t.parts = append(t.parts, fmt.Sprintf("%s %.3fms", phase, float64(now.Sub(t.last).Microseconds())/1000))
	t.last = now
}

func (t *timings) done(op string) {
	if t == nil {
		return
	}
	fmt.Fprintf(t.w, "ucs: timings %s: total %.3fms:", op, float64(time.Since(t.start).Microseconds())/1000)
	for _, p := range t.parts {
		fmt.Fprintf(t.w, " %s;", p)
	}
	fmt.Fprintln(t.w)
}
