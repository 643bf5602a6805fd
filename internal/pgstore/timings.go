package pgstore

import (
	"fmt"
	"strings"
	"time"
)

// phases times a call's phases for Options.Timings (UCS_TIMINGS=1): mark
// ends the phase named and starts the next, and done writes one line, the
// connection's time first, labelled as what (e.g. "store"). Without
// Timings both do nothing.
func (s *Store) phases(what string) (mark func(phase string), done func()) {
	if s.opts.Timings == nil {
		return func(string) {}, func() {}
	}
	var marks []string
	last := time.Now()
	mark = func(phase string) {
		marks = append(marks, fmt.Sprintf("%s %.3fms", phase, float64(time.Since(last).Microseconds())/1000))
		last = time.Now()
	}
	done = func() {
		fmt.Fprintf(s.opts.Timings, "ucs: timings %s: connect %.3fms; %s\n", what, float64(s.connected.Microseconds())/1000, strings.Join(marks, "; "))
	}
	return mark, done
}
