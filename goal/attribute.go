package goal

import "github.com/unified-cognitive-substrate/ucs/internal/pyjson"

// Add puts a new goal g in the book, refusing one whose parent names no
// goal (unknown_goal).
func (gb *Book) Add(g *Goal) error {
	if g.Parent != "" && gb.Find(g.Parent) == nil {
		return Unknown(g.Parent)
	}
	gb.Open = append(gb.Open, g)
	return nil
}

// Replayed is the id a replayed goal add gives: the id its event
// recorded, which the next id counts on from; for an event written before
// ids were recorded (ucs then numbered a goal by the event that added
// it), the number of that event, seq.
func (gb *Book) Replayed(recorded string, seq int64) string {
	if recorded == "" {
		return ID(seq)
	}
	gb.Given(recorded)
	return recorded
}

// Active lists the active goals as answers show them (Goal.Value):
// resume's and status's summary of what the agent works towards.
func (gb *Book) Active() pyjson.Value {
	out := []pyjson.Value{}
	for _, g := range gb.Open {
		if g.State == Active {
			out = append(out, g.Value())
		}
	}
	return pyjson.ArrayValue(out)
}

// Attribute applies a classified outcome of the event seq, at the time
// now, to the goal of that id (Observe), and returns the answer's "goal"
// member. A goal that is not active is told, not changed: warning then
// says so, for the answer's warnings.
func (gb *Book) Attribute(id string, seq int64, action, status string, confidence float64, now string) (answer pyjson.Value, warning string, err error) {
	g, err := gb.Goal(id)
	if err != nil {
		return pyjson.Value{}, "", err
	}
	if g.State != Active {
		return pyjson.Obj(pyjson.KV("id", id), pyjson.KV("state", g.State), pyjson.KV("changed", nil)),
			"goal " + id + " is " + g.State + "; the outcome is learned but does not move it", nil
	}
	change := g.Observe(seq, action, status, confidence, now)
	gb.Settle(g)
	var changed any
	if change != "" {
		changed = change
	}
	return pyjson.Obj(pyjson.KV("id", id), pyjson.KV("state", g.State), pyjson.KV("changed", changed),
		pyjson.KV("retries_left", g.RetriesLeft)), "", nil
}

// List lists the goals in a state as answers show them (Goal.Value), open
// ones first: "open" for every goal not completed, "all" for every goal.
func (gb *Book) List(state string) []pyjson.Value {
	out := []pyjson.Value{}
	for _, g := range gb.All() {
		if state == "all" || state == "open" && g.State != Completed || state == g.State {
			out = append(out, g.Value())
		}
	}
	return out
}

// Create makes the goal a goal add asks for (New), created at the time
// created, and returns it with the id it was given: when the call is a
// replay, the id its event recorded (Replayed, seq the event's number),
// else the next (NextID).
func (gb *Book) Create(r Request, replay bool, recorded string, seq int64, created string) (*Goal, error) {
	var id string
	if replay {
		id = gb.Replayed(recorded, seq)
	} else {
		id = gb.NextID()
	}
	return gb.New(id, r, created)
}
