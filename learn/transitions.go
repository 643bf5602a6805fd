package learn

import (
	"cmp"
	"slices"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// A Transition is what a workspace has learned of one step from → to: the
// weighted successes S of N weighted outcomes (a partial counts half), the
// contexts it was reported in and when it was last reported.
type Transition struct {
	From, To   string
	S, N       float64
	Discovered bool     // learned from reports, not in the manifest
	Edge       int      // the graph's edge index, -1 for none
	Contexts   []string // the newest first, distinct, at most maxContexts
	LastSeen   string   // the newest report's timestamp ("" when outside the reports given)
}

// Rate returns the success rate, or -1 without outcomes.
func (t *Transition) Rate() float64 {
	if t.N <= 0 {
		return -1
	}
	return t.S / t.N
}

const maxContexts = 3 // contexts kept per transition

// A Learned is a model that knows what it learned of each transition
// (Model, and the next-step model's adapter in package bridge).
type Learned interface{ Pairs() []Pair }

// Transitions lists what was learned of each step: the model's own counts
// when m is not nil, else the counts of the reports' outcomes. The
// reports, newest first, give a transition its last-seen time and up to
// three distinct contexts (trimmed; empty ones skipped); with a model,
// reports of a step it never learned are ignored. g gives each transition
// its edge index. Ordered by from, then to.
func Transitions(g *torusfield.Graph, m Learned, reports []Report) []*Transition {
	byPair := map[[2]string]*Transition{}
	get := func(from, to string) *Transition {
		k := [2]string{from, to}
		if t := byPair[k]; t != nil {
			return t
		}
		t := &Transition{From: from, To: to, Edge: g.Find(from, to)}
		byPair[k] = t
		return t
	}
	if m != nil {
		for _, p := range m.Pairs() {
			t := get(p.From, p.To)
			t.S, t.N, t.Discovered = p.S, p.N, p.Discovered
		}
	}
	for _, r := range reports {
		t := byPair[[2]string{r.From, r.To}]
		if m == nil {
			t = get(r.From, r.To)
			y, w := OutcomeValue(r.Success)
			t.S += w * y
			t.N += w
		} else if t == nil {
			continue
		}
		if t.LastSeen == "" {
			t.LastSeen = r.Time
		}
		if c := strings.TrimSpace(r.Context); c != "" && len(t.Contexts) < maxContexts && !slices.Contains(t.Contexts, c) {
			t.Contexts = append(t.Contexts, c)
		}
	}
	out := make([]*Transition, 0, len(byPair))
	for _, t := range byPair {
		out = append(out, t)
	}
	slices.SortFunc(out, func(a, b *Transition) int {
		return cmp.Or(strings.Compare(a.From, b.From), strings.Compare(a.To, b.To))
	})
	return out
}

// ByEvidence orders transitions by weighted outcomes, most first, then by
// the newest report, then as given (Transitions' order: by name).
func ByEvidence(ts []*Transition) []*Transition {
	out := slices.Clone(ts)
	slices.SortStableFunc(out, func(a, b *Transition) int {
		return cmp.Or(cmp.Compare(b.N, a.N), strings.Compare(b.LastSeen, a.LastSeen))
	})
	return out
}
