package learn

import (
	"strings"

	"github.com/unified-cognitive-substrate/ucs/outcome"
)

// A Context is what an estimate is conditioned on besides the transition:
// the terms of the task's description, and the capability the agent came
// to the current one from (After, "" when unknown). The terms tell tasks
// apart; After tells apart the positions of one task at the same
// capability: after a fix the tests run again, after the second run the
// change is committed.
type Context struct {
	Terms []string
	After string
}

// A Trail is the last move of the agent a model has been told of: from
// which capability (Prev) to which (At), in which task (Terms). It gives a
// consult its Context's After, and only when the agent is still where the
// move left it, doing the same task.
//
// Moves follow the reports:
//   - a success moves the agent from the cursor to the action;
//   - a failure does not move it (the agent tries again from where it
//     was), though the report moves ucs's cursor to the failed action;
//   - a neutral report (the agent only says where it is) is a move, unless
//     it brings the cursor back to where the last move left the agent
//     after a failure: then the agent never left.
type Trail struct {
	Prev, At string
	Terms    []string
}

// After returns the capability the agent came from, for a consult at the
// cursor in a task with these terms: Prev when the agent is where the
// trail's last move left it and the task is the same, else "".
func (t *Trail) After(cursor string, terms []string) string {
	if t.Prev == "" || cursor != t.At || !SameTask(terms, t.Terms) {
		return ""
	}
	return t.Prev
}

// Move records a report of action from cursor with an outcome (a report's
// success word, as spelled: outcome.Success, Failure, Neutral or Partial)
// in a task with these terms.
func (t *Trail) Move(cursor, action, success string, terms []string) {
	switch s := outcome.Status(success); {
	case s == outcome.Failure:
	case s == outcome.Neutral && cursor != t.At && action == t.At:
	default:
		t.Prev, t.At, t.Terms = cursor, action, terms
	}
}

// SameTask reports whether two contexts' terms describe the same task: at
// least one term shared, and half the terms of the longer one.
func SameTask(a, b []string) bool {
	shared, i, j := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch c := strings.Compare(a[i], b[j]); {
		case c == 0:
			shared++
			i++
			j++
		case c < 0:
			i++
		default:
			j++
		}
	}
	return shared > 0 && 2*shared >= max(len(a), len(b))
}
