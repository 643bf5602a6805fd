package dashboard

import (
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn"
)

// What show lists at most.
const (
	ShowTransitions  = 15 // learned transitions, most evidence first
	ShowTasks        = 8  // tasks' chains, the newest first
	ShowObservations = 10 // observations due for revalidation
)

// Show is show's answer, gathered by GatherShow: what ShowTable lays out
// for people.
type Show struct {
	Model  string
	T      int
	Cursor string
	Tasks  []pyjson.Value // each recent task's chain
	// Transitions are the learned transitions shown (LearnedFirst), of
	// TransitionsTotal.
	Transitions      []pyjson.Value
	TransitionsTotal int
	// Context is the task asked about ("" for none), and Suggestions
	// consult's paths for it.
	Context     string
	Suggestions pyjson.Value
	Goals       pyjson.Value // the active goals
	Precision   any          // the advisory precision, as status gives it (nil for v2)
	Due         []pyjson.Value
	DueTotal    int
}

// LearnedFirst is the first n of the transitions of ts learned from at
// least some evidence, the best evidenced first, each as value gives it,
// and how many were learned.
func LearnedFirst(ts []*learn.Transition, n int, value func(*learn.Transition) pyjson.Value) ([]pyjson.Value, int) {
	out := []pyjson.Value{}
	total := 0
	for _, t := range learn.ByEvidence(ts) {
		if t.N <= 0 {
			continue
		}
		if total++; len(out) < n {
			out = append(out, value(t))
		}
	}
	return out, total
}

// Value is show's answer, in its members' order.
func (sh *Show) Value() pyjson.Value {
	out := []pyjson.Member{
		pyjson.KV("model", sh.Model),
		pyjson.KV("t", sh.T),
		pyjson.KV("cursor", sh.Cursor),
		pyjson.KV("tasks", sh.Tasks),
		pyjson.KV("transitions", sh.Transitions),
		pyjson.KV("transitions_total", sh.TransitionsTotal),
	}
	if sh.Context != "" {
		out = append(out, pyjson.KV("context", sh.Context), pyjson.KV("suggestions", sh.Suggestions))
	}
	return pyjson.ObjectValue(append(out,
		pyjson.KV("goals", sh.Goals),
		pyjson.KV("advisory_precision", sh.Precision),
		pyjson.KV("observations_due", sh.Due),
		pyjson.KV("observations_due_count", sh.DueTotal)))
}
