package nextstep

import "math"

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
	// The last ranking's two predictions of the agent's call (Params.Hedge):
	// with the frequencies and without, each normalised over its candidates.
	qf, qs map[string]float64
}

// remember keeps the last ranking's predictions: softmax over the
// candidates of log pT + λ·log S (with the frequencies) and of λ·log S.
func (ep *Episode) remember(cands []string, logT, logS []float64, lambda float64) {
	ep.qf, ep.qs = map[string]float64{}, map[string]float64{}
	softmax := func(dst map[string]float64, x func(i int) float64) {
		hi := math.Inf(-1)
		for i := range cands {
			hi = max(hi, x(i))
		}
		sum := 0.0
		for i, c := range cands {
			dst[c] = math.Exp(x(i) - hi)
			sum += dst[c]
		}
		for c := range dst {
			dst[c] /= sum
		}
	}
	softmax(ep.qf, func(i int) float64 { return logT[i] + lambda*logS[i] })
	softmax(ep.qs, func(i int) float64 { return lambda * logS[i] })
}

func (ep *Episode) predicted(to string) (qf, qs float64, ok bool) {
	qf, okf := ep.qf[to]
	qs, oks := ep.qs[to]
	return qf, qs, okf && oks && qf+qs > 0
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
