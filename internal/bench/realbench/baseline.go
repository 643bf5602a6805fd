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
// and succeeded. Keys are made of the episode's previous calls (whatever
// their outcome: the agent made them; StartTool before the first) and, for
// markov1-task, the task id. It ranks every tool of the dataset by its
// count under its own key, most first; ties go to the count under the
// next shorter key (markov2 and markov1-task: the previous tool's; markov1:
// none), then to the tool's successful calls in the whole stream so far,
// then to the name. So a key never seen before backs off to what the
// shorter tables know, and the order is total and deterministic.
type markov struct {
	name   string
	tools  []string
	orders []func(task int, hist []string) string // own key first, then the back-offs
	counts map[string]map[string]int              // key → tool → successful calls
}

func prev(hist []string, back int) string {
	if len(hist) >= back {
		return hist[len(hist)-back]
	}
	return StartTool
}

// The keys, each with a prefix of its own so the tables share one map.
func key0(int, []string) string        { return "0" }
func key1(_ int, hist []string) string { return "1\x00" + prev(hist, 1) }
func key2(_ int, hist []string) string { return "2\x00" + prev(hist, 2) + "\x00" + prev(hist, 1) }
func keyT(task int, hist []string) string {
	return "t\x00" + strconv.Itoa(task) + "\x00" + prev(hist, 1)
}

func newMarkov(name string, tools []string) (*markov, bool) {
	m := &markov{name: name, tools: tools, counts: map[string]map[string]int{}}
	switch name {
	case Markov1:
		m.orders = []func(int, []string) string{key1, key0}
	case Markov2:
		m.orders = []func(int, []string) string{key2, key1, key0}
	case Markov1Task:
		m.orders = []func(int, []string) string{keyT, key1, key0}
	default:
		return nil, false
	}
	return m, true
}

// rank returns every tool, best first.
func (m *markov) rank(task int, hist []string) []string {
	tables := make([]map[string]int, len(m.orders))
	for i, k := range m.orders {
		tables[i] = m.counts[k(task, hist)]
	}
	out := slices.Clone(m.tools)
	slices.SortStableFunc(out, func(a, b string) int {
		for _, c := range tables {
			if d := cmp.Compare(c[b], c[a]); d != 0 {
				return d
			}
		}
		return cmp.Compare(a, b)
	})
	return out
}

// learn counts the call tool after hist, in every table, when it
// succeeded.
func (m *markov) learn(task int, hist []string, tool string, ok bool) {
	if !ok {
		return
	}
	for _, key := range m.orders {
		k := key(task, hist)
		if m.counts[k] == nil {
			m.counts[k] = map[string]int{}
		}
		m.counts[k][tool]++
	}
}
