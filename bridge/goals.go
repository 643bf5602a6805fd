package bridge

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// Goals are what the agent works towards (the OpenSentience goal
// lifecycle). A goal is active until its completion criteria are met
// (completed), a failure finds its retry budget spent (failed), or the
// agent or an operator suspends it; a failed goal becomes active again
// only by an explicit retry, a suspended one by resume. A timeout never
// fails a goal. Reports and exec name a goal with goal_id; a goal-directed
// outcome weighs goalWeight times an unattributed one in learning.
//
// The goals live in the state file's "goals" member: every open goal
// (active, suspended or failed), and the most recent closedKept completed
// ones, so a call reads them without scanning a history; the journal holds
// every change.

// Goal states.
const (
	goalActive    = "active"
	goalCompleted = "completed"
	goalFailed    = "failed"
	goalSuspended = "suspended"
)

// goalWeight is how much more a goal-directed outcome teaches.
const goalWeight = 1.5

// closedKept is how many completed goals the state keeps.
const closedKept = 100

// Completion criteria.
const (
	criterionCount     = "count"             // Target successful outcomes
	criterionThreshold = "outcome_threshold" // one success of at least Confidence
)

// A goal is one goal and its progress.
type goal struct {
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
	Last                *goalOutcome
	Note                string // why it was closed, suspended or retried
}

// A goalOutcome is the last outcome attributed to a goal.
type goalOutcome struct {
	Seq        int64
	Action     string
	Status     string
	Confidence float64
}

// goalBook is the state's goals.
type goalBook struct {
	Open   []*goal // in creation order
	Closed []*goal // completed, oldest first, at most closedKept
	// Numbered is the highest goal number given (goal gN is number N);
	// 0 in a book written before goals were numbered, which then counts
	// on from its highest id.
	Numbered int64
}

// goalNumber returns N of a goal id gN.
func goalNumber(id string) (int64, bool) {
	n, err := strconv.ParseInt(strings.TrimPrefix(id, "g"), 10, 64)
	return n, err == nil && strings.HasPrefix(id, "g") && n > 0
}

// highest returns the highest goal number given: the book's count, or
// the highest id it holds (ids were once the number of the event that
// added the goal).
func (gb *goalBook) highest() int64 {
	n := gb.Numbered
	for _, gs := range [][]*goal{gb.Open, gb.Closed} {
		for _, g := range gs {
			if k, ok := goalNumber(g.ID); ok && k > n {
				n = k
			}
		}
	}
	return n
}

func (gb *goalBook) empty() bool { return len(gb.Open) == 0 && len(gb.Closed) == 0 && gb.Numbered == 0 }

// find returns the goal with that id, open or closed, or nil.
func (gb *goalBook) find(id string) *goal {
	for _, g := range gb.Open {
		if g.ID == id {
			return g
		}
	}
	for _, g := range gb.Closed {
		if g.ID == id {
			return g
		}
	}
	return nil
}

// settle moves a completed goal from Open to Closed.
func (gb *goalBook) settle(g *goal) {
	if g.State != goalCompleted {
		return
	}
	if i := slices.Index(gb.Open, g); i >= 0 {
		gb.Open = slices.Delete(gb.Open, i, i+1)
		gb.Closed = append(gb.Closed, g)
		if len(gb.Closed) > closedKept {
			gb.Closed = gb.Closed[len(gb.Closed)-closedKept:]
		}
	}
}

// observe applies an outcome (a report's or exec's classified status and
// confidence) to an active goal and says what changed.
func (g *goal) observe(seq int64, action, status string, confidence float64, now string) string {
	g.Last = &goalOutcome{Seq: seq, Action: action, Status: status, Confidence: confidence}
	switch status {
	case "success":
		g.Successes++
		if g.Criterion == criterionThreshold && confidence >= g.Confidence ||
			g.Criterion == criterionCount && g.Successes >= g.Target {
			g.State, g.Closed, g.Note = goalCompleted, now, "completion criteria met"
			return "completed"
		}
	case "partial":
		g.Partials++
	case "timeout":
		g.Timeouts++ // a timeout never fails a goal
	case "failure":
		g.Failures++
		if g.RetriesLeft == 0 {
			g.State, g.Closed, g.Note = goalFailed, now, "failed with no retry left"
			return "failed"
		}
		g.RetriesLeft--
		return "retry_used"
	}
	return ""
}

// progress is a goal's answer member.
func (g *goal) value() pyjson.Value {
	var last any
	if g.Last != nil {
		last = pyjson.Obj(pyjson.KV("seq", g.Last.Seq), pyjson.KV("action", g.Last.Action),
			pyjson.KV("status", g.Last.Status), pyjson.KV("confidence", round(g.Last.Confidence, 4)))
	}
	criteria := pyjson.Obj(pyjson.KV("type", g.Criterion), pyjson.KV("target", g.Target))
	progress := pyjson.Obj(pyjson.KV("successes", g.Successes), pyjson.KV("of", g.Target))
	if g.Criterion == criterionThreshold {
		criteria = pyjson.Obj(pyjson.KV("type", g.Criterion), pyjson.KV("confidence", g.Confidence))
		best := 0.0
		if g.State == goalCompleted && g.Last != nil {
			best = g.Last.Confidence
		}
		progress = pyjson.Obj(pyjson.KV("met", g.State == goalCompleted), pyjson.KV("confidence", round(best, 4)), pyjson.KV("of", g.Confidence))
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

// appendJSON writes the book as the state's "goals" member: compact, in a
// fixed member order.
func (gb *goalBook) appendJSON(dst []byte) []byte {
	list := func(gs []*goal) pyjson.Value {
		out := make([]pyjson.Value, len(gs))
		for i, g := range gs {
			var last any
			if g.Last != nil {
				last = []pyjson.Value{pyjson.From(g.Last.Seq), pyjson.From(g.Last.Action), pyjson.From(g.Last.Status), pyjson.From(g.Last.Confidence)}
			}
			counts := []pyjson.Value{pyjson.From(g.Successes), pyjson.From(g.Failures), pyjson.From(g.Partials), pyjson.From(g.Timeouts), pyjson.From(g.Retries)}
			out[i] = pyjson.Obj(
				pyjson.KV("id", g.ID), pyjson.KV("content", g.Content), pyjson.KV("parent", g.Parent),
				pyjson.KV("criterion", g.Criterion), pyjson.KV("target", g.Target), pyjson.KV("confidence", g.Confidence),
				pyjson.KV("retry_budget", g.RetryBudget), pyjson.KV("retries_left", g.RetriesLeft),
				pyjson.KV("state", g.State), pyjson.KV("created", g.Created), pyjson.KV("closed", g.Closed),
				pyjson.KV("counts", counts),
				pyjson.KV("last", last), pyjson.KV("note", g.Note),
			)
		}
		return pyjson.ArrayValue(out)
	}
	members := []pyjson.Member{pyjson.KV("closed", list(gb.Closed))}
	if gb.Numbered > 0 { // a book written before goals were numbered keeps its bytes
		members = append(members, pyjson.KV("numbered", gb.Numbered))
	}
	members = append(members, pyjson.KV("open", list(gb.Open)))
	return pyjson.AppendDumps(dst, pyjson.Obj(members...))
}

// decodeGoals reads what appendJSON wrote.
func decodeGoals(raw []byte) (*goalBook, error) {
	if !gjson.ValidBytes(raw) {
		return nil, errors.New("goals: not valid JSON")
	}
	doc := gjson.ParseBytes(raw)
	gb := &goalBook{}
	if n := doc.Get("numbered"); n.Exists() {
		if n.Type != gjson.Number || n.Num < 1 || n.Num != float64(int64(n.Num)) {
			return nil, errors.New("goals.numbered: want a whole number above 0")
		}
		gb.Numbered = int64(n.Num)
	}
	for _, part := range []struct {
		key string
		dst *[]*goal
	}{{"open", &gb.Open}, {"closed", &gb.Closed}} {
		for i, r := range doc.Get(part.key).Array() {
			g, err := decodeGoal(r)
			if err != nil {
				return nil, fmt.Errorf("goals.%s[%d]: %v", part.key, i, err)
			}
			*part.dst = append(*part.dst, g)
		}
	}
	return gb, nil
}

func decodeGoal(r gjson.Result) (*goal, error) {
	str := func(k string) (string, error) {
		x := r.Get(k)
		if x.Type != gjson.String {
			return "", errors.New(k + ": want a string")
		}
		return x.Str, nil
	}
	num := func(k string) (float64, error) {
		x := r.Get(k)
		if x.Type != gjson.Number {
			return 0, errors.New(k + ": want a number")
		}
		return x.Num, nil
	}
	g := &goal{}
	var err error
	for _, f := range []struct {
		k string
		p *string
	}{{"id", &g.ID}, {"content", &g.Content}, {"parent", &g.Parent}, {"criterion", &g.Criterion},
		{"state", &g.State}, {"created", &g.Created}, {"closed", &g.Closed}, {"note", &g.Note}} {
		if *f.p, err = str(f.k); err != nil {
			return nil, err
		}
	}
	var target, budget, left float64
	for _, f := range []struct {
		k string
		p *float64
	}{{"target", &target}, {"confidence", &g.Confidence}, {"retry_budget", &budget}, {"retries_left", &left}} {
		if *f.p, err = num(f.k); err != nil {
			return nil, err
		}
	}
	g.Target, g.RetryBudget, g.RetriesLeft = int64(target), int64(budget), int64(left)
	counts := r.Get("counts").Array()
	if len(counts) != 5 {
		return nil, errors.New("counts: want 5 numbers")
	}
	for i, p := range []*int64{&g.Successes, &g.Failures, &g.Partials, &g.Timeouts, &g.Retries} {
		*p = counts[i].Int()
	}
	if l := r.Get("last"); l.IsArray() {
		a := l.Array()
		if len(a) != 4 {
			return nil, errors.New("last: want [seq, action, status, confidence]")
		}
		g.Last = &goalOutcome{Seq: a[0].Int(), Action: a[1].Str, Status: a[2].Str, Confidence: a[3].Num}
	}
	if !slices.Contains([]string{goalActive, goalCompleted, goalFailed, goalSuspended}, g.State) {
		return nil, fmt.Errorf("state: %q is no goal state", g.State)
	}
	if g.Criterion != criterionCount && g.Criterion != criterionThreshold {
		return nil, fmt.Errorf("criterion: %q is no criterion", g.Criterion)
	}
	return g, nil
}

// goals returns the workspace's goals, decoding them on first use.
func (s *session) goals() (*goalBook, error) {
	if s.goalBook == nil {
		if s.goalsRaw == nil {
			s.goalBook = &goalBook{}
		} else {
			gb, err := decodeGoals(s.goalsRaw)
			if err != nil {
				return nil, corrupt(err, relState)
			}
			s.goalBook = gb
		}
	}
	return s.goalBook, nil
}

// attributeGoal applies a classified outcome to the goal a report or exec
// names, and returns the answer's "goal" member and the learning weight
// factor. A goal that is not active is told, not changed.
func (s *session) attributeGoal(id, action, status string, confidence float64) (pyjson.Value, float64, error) {
	g, err := s.goal(id)
	if err != nil {
		return pyjson.Value{}, 1, err
	}
	if g.State != goalActive {
		s.warn("goal " + id + " is " + g.State + "; the outcome is learned but does not move it")
		return pyjson.Obj(pyjson.KV("id", id), pyjson.KV("state", g.State), pyjson.KV("changed", nil)), goalWeight, nil
	}
	change := g.observe(s.meta.Seq+1, action, status, confidence, isoTime(s.now))
	gb, _ := s.goals()
	gb.settle(g)
	var changed any
	if change != "" {
		changed = change
	}
	return pyjson.Obj(pyjson.KV("id", id), pyjson.KV("state", g.State), pyjson.KV("changed", changed),
		pyjson.KV("retries_left", g.RetriesLeft)), goalWeight, nil
}
