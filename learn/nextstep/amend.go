package nextstep

// Amending what was learned of a past call: a verdict that arrives later
// (a rating) or a correction of what the call was (an amendment). The
// episode given is the call's state as it was then (Episode.State,
// RestoreState).

// Judge teaches the success model a later verdict y, weighed w, on the
// call to made in the episode's state: evidence about the step's success,
// not about what the agent chose (the counts are unchanged).
func (m *Model) Judge(ep *Episode, to string, y, w float64) {
	if m.P.Logistic {
		m.learnSuccess(ep, to, y, w)
	}
}

// Retract takes a call the counts learned back out of them: its whole
// outcome, and its weight (as far as what is left allows: old evidence
// has faded since).
func (m *Model) Retract(ep *Episode, to string, ok bool) {
	keys := []string{keyAll(), keyPrev(ep.Prev)}
	for _, f := range m.features(ep) {
		keys = append(keys, f.key)
	}
	for _, k := range keys {
		c := m.table(k)
		if c == nil || c.To[to] == nil {
			continue
		}
		o := c.To[to]
		s, f := c.outcome(to, m.P.Decay)
		o.S, o.F, o.U = s, f, c.U
		if ok && o.NS > 0 {
			o.NS--
			o.S = max(0, o.S-1)
			c.M--
			c.N = max(0, c.N-1)
		} else if !ok && o.NF > 0 {
			o.NF--
			o.F = max(0, o.F-1)
		}
		c.touch(to)
		m.touch(k)
	}
}

// Count adds a call to the counts as Observe would for the agent's own
// choice, without moving the episode or teaching the success model.
func (m *Model) Count(ep *Episode, to string, ok bool) {
	keys := []string{keyAll(), keyPrev(ep.Prev)}
	for _, f := range m.features(ep) {
		keys = append(keys, f.key)
	}
	m.add(keys, to, ok)
}

// State returns what identifies the episode's current state for a later
// amendment: the task, Prev2 and Prev.
func (ep *Episode) State() [3]string { return [3]string{ep.Task, ep.Prev2, ep.Prev} }

// RestoreState returns an episode in a state State returned, with the
// terms of its context.
func RestoreState(st [3]string, terms []string) *Episode {
	ep := NewEpisode(st[0], terms)
	ep.Prev2, ep.Prev = st[1], st[2]
	if tool, failed := FailedState(st[2]); !failed {
		ep.At = tool
	}
	return ep
}
