package learn

// AdvisoriesKept is how many recent consults a State remembers, to
// attribute the reports that follow them.
const AdvisoriesKept = 8

// An Advisory is a consult remembered for attribution: which advice it
// gave, from where, for which task.
type Advisory struct {
	ID     string
	Cursor string
	Top    string // the first suggestion
	Seq    int64  // the consult's event
	Terms  []string
	// Task is the task's key and Probe says the consult was greedy, a
	// probe of the model's belief rather than advice (the next-step
	// model's, v5).
	Task  string
	Probe bool
	// Observations are the ids of the observations the consult put in
	// its context: the outcome of the action that follows is evidence
	// for or against those about that action's capability.
	Observations []string
}

// A Tally counts weighted outcomes: the successes (a partial counts half)
// of so many outcomes.
type Tally struct {
	Successes, Outcomes float64
}

// Add counts an outcome of success value y and weight w.
func (t *Tally) Add(y, w float64) {
	t.Successes += w * y
	t.Outcomes += w
}

// Rate returns the success rate, and false when there is no outcome.
func (t Tally) Rate() (float64, bool) {
	if t.Outcomes > 0 {
		return t.Successes / t.Outcomes, true
	}
	return 0, false
}

// Remember keeps a consult's advice for attribution, forgetting the oldest
// beyond AdvisoriesKept.
func (s *State) Remember(a Advisory) {
	s.Advisories = append(s.Advisories, a)
	if len(s.Advisories) > AdvisoriesKept {
		s.Advisories = s.Advisories[len(s.Advisories)-AdvisoriesKept:]
	}
}

// Advice returns the index of the advisory a report from cursor follows:
// the one named id, else (id "") the newest when it was given at the
// cursor; -1 for none.
func (s *State) Advice(id, cursor string) int {
	if id != "" {
		found := -1
		for i := range s.Advisories {
			if s.Advisories[i].ID == id {
				found = i
			}
		}
		return found
	}
	if n := len(s.Advisories); n > 0 && s.Advisories[n-1].Cursor == cursor {
		return n - 1
	}
	return -1
}

// Attribute counts a report of action with an outcome of success value y
// and weight w against the advisory at index i: with the reports that
// followed its top suggestion, or with those that did not. It then forgets
// the advisory, so advice is attributed once: the reports after the first
// are steps of the agent's own, unless they name it. It returns the
// advisory and whether the report followed it.
func (s *State) Attribute(i int, action string, y, w float64) (a Advisory, followed bool) {
	a = s.Advisories[i]
	followed = action == a.Top
	if w > 0 {
		if followed {
			s.Followed.Add(y, w)
		} else {
			s.NotFollowed.Add(y, w)
		}
	}
	s.Advisories = append(s.Advisories[:i], s.Advisories[i+1:]...)
	return a, followed
}
