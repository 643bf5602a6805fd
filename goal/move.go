package goal

import (
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// A Move is an explicit transition of a goal's lifecycle, made by the
// agent or an operator (outcomes move goals by Observe).
type Move struct {
	Verb string   // what the operation is called: done, fail, suspend, resume, retry
	From []string // the states it applies to
	To   string
}

// Moves are the explicit transitions, in the order help lists them. Only
// retry leads out of failed, and it restores the whole retry budget.
var Moves = []Move{
	{"done", []string{Active, Suspended}, Completed},
	{"fail", []string{Active, Suspended}, Failed},
	{"suspend", []string{Active}, Suspended},
	{"resume", []string{Suspended}, Active},
	{"retry", []string{Failed}, Active},
}

// Unknown is the error of a goal id that names none.
func Unknown(id string) error {
	return fault.BadInput(fault.CodeUnknownGoal, "list the goals with: ucs goal list", "there is no goal %s", string(pyjson.AppendString(nil, id)))
}

// Goal returns the goal with that id, open or closed, or an unknown_goal
// error.
func (gb *Book) Goal(id string) (*Goal, error) {
	if g := gb.Find(id); g != nil {
		return g, nil
	}
	return nil, Unknown(id)
}

// Move makes m on the goal of that id at the time now, keeping note as
// why, and returns the goal and its state before. A goal in a state m
// does not apply to is refused (invalid_state) and left as it was.
func (gb *Book) Move(id string, m Move, note, now string) (g *Goal, from string, err error) {
	if g, err = gb.Goal(id); err != nil {
		return nil, "", err
	}
	allowed := false
	for _, st := range m.From {
		allowed = allowed || g.State == st
	}
	if !allowed {
		return nil, "", fault.BadInput(fault.CodeInvalidState, "see its state with: ucs goal show "+g.ID,
			"goal %s is %s; %s applies to a goal that is %s", g.ID, g.State, m.Verb, joinOr(m.From))
	}
	from = g.State
	g.State, g.Note = m.To, note
	switch m.To {
	case Completed, Failed:
		g.Closed = now
	case Active:
		g.Closed = ""
	}
	if m.Verb == "retry" {
		g.Retries++
		g.RetriesLeft = g.RetryBudget
	}
	gb.Settle(g)
	return g, from, nil
}

// joinOr lists states as a sentence does: "a", "a or b", "a, b or c".
func joinOr(xs []string) string {
	switch len(xs) {
	case 0:
		return ""
	case 1:
		return xs[0]
	}
	out := xs[0]
	for _, x := range xs[1 : len(xs)-1] {
		out += ", " + x
	}
	return out + " or " + xs[len(xs)-1]
}
