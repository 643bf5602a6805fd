package goal

import (
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/outcome"
)

// Goal states.
const (
	Active    = "active"
	Completed = "completed"
	Failed    = "failed"
	Suspended = "suspended"
)

// Weight is how much more a goal-directed outcome teaches.
const Weight = 1.5

// Completion criteria.
const (
	CriterionCount     = "count"             // Target successful outcomes
	CriterionThreshold = "outcome_threshold" // one success of at least Confidence
)

// A Goal is one goal and its progress.
type Goal struct {
	ID, Content, Parent string
	Criterion           string
	Target              int64   // count: successes needed
	Confidence          float64 // outcome_threshold: the confidence a success needs
	RetryBudget         int64   // failures tolerated before the goal fails
	RetriesLeft         int64
	State               string
	Created, Closed     string // times (RFC 3339); Closed "" while open
	Successes, Failures int64
	Partials, Timeouts  int64
	Retries             int64 // explicit retries so far
	Last                *Outcome
	Note                string // why it was closed, suspended or retried
}

// An Outcome is the last outcome attributed to a goal.
type Outcome struct {
	Seq        int64
	Action     string
	Status     string
	Confidence float64
}

// Observe applies an outcome (a report's or exec's classified status and
// confidence, in the event seq, at the time now) to an active goal and
// says what changed: "completed", "failed", "retry_used" or "".
func (g *Goal) Observe(seq int64, action, status string, confidence float64, now string) string {
	g.Last = &Outcome{Seq: seq, Action: action, Status: status, Confidence: confidence}
	switch outcome.Status(status) {
	case outcome.Success:
		g.Successes++
		if g.Criterion == CriterionThreshold && confidence >= g.Confidence ||
			g.Criterion == CriterionCount && g.Successes >= g.Target {
			g.State, g.Closed, g.Note = Completed, now, "completion criteria met"
			return "completed"
		}
	case outcome.Partial:
		g.Partials++
	case outcome.Timeout:
		g.Timeouts++ // a timeout never fails a goal
	case outcome.Failure:
		g.Failures++
		if g.RetriesLeft == 0 {
			g.State, g.Closed, g.Note = Failed, now, "failed with no retry left"
			return "failed"
		}
		g.RetriesLeft--
		return "retry_used"
	}
	return ""
}

// Value is the goal as an answer shows it: its criteria, progress towards
// completion, retries and last outcome.
func (g *Goal) Value() pyjson.Value {
	var last any
	if g.Last != nil {
		last = pyjson.Obj(pyjson.KV("seq", g.Last.Seq), pyjson.KV("action", g.Last.Action),
			pyjson.KV("status", g.Last.Status), pyjson.KV("confidence", pyjson.Round(g.Last.Confidence, 4)))
	}
	criteria := pyjson.Obj(pyjson.KV("type", g.Criterion), pyjson.KV("target", g.Target))
	progress := pyjson.Obj(pyjson.KV("successes", g.Successes), pyjson.KV("of", g.Target))
	if g.Criterion == CriterionThreshold {
		criteria = pyjson.Obj(pyjson.KV("type", g.Criterion), pyjson.KV("confidence", g.Confidence))
		best := 0.0
		if g.State == Completed && g.Last != nil {
			best = g.Last.Confidence
		}
		progress = pyjson.Obj(pyjson.KV("met", g.State == Completed), pyjson.KV("confidence", pyjson.Round(best, 4)), pyjson.KV("of", g.Confidence))
	}
	var parent, closed, note any
	if g.Parent != "" {
		parent = g.Parent
	}
	if g.Closed != "" {
		closed = g.Closed
	}
	if g.Note != "" {
		note = g.Note
	}
	return pyjson.Obj(
		pyjson.KV("id", g.ID),
		pyjson.KV("content", g.Content),
		pyjson.KV("state", g.State),
		pyjson.KV("parent", parent),
		pyjson.KV("criteria", criteria),
		pyjson.KV("progress", progress),
		pyjson.KV("retry_budget", g.RetryBudget),
		pyjson.KV("retries_left", g.RetriesLeft),
		pyjson.KV("retries", g.Retries),
		pyjson.KV("outcomes", pyjson.Obj(pyjson.KV("successes", g.Successes), pyjson.KV("failures", g.Failures),
			pyjson.KV("partials", g.Partials), pyjson.KV("timeouts", g.Timeouts))),
		pyjson.KV("last_outcome", last),
		pyjson.KV("created", g.Created),
		pyjson.KV("closed", closed),
		pyjson.KV("note", note),
	)
}
