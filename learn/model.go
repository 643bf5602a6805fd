// Package learn is ucs's own learning model (v3): it estimates how likely
// each next step is to succeed in the task at hand, from the outcomes the
// agent reported, and ranks the next steps by that estimate plus a bonus
// for what it has not yet tried enough.
//
// The estimate is a Bayesian logistic regression per transition (from the
// current capability to a next one) over the terms of the task's context:
//
//	logit P(success | context, from → to) = prior(from → to) + w[·, from, to] + Σ w[term, from, to] / √n
//
// over the context's n terms (TermNorm: a long context weighs no more than
// a short one, and a word shares its evidence with the others in its
// sentence). The transition's own weight has a tighter prior (BiasVar)
// than a term's (PriorVar): what a step does in every context is an
// average over tasks that differ, so the context's words must carry what
// tells them apart.
//
// with a Gaussian belief (mean M, variance V) on every weight, updated in
// closed form by each outcome (an extended Kalman filter step: the weights
// a context shares divide the evidence in proportion to their
// uncertainty). The weight without a term is the transition's evidence in
// every context; a term's weight is what that word adds, so paraphrases of
// a task (which share most of their terms) share their evidence, and a
// task never seen borrows what its words and the transition in general
// have shown. Every update first adds a little variance back to the weights
// it touches (Drift), so old evidence fades and the model follows a change
// of what works.
//
// Ranking is optimistic: a candidate's score is its estimated log-odds plus
// Explore standard deviations of it (an upper confidence bound), so a next
// step the model knows little about is tried, and stops being tried once
// its outcomes say it fails. No randomness is involved: the same state and
// context always rank the same way, so a replay reproduces every answer.
//
// The prior is the manifest's: (u − c) of the edge, weighted by
// PriorWeight, a hint that real outcomes outweigh within a few reports.
// Nothing is invented before real actions: a fresh model has no evidence.
//
// Weights live in a fixed number of hash buckets (Buckets), so the model's
// size is bounded whatever the history; a collision only adds noise that
// evidence corrects.
//
// On the engine's graph (package torusfield), NextSteps lists the
// candidates from a capability, RankNextSteps ranks them and Teach learns
// a report's outcome (State.Reteach teaches a past report's again, or
// takes it back for an amendment). A State is what a workspace of a learning model
// keeps: the model, the recent consults' advice (Advisory), to which each
// report is attributed, how advice fared when followed and when not, and
// the agent's trail, with its codec (State.AppendJSON, DecodeState);
// Relearn learns a history again, and Transitions lists what was learned
// of each step.
package learn

import (
	"errors"
	"hash/fnv"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Buckets is the number of weights of a new model; a model never holds
// more. (4,096 until the state recorded its number: a term and a
// transition of a 49-tool benchmark have some 30,000 combinations, and
// collisions at 4,096 cost measurably: cumulative regret 1424 → 1369 at
// 16,384.) A model decoded from a state keeps the number it was made with.
const Buckets = 1 << 14

// LegacyBuckets is the number of weights of a state that does not record it.
const LegacyBuckets = 4096

// Params tune the model. DefaultParams are what ucs uses.
type Params struct {
	PriorVar float64 // the variance of a term's weight with no evidence
	BiasVar  float64 // the variance of a transition's own weight with no evidence (0: PriorVar)
	// TermNorm, when set, scales each term's feature by 1/√(number of
	// terms), so a long context does not weigh more than a short one.
	TermNorm    bool
	Drift       float64 // the variance a weight gains per outcome learned elsewhere, up to PriorVar
	Explore     float64 // how many standard deviations of optimism a ranking adds
	PriorWeight float64 // the log-odds per unit of the manifest's (u − c)
	AfterScale  float64 // the value of a history term's feature (0: history is ignored)
}

// Set sets a parameter by its lowercased name (for tuning tools).
func (p *Params) Set(name string, x float64) error {
	switch strings.ToLower(name) {
	case "priorvar":
		p.PriorVar = x
	case "biasvar":
		p.BiasVar = x
	case "termnorm":
		p.TermNorm = x != 0
	case "drift":
		p.Drift = x
	case "explore":
		p.Explore = x
	case "priorweight":
		p.PriorWeight = x
	case "afterscale":
		p.AfterScale = x
	default:
		return errors.New("learn: no parameter " + strconv.Quote(name))
	}
	return nil
}

// DefaultParams are the model's settings in ucs (its model v4).
var DefaultParams = Params{PriorVar: 1, BiasVar: 0.1, Drift: 0.0005, Explore: 0.2, PriorWeight: 0.1, TermNorm: true, AfterScale: 1}

// V3Params are the settings of ucs's model v3, which ignores where the
// agent came from. They never change: a v3 workspace learns as it always
// did, so its journal replays.
var V3Params = Params{PriorVar: 1, BiasVar: 0.1, Drift: 0.0005, Explore: 0.2, PriorWeight: 0.1, TermNorm: true}

// A Weight is the belief about one bucket's weight, and the outcomes that
// shaped it (for explanations).
type Weight struct {
	M, V float64 // mean and variance as of update T
	S, N float64 // the outcomes' weighted successes and their total weight
	T    int64   // the model's clock when it was last updated
}

// A Pair is what the model knows of one transition in every context.
type Pair struct {
	From, To   string
	S, N       float64 // weighted successes of N weighted outcomes
	Last       int64   // the clock (a report counter) of its last outcome
	Discovered bool    // learned from a report, not in the manifest
}

// A Model is the learned state. The zero value is not usable; see New.
type Model struct {
	P       Params
	Clock   int64  // how many outcomes the model has learned from
	buckets uint32 // a power of two
	weights map[uint32]*Weight
	pairs   map[[2]string]*Pair
}

// New returns a model with no evidence.
func New(p Params) *Model {
	return &Model{P: p, buckets: Buckets, weights: map[uint32]*Weight{}, pairs: map[[2]string]*Pair{}}
}

// bucket is where the weight of a term on a transition lives; the term ""
// is the transition's own weight.
func (m *Model) bucket(term, from, to string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(term))
	h.Write([]byte{0})
	h.Write([]byte(from))
	h.Write([]byte{0})
	h.Write([]byte(to))
	return h.Sum32() & (m.buckets - 1)
}

// A feature is one weight a context puts on a transition: its bucket, the
// feature's value, and whether it is the transition's own weight.
type feature struct {
	b    uint32
	x    float64
	bias bool
}

// features lists the weights of a context on a transition, the
// transition's own first, each bucket once.
func (m *Model) features(ctx Context, from, to string) []feature {
	out := make([]feature, 0, len(ctx.Terms)+2)
	out = append(out, feature{b: m.bucket("", from, to), x: 1, bias: true})
	add := func(term string, x float64) bool {
		b := m.bucket(term, from, to)
		if slices.ContainsFunc(out, func(f feature) bool { return f.b == b }) {
			return false
		}
		out = append(out, feature{b: b, x: x})
		return true
	}
	words := 0
	for _, t := range ctx.Terms {
		if add(t, 0) {
			words++
		}
	}
	xw := 1.0
	if m.P.TermNorm && words > 1 {
		xw = 1 / math.Sqrt(float64(words))
	}
	for i := 1; i < len(out); i++ {
		out[i].x = xw
	}
	if ctx.After != "" && m.P.AfterScale > 0 {
		add(afterTerm(ctx.After), m.P.AfterScale)
	}
	return out
}

// afterTerm is the term of the feature After: no word has "\x01".
func afterTerm(c string) string { return "\x01after\x00" + c }

// weight returns the belief about a bucket now: its variance has grown by
// Drift for every outcome the model learned since the bucket's last (a
// random walk: what is not confirmed grows uncertain, up to the prior), so
// an old verdict is tried again in time, and a change of what works is
// found.
func (m *Model) weight(b uint32, bias bool) Weight {
	v0 := m.P.PriorVar
	if bias && m.P.BiasVar > 0 {
		v0 = m.P.BiasVar
	}
	w, ok := m.weights[b]
	if !ok {
		return Weight{V: v0, T: m.Clock}
	}
	c := *w
	c.V = math.Min(c.V+m.P.Drift*float64(m.Clock-c.T), math.Max(v0, c.V))
	c.T = m.Clock
	return c
}

// An Estimate is the model's belief about one transition in one context.
type Estimate struct {
	To         string
	LogOdds    float64 // the prior plus the weights' means
	SD         float64 // the standard deviation of the log-odds
	P          float64 // the estimated success probability, σ(LogOdds)
	Bonus      float64 // the optimism added to rank it: Explore·SD, in log-odds
	Score      float64 // what ranks it: LogOdds + Bonus (or LogOdds alone, greedy)
	Prior      float64 // the manifest's share of LogOdds
	Evidence   Evidence
	Discovered bool
}

// Evidence says how much the estimate rests on: the outcomes of this
// transition in contexts that share the context's most-used term, and in
// all contexts.
type Evidence struct {
	Term       string  // "" when no term of the context has outcomes here
	TermS      float64 // weighted successes with that term
	TermN      float64 // weighted outcomes with that term
	S, N       float64 // weighted successes and outcomes in every context
	Last       int64   // the clock of the last outcome (0: none)
	Discovered bool
	// After is the context's After when the model weighs it, with the
	// weighted successes and outcomes of this transition after it.
	After          string
	AfterS, AfterN float64
}

// Estimate returns the belief about from → to in a context (its terms),
// with prior the manifest's (u − c) of the edge (0 for a transition the
// manifest lacks).
func (m *Model) Estimate(ctx Context, from, to string, prior float64) Estimate {
	e := Estimate{To: to, Prior: m.P.PriorWeight * prior}
	z, v := e.Prior, 0.0
	for _, f := range m.features(ctx, from, to) {
		w := m.weight(f.b, f.bias)
		z += f.x * w.M
		v += f.x * f.x * w.V
	}
	e.LogOdds, e.SD = z, math.Sqrt(v)
	e.P = sigmoid(z)
	e.Bonus = m.P.Explore * e.SD
	e.Score = z + e.Bonus
	if p, ok := m.pairs[[2]string{from, to}]; ok {
		e.Evidence.S, e.Evidence.N, e.Evidence.Last, e.Evidence.Discovered = p.S, p.N, p.Last, p.Discovered
		e.Discovered = p.Discovered
	}
	for _, t := range ctx.Terms {
		if w, ok := m.weights[m.bucket(t, from, to)]; ok && w.N > e.Evidence.TermN {
			e.Evidence.Term, e.Evidence.TermS, e.Evidence.TermN = t, w.S, w.N
		}
	}
	if ctx.After != "" && m.P.AfterScale > 0 {
		e.Evidence.After = ctx.After
		if w, ok := m.weights[m.bucket(afterTerm(ctx.After), from, to)]; ok {
			e.Evidence.AfterS, e.Evidence.AfterN = w.S, w.N
		}
	}
	return e
}

// A Candidate is a next step to rank: a capability and the manifest's
// prior for the edge to it.
type Candidate struct {
	To    string
	Prior float64 // (u − c) of the edge; 0 for a discovered transition
}

// Rank orders the candidates from from in a context, best first: by score
// (the optimistic one when explore, else the estimate alone), ties by
// name. It changes nothing.
func (m *Model) Rank(ctx Context, from string, cands []Candidate, explore bool) []Estimate {
	out := make([]Estimate, len(cands))
	for i, c := range cands {
		out[i] = m.Estimate(ctx, from, c.To, c.Prior)
		if !explore {
			out[i].Bonus, out[i].Score = 0, out[i].LogOdds
		}
	}
	SortEstimates(out)
	return out
}

// SortEstimates orders estimates as Rank does: by score, best first, ties
// by name. A caller that changes scores (a penalty) sorts again with it.
func SortEstimates(r []Estimate) {
	slices.SortStableFunc(r, func(a, b Estimate) int {
		if a.Score != b.Score {
			if a.Score > b.Score {
				return -1
			}
			return 1
		}
		return strings.Compare(a.To, b.To)
	})
}

// Discovered lists the transitions from a capability that reports taught
// the model and the manifest lacks, sorted by name.
func (m *Model) Discovered(from string) []string {
	var out []string
	for k, p := range m.pairs {
		if k[0] == from && p.Discovered {
			out = append(out, k[1])
		}
	}
	slices.Sort(out)
	return out
}

// Pairs returns what the model knows of every transition it has learned
// from, ordered by from, then to.
func (m *Model) Pairs() []Pair {
	out := make([]Pair, 0, len(m.pairs))
	for _, p := range m.pairs {
		out = append(out, *p)
	}
	slices.SortFunc(out, func(a, b Pair) int {
		if c := strings.Compare(a.From, b.From); c != 0 {
			return c
		}
		return strings.Compare(a.To, b.To)
	})
	return out
}

// An Outcome is what one report teaches.
type Outcome struct {
	Success float64 // 1 success, 0 failure, in between partial
	Weight  float64 // how much it counts: the observation's confidence, more when goal-directed; 0 learns nothing
	Clock   int64   // when (a report counter), for recency
	// Discovered marks a transition the manifest lacks.
	Discovered bool
	// Retract takes back an outcome learned before (a report amended as
	// wrong): the counts lose it, and the weights take the Gaussian
	// downdate of the update it made, an update of negative weight, so
	// their variance grows back. It is exact for the counts and, for the
	// weights, as exact as the approximation that learned it.
	Retract bool
}

// Update learns from the outcome of from → to in a context. It returns the
// estimate before and after, so the caller can say what changed.
func (m *Model) Update(ctx Context, from, to string, prior float64, o Outcome) (before, after Estimate) {
	before = m.Estimate(ctx, from, to, prior)
	key := [2]string{from, to}
	p, ok := m.pairs[key]
	if o.Weight <= 0 {
		// An outcome that teaches nothing (a neutral report: the agent
		// only says where it is) does not make a transition a candidate:
		// a discovered step with no evidence would rank first on its
		// uncertainty alone.
		if ok {
			p.Last = o.Clock
		}
		return before, m.Estimate(ctx, from, to, prior)
	}
	if !ok {
		p = &Pair{From: from, To: to, Discovered: o.Discovered}
		m.pairs[key] = p
	}
	p.Last = o.Clock
	sw := o.Weight // the signed weight
	if o.Retract {
		sw = -o.Weight
	}
	p.S = math.Max(p.S+sw*o.Success, 0)
	p.N = math.Max(p.N+sw, 0)
	fs := m.features(ctx, from, to)
	ws := make([]*Weight, len(fs))
	var z, v float64 = m.P.PriorWeight * prior, 0
	for i, f := range fs {
		w := m.weight(f.b, f.bias)
		m.weights[f.b] = &w
		ws[i] = &w
		x := f.x
		z += x * w.M
		v += x * x * w.V
	}
	// One extended-Kalman step of logistic regression: the log-odds moves
	// towards the outcome by the gain, shared out by each weight's variance.
	q := sigmoid(z)
	g := q * (1 - q)
	if d := 1 + sw*g*v; d < 0.1 {
		sw = -0.9 / (g * v) // a downdate never takes more than the belief holds
	}
	k := sw / (1 + sw*g*v)
	for i, w := range ws {
		x := fs[i].x
		w.M += k * w.V * x * (o.Success - q)
		w.V -= k * g * w.V * w.V * x * x
		v0 := m.P.PriorVar
		if fs[i].bias && m.P.BiasVar > 0 {
			v0 = m.P.BiasVar
		}
		w.V = math.Min(math.Max(w.V, 1e-6), math.Max(v0, 1e-6))
		w.S = math.Max(w.S+sw*o.Success, 0)
		w.N = math.Max(w.N+sw, 0)
	}
	m.Clock++
	for _, w := range ws {
		w.T = m.Clock
	}
	return before, m.Estimate(ctx, from, to, prior)
}

func sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }
