package nextstep

// An Episode is one task in progress: what identifies it, where the agent
// is on its trail, and which tools failed in it. It begins at Start.
type Episode struct {
	// Task is the task's identity: an explicit task id, or the exact
	// context; "" when there is none.
	Task string
	// Terms are the context's terms (learn.Terms), sorted and distinct.
	Terms []string
	// Prev is where the agent is (the last call that moved it) and Prev2
	// where it was before; both Start at the beginning.
	Prev, Prev2 string
	failed      map[string]int
	learned     []learned // the calls learned, while Model.End may reweigh them
}

type learned struct {
	keys []string
	to   string
	ok   bool
}

// NewEpisode begins a task at Start.
func NewEpisode(task string, terms []string) *Episode {
	return &Episode{Task: task, Terms: terms, Prev: Start, Prev2: Start, failed: map[string]int{}}
}

// Locate sets where the agent is, for a caller that knows it better than
// the reported outcomes do (a simulator whose reports may lie).
func (ep *Episode) Locate(prev2, prev string) { ep.Prev2, ep.Prev = prev2, prev }

// Failed reports how many times a tool failed in the episode.
func (ep *Episode) Failed(tool string) int { return ep.failed[tool] }

func (ep *Episode) observe(to string, ok, moveOnFailure bool) {
	if !ok {
		ep.failed[to]++
	}
	if ok || moveOnFailure {
		ep.Prev2, ep.Prev = ep.Prev, to
	}
}
