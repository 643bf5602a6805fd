package nextstep

import "math"

// The success model (Params.Logistic): the step's own success probability
// as a Bayesian logistic regression over exact keys, v4's estimate without
// its hash buckets. Each weight is a Gaussian belief about what a key adds
// to the log-odds of to succeeding: (prev, to) for the transition in every
// context (prior variance BiasVar), (term, prev, to) for each of the
// context's terms (value 1/√n), (prev2, prev, to) and (task, prev, to)
// (value 1). An outcome moves them in one extended-Kalman step, each in
// proportion to its uncertainty, and a weight's variance grows by Drift
// per outcome learned elsewhere (up to its prior), so old verdicts fade.

// A weight is one Gaussian belief: mean, variance, the clock of its last
// update, and how many outcomes it has seen.
type weight struct {
	M, V float64
	T    int64
	N    float64
}

// Settings of the success model that are not tuned (v4's).
const (
	biasVar  = 0.1
	priorVar = 1.0
	drift    = 0.0005
)

// An sfeature is one weight of a call: its group (the record it is kept
// in: the feature without the next tool), the next tool, its value.
type sfeature struct {
	group, to string
	x         float64
	bias      bool
}

func (m *Model) sfeatures(ep *Episode, to string) []sfeature {
	fs := []sfeature{{key("s", "1", ep.Prev), to, 1, true}}
	if ep.Prev != Start {
		fs = append(fs, sfeature{key("s", "2", ep.Prev2, ep.Prev), to, 1, false})
	}
	x := 1 / math.Sqrt(float64(max(1, len(ep.Terms))))
	for _, t := range ep.Terms {
		fs = append(fs, sfeature{key("s", "w", t, ep.Prev), to, x, false})
	}
	return fs
}

func (m *Model) belief(f sfeature) weight {
	v0 := priorVar
	if f.bias {
		v0 = biasVar
	}
	w, ok := m.group(f.group)[f.to]
	if !ok {
		mean := 0.0
		if f.bias && m.Prior != nil {
			mean = m.P.PriorWeight * m.Prior(f.to)
		}
		return weight{M: mean, V: v0, T: m.clock}
	}
	c := *w
	c.V = math.Min(c.V+drift*float64(m.clock-c.T), math.Max(v0, c.V))
	c.T = m.clock
	return c
}

// logit returns the estimated log-odds of to succeeding and its standard
// deviation.
func (m *Model) logit(ep *Episode, to string) (z, sd float64) {
	return m.logitOf(m.sfeatures(ep, ""), to)
}

// logitOf is logit over features built once for every candidate (their
// groups do not depend on the step).
func (m *Model) logitOf(fs []sfeature, to string) (z, sd float64) {
	v := 0.0
	for _, f := range fs {
		f.to = to
		w := m.rankBelief(f)
		z += f.x * w.M
		v += f.x * f.x * w.V
	}
	return z, math.Sqrt(v)
}

// learnSuccess is one extended-Kalman step of the logistic regression.
//
// w weighs the outcome (1: one outcome; an observed outcome's confidence,
// or a person's verdict that counts for more): the step of w identical
// outcomes, to first order.
func (m *Model) learnSuccess(ep *Episode, to string, y, w float64) {
	n := w
	fs := m.sfeatures(ep, to)
	ws := make([]*weight, len(fs))
	z, v := 0.0, 0.0
	for i, f := range fs {
		w := m.belief(f)
		ws[i] = &w
		z += f.x * w.M
		v += f.x * f.x * w.V
	}
	q := 1 / (1 + math.Exp(-z))
	g := q * (1 - q) * n
	k := 1 / (1 + g*v)
	m.clock++
	for i, w := range ws {
		x := fs[i].x
		w.M += k * w.V * x * n * (y - q)
		w.V = math.Max(w.V-k*g*w.V*w.V*x*x, 1e-6)
		w.N++
		w.T = m.clock
		grp := fs[i].group
		g := m.weights[grp]
		if g == nil {
			g = map[string]*weight{}
			m.weights[grp] = g
			if m.store != nil {
				m.wfresh[grp] = true
			}
		}
		g[fs[i].to] = w
		if m.wchanged[grp] == nil {
			m.wchanged[grp] = map[string]bool{}
		}
		m.wchanged[grp][fs[i].to] = true
		m.touch(grp)
	}
}
