package learnbench

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// A Policy chooses the agent's next tool and learns from what it is told.
type Policy interface {
	// Begin starts an episode (st.Cur is the family's start tool).
	Begin(st *State) error
	// Choose returns the next tool; normally one of st.Out.
	Choose(st *State) (string, error)
	// Observe tells the policy the reported (possibly flipped) outcome of
	// its choice, before the environment moves the agent.
	Observe(st *State, action string, reported bool) error
	// Probe ranks the next tools for each query, best first, without
	// exploring and without learning from the probe.
	Probe(qs []ProbeQuery) ([][]string, error)
	// Close releases what the policy holds (a workspace).
	Close() error
}

// A ProbeQuery asks for the ranking of the next tools of a family's task
// at one position of its best chain, for one context sentence.
type ProbeQuery struct {
	Family, Position int
	Drifted          bool
	Context          string
	Prev, Cur        string // the chain's tool before Cur ("" at the start) and at the position
}

// A PolicySpec names a policy: kind random, names, tabular, ucb, oracle,
// v2, ucs or learn (ucs's model in memory), and for v2, ucs and learn the
// compliance (how often the agent follows consult's first suggestion;
// otherwise a random out-neighbour) and how ucs learns each outcome
// (Feedback): told by the agent, whose verdict is wrong with probability
// FlipProb (""); observed through ucs exec, the tool's exit code carrying
// the true outcome ("exec"); or told by an agent that is never wrong
// ("honest", the reference point).
type PolicySpec struct {
	Name       string
	Kind       string
	Compliance float64
	Feedback   string
}

// ParsePolicy parses a policy name: random, names, tabular, ucb, oracle,
// v2[@C] or ucs[@C] with C the compliance in [0, 1] (default 1).
func ParsePolicy(name string) (PolicySpec, error) {
	kind, comp, hasComp := strings.Cut(name, "@")
	kind, feedback, hasFeedback := strings.Cut(kind, "+")
	s := PolicySpec{Name: name, Kind: kind, Compliance: 1, Feedback: feedback}
	if hasFeedback && (feedback != "exec" && feedback != "honest" || kind != "ucs" && kind != "learn") {
		return s, fmt.Errorf("policy %q: only ucs and learn take +exec or +honest", name)
	}
	switch kind {
	case "random", "names", "tabular", "ucb", "oracle":
		if hasComp {
			return s, fmt.Errorf("policy %q takes no compliance", name)
		}
	case "v2", "ucs", "learn", "next":
		if hasComp {
			c, err := strconv.ParseFloat(comp, 64)
			if err != nil || c < 0 || c > 1 {
				return s, fmt.Errorf("policy %q: compliance must be a number in [0, 1]", name)
			}
			s.Compliance = c
		}
	default:
		return s, fmt.Errorf("unknown policy %q (random, names, v2[@C], ucs[+exec|+honest][@C], learn[+exec|+honest][@C], next[@C], tabular, ucb, oracle)", name)
	}
	return s, nil
}

// UsesUCS reports whether the policy drives ucs.
func (s PolicySpec) UsesUCS() bool { return s.Kind == "v2" || s.Kind == "ucs" }

// rankBy orders tools by descending score, ties in a random order drawn
// from r.
func rankBy(tools []string, r *rand.Rand, score func(string) float64) []string {
	out := slices.Clone(tools)
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	slices.SortStableFunc(out, func(a, b string) int { return cmp.Compare(score(b), score(a)) })
	return out
}

// argmax returns the tool with the highest score, ties broken at random.
func argmax(tools []string, r *rand.Rand, score func(string) float64) string {
	best, bs, ties := "", math.Inf(-1), 0
	for _, t := range tools {
		s := score(t)
		switch {
		case s > bs:
			best, bs, ties = t, s, 1
		case s == bs:
			ties++
			if r.IntN(ties) == 0 {
				best = t
			}
		}
	}
	return best
}

func randomOf(tools []string, r *rand.Rand) string {
	if len(tools) == 0 {
		return ""
	}
	return tools[r.IntN(len(tools))]
}

// randomPolicy picks a random out-neighbour.
type randomPolicy struct {
	w     *World
	r, pr *rand.Rand
}

func (p *randomPolicy) Begin(*State) error                 { return nil }
func (p *randomPolicy) Choose(st *State) (string, error)   { return randomOf(st.Out, p.r), nil }
func (p *randomPolicy) Observe(*State, string, bool) error { return nil }
func (p *randomPolicy) Close() error                       { return nil }
func (p *randomPolicy) Probe(qs []ProbeQuery) ([][]string, error) {
	out := make([][]string, len(qs))
	for i := range qs {
		out[i] = rankBy(p.w.Out(qs[i].Cur), p.pr, func(string) float64 { return 0 })
	}
	return out, nil
}

// names picks the out-neighbour whose name shares the most words with the
// context, ties at random.
type namesPolicy struct {
	w     *World
	r, pr *rand.Rand
}

func nameScore(context string) func(string) float64 {
	words := Words(context)
	return func(tool string) float64 {
		n := 0
		for _, part := range Words(tool) {
			if slices.Contains(words, part) {
				n++
			}
		}
		return float64(n)
	}
}

func (p *namesPolicy) Begin(*State) error { return nil }
func (p *namesPolicy) Choose(st *State) (string, error) {
	return argmax(st.Out, p.r, nameScore(st.Context)), nil
}
func (p *namesPolicy) Observe(*State, string, bool) error { return nil }
func (p *namesPolicy) Close() error                       { return nil }
func (p *namesPolicy) Probe(qs []ProbeQuery) ([][]string, error) {
	out := make([][]string, len(qs))
	for i, q := range qs {
		out[i] = rankBy(p.w.Out(q.Cur), p.pr, nameScore(q.Context))
	}
	return out, nil
}

// armKey keys the tabular baselines: (family, tool, next).
type armKey struct {
	family     int
	tool, next string
}

type armStats struct{ n, s float64 }

// tabularPolicy is ε-greedy on Laplace means (s+1)/(n+2) of the reported
// outcomes, keyed on (family, tool, next): it is told the family.
type tabularPolicy struct {
	w       *World
	epsilon float64
	arms    map[armKey]*armStats
	r, pr   *rand.Rand
}

func (p *tabularPolicy) mean(f int, cur string) func(string) float64 {
	return func(next string) float64 {
		a := p.arms[armKey{f, cur, next}]
		if a == nil {
			return 0.5
		}
		return (a.s + 1) / (a.n + 2)
	}
}

func (p *tabularPolicy) Begin(*State) error { return nil }
func (p *tabularPolicy) Choose(st *State) (string, error) {
	if p.r.Float64() < p.epsilon {
		return randomOf(st.Out, p.r), nil
	}
	return argmax(st.Out, p.r, p.mean(st.Family, st.Cur)), nil
}
func (p *tabularPolicy) Observe(st *State, action string, reported bool) error {
	observeArm(p.arms, st, action, reported)
	return nil
}
func (p *tabularPolicy) Close() error { return nil }
func (p *tabularPolicy) Probe(qs []ProbeQuery) ([][]string, error) {
	out := make([][]string, len(qs))
	for i, q := range qs {
		out[i] = rankBy(p.w.Out(q.Cur), p.pr, p.mean(q.Family, q.Cur))
	}
	return out, nil
}

func observeArm(arms map[armKey]*armStats, st *State, action string, reported bool) {
	k := armKey{st.Family, st.Cur, action}
	a := arms[k]
	if a == nil {
		a = &armStats{}
		arms[k] = a
	}
	a.n++
	if reported {
		a.s++
	}
}

// ucbPolicy is UCB1 keyed on (family, tool, next): an untried next first
// (at random), else the highest mean + c·√(ln N / n), N the pulls at
// (family, tool).
type ucbPolicy struct {
	w     *World
	c     float64
	arms  map[armKey]*armStats
	r, pr *rand.Rand
}

func (p *ucbPolicy) Begin(*State) error { return nil }
func (p *ucbPolicy) Choose(st *State) (string, error) {
	total := 0.0
	for _, t := range st.Out {
		if a := p.arms[armKey{st.Family, st.Cur, t}]; a != nil {
			total += a.n
		}
	}
	return argmax(st.Out, p.r, func(t string) float64 {
		a := p.arms[armKey{st.Family, st.Cur, t}]
		if a == nil || a.n == 0 {
			return math.Inf(1)
		}
		return a.s/a.n + p.c*math.Sqrt(math.Log(total)/a.n)
	}), nil
}
func (p *ucbPolicy) Observe(st *State, action string, reported bool) error {
	observeArm(p.arms, st, action, reported)
	return nil
}
func (p *ucbPolicy) Close() error { return nil }

// Probe ranks by the empirical mean (no exploration bonus); untried
// arms count 0.5.
func (p *ucbPolicy) Probe(qs []ProbeQuery) ([][]string, error) {
	out := make([][]string, len(qs))
	for i, q := range qs {
		out[i] = rankBy(p.w.Out(q.Cur), p.pr, func(t string) float64 {
			a := p.arms[armKey{q.Family, q.Cur, t}]
			if a == nil || a.n == 0 {
				return 0.5
			}
			return a.s / a.n
		})
	}
	return out, nil
}

// oraclePolicy knows the hidden truth and picks the most likely step.
type oraclePolicy struct{ w *World }

func (p *oraclePolicy) Begin(*State) error { return nil }
func (p *oraclePolicy) Choose(st *State) (string, error) {
	t, _ := p.w.BestP(st.Family, st.Position, st.Drifted, st.Cur)
	return t, nil
}
func (p *oraclePolicy) Observe(*State, string, bool) error { return nil }
func (p *oraclePolicy) Close() error                       { return nil }
func (p *oraclePolicy) Probe(qs []ProbeQuery) ([][]string, error) {
	out := make([][]string, len(qs))
	for i, q := range qs {
		tools := slices.Clone(p.w.Out(q.Cur))
		slices.SortStableFunc(tools, func(a, b string) int {
			return cmp.Compare(p.w.P(q.Family, q.Position, q.Drifted, q.Cur, b), p.w.P(q.Family, q.Position, q.Drifted, q.Cur, a))
		})
		out[i] = tools
	}
	return out, nil
}
