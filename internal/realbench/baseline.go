package realbench

import (
	"cmp"
	"slices"
	"strconv"
)

// The baselines: counting tables of the successful next tool, keyed on
// what came before it in the episode.
const (
	Markov1     = "markov1"      // the previous tool (AutoTool's first-order inertia graph)
	Markov2     = "markov2"      // the previous two tools
	Markov1Task = "markov1-task" // the task id and the previous tool
)

// Baselines lists every baseline, in the order results show them.
var Baselines = []string{Markov1, Markov2, Markov1Task}

// A markov baseline counts, per key, how often each tool was the next call
// and succeeded. The key is made of the episode's previous calls (whatever
// their outcome: the agent called them; StartTool before the first) and,
// for markov1-task, the task id. It ranks every tool of the dataset by its
// count under the current key, most first; ties (among them every tool
// never seen under the key) go by name, so a key never seen ranks the
// tools alphabetically. There is no back-off to a shorter key: each table
// is what it says.
type markov struct {
	name   string
	tools  []string
	counts map[string]map[string]int
}

func newMarkov(name string, tools []string) (*markov, bool) {
	if !slices.Contains(Baselines, name) {
		return nil, false
	}
	return &markov{name: name, tools: tools, counts: map[string]map[string]int{}}, true
}

// key is the table's key before the next call: hist is the episode's
// calls so far.
func (m *markov) key(task int, hist []string) string {
	prev := func(back int) string {
		if len(hist) >= back {
			return hist[len(hist)-back]
		}
		return StartTool
	}
	switch m.name {
	case Markov2:
		return prev(2) + "\x00" + prev(1)
	case Markov1Task:
		return strconv.Itoa(task) + "\x00" + prev(1)
	}
	return prev(1)
}

// rank returns every tool, best first.
func (m *markov) rank(task int, hist []string) []string {
	c := m.counts[m.key(task, hist)]
	out := slices.Clone(m.tools)
	slices.SortStableFunc(out, func(a, b string) int {
		return cmp.Or(cmp.Compare(c[b], c[a]), cmp.Compare(a, b))
	})
	return out
}

// learn counts the call tool after hist when it succeeded.
func (m *markov) learn(task int, hist []string, tool string, ok bool) {
	if !ok {
		return
	}
	k := m.key(task, hist)
	if m.counts[k] == nil {
		m.counts[k] = map[string]int{}
	}
	m.counts[k][tool]++
}
