package nextstep

import "math"

// Evidence is what the ranking of one next step rests on, in whole counts,
// for an explanation people read.
type Evidence struct {
	// Level says where Next and Of were counted: "task" (this task, in
	// this state), "term" (tasks whose context says Term, in this state),
	// "state" (this state, any task), "any" (every state) or "" (nowhere
	// yet).
	Level string
	// Term is the context's word whose tasks took the step most
	// consistently here, when Level is "term".
	Term string
	// Next is how many of the agent's Of next successful calls there were
	// to the step.
	Next, Of int64
	// Successes and Failures are the step's whole outcomes in this state
	// (any task), or in every state when it has none here.
	Successes, Failures int64
	// Anywhere says Successes and Failures were counted in every state.
	Anywhere bool
	// P is the success model's probability that the step succeeds, and SD
	// the standard deviation of its log-odds.
	P, SD float64
}

// Explain returns the evidence behind the ranking of step to in the
// episode's current state.
func (m *Model) Explain(ep *Episode, to string) Evidence {
	var ev Evidence
	levels := []struct {
		name string
		key  string
	}{{"state", keyPrev(ep.Prev)}, {"any", keyAll()}}
	if ep.Task != "" && m.P.Task > 0 {
		levels = append([]struct {
			name string
			key  string
		}{{"task", keyTask(ep.Task, ep.Prev)}}, levels...)
	}
	for i, l := range levels {
		if i == len(levels)-2 && m.explainTerm(ep, to, &ev) {
			break // before the state: what tasks like this one did
		}
		if c := m.table(l.key); c != nil && c.M > 0 {
			ev.Level, ev.Of = l.name, c.M
			if o := c.To[to]; o != nil {
				ev.Next = o.NS
			}
			break
		}
	}
	if c := m.table(keyPrev(ep.Prev)); c != nil && c.To[to] != nil {
		ev.Successes, ev.Failures = c.To[to].NS, c.To[to].NF
	} else if c := m.table(keyAll()); c != nil && c.To[to] != nil {
		ev.Successes, ev.Failures, ev.Anywhere = c.To[to].NS, c.To[to].NF, true
	}
	if m.P.Logistic {
		z, sd := m.logit(ep, to)
		ev.P, ev.SD = 1/(1+math.Exp(-z)), sd
	} else {
		ev.P = float64(ev.Successes+1) / float64(ev.Successes+ev.Failures+2)
	}
	return ev
}

// Successors returns the outcomes of the agent's own calls from where it
// last succeeded at the capability at (a failed call in between or not),
// by step, in the order of their names: what the model learned of where
// one can go from there.
func (m *Model) Successors(at string) []Count {
	c := m.table(keyPrev(at))
	if c == nil {
		return nil
	}
	var out []Count
	for _, to := range sortedKeys(c.To) {
		if o := c.To[to]; o.NS > 0 || o.NF > 0 {
			out = append(out, Count{To: to, Successes: o.NS, Failures: o.NF, Weight: m.tries(c, to)})
		}
	}
	return out
}

// A Count is a step's whole outcomes from a state, and their weight after
// old evidence faded (Params.Decay).
type Count struct {
	To                  string
	Successes, Failures int64
	Weight              float64
}

// Next returns the episode as it would be after a successful call to to,
// without its context's terms: for a look along a chain of steps that
// reads a few keys per step.
func (ep *Episode) Next(to string) *Episode {
	n := NewEpisode(ep.Task, nil)
	n.Prev2, n.Prev, n.At = ep.Prev, to, to
	return n
}

// Outcomes returns a step's whole outcomes in every state: how often the
// agent's own calls to it succeeded and failed.
func (m *Model) Outcomes(to string) (successes, failures int64) {
	if c := m.table(keyAll()); c != nil && c.To[to] != nil {
		return c.To[to].NS, c.To[to].NF
	}
	return 0, 0
}

// explainTerm finds, among the words of the episode's context, the one
// whose tasks took the step here most consistently (the largest share of
// their next successful calls, smoothed, then the most of them, then the
// context's order), and counts Next and Of there. It is why the terms' experts rank
// a step first for a kind of task when the state's counts, pooled over
// every task, would not.
func (m *Model) explainTerm(ep *Episode, to string, ev *Evidence) bool {
	if m.P.Term <= 0 {
		return false
	}
	found := false
	for _, t := range ep.Terms {
		c := m.table(keyTerm(t, ep.Prev))
		if c == nil || c.M <= 0 || c.To[to] == nil || c.To[to].NS <= 0 {
			continue
		}
		next := c.To[to].NS
		// The share smoothed as (next+1)/(M+2), so one call of a rare word
		// does not outweigh nine of twelve: compared crosswise, in whole
		// numbers.
		if better := (next+1)*(ev.Of+2) - (ev.Next+1)*(c.M+2); !found || better > 0 || better == 0 && next > ev.Next {
			ev.Level, ev.Term, ev.Next, ev.Of = "term", t, next, c.M
			found = true
		}
	}
	return found
}
