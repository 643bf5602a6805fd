package learn

import "math"

// Pool is a fleet's experience as a prior for a new agent's model: the
// models of the fleet's other agents averaged (a weight a model never
// learned counts as its prior: mean 0, the prior's variance) and counted
// at share of their strength: each weight's variance is the mean variance
// divided by share (never above the prior's), its outcome counts and each
// transition's are the mean counts times share. The new agent then learns
// its own posterior from there; its first outcomes move it as much as the
// fleet's averaged evidence, scaled down, allows. share is in (0, 1]; the
// models must share p's bucket count. The pool's clock is 0, and so is
// every weight's.
func Pool(models []*Model, p Params, share float64) *Model {
	out := New(p)
	if len(models) == 0 || share <= 0 {
		return out
	}
	share = math.Min(share, 1)
	n := float64(len(models))
	type sum struct{ m, v, s, c float64 }
	sums := map[uint32]*sum{}
	var order []uint32
	for _, m := range models {
		for b := range m.weights {
			if sums[b] == nil {
				sums[b] = &sum{}
				order = append(order, b)
			}
		}
	}
	// A transition's own weight (the term "") has the bias's prior.
	bias := map[uint32]bool{}
	for _, m := range models {
		for k := range m.pairs {
			bias[out.bucket("", k[0], k[1])] = true
		}
	}
	for _, b := range order {
		bias := bias[b]
		v0 := p.PriorVar
		if bias && p.BiasVar > 0 {
			v0 = p.BiasVar
		}
		s := sums[b]
		for _, m := range models {
			w := m.weight(b, bias)
			s.m += w.M
			s.v += w.V
			s.s += w.S
			s.c += w.N
		}
		out.weights[b] = &Weight{M: s.m / n, V: math.Min(s.v/n/share, math.Max(v0, 1e-6)), S: share * s.s / n, N: share * s.c / n}
	}
	for _, m := range models {
		for k, pr := range m.pairs {
			q := out.pairs[k]
			if q == nil {
				q = &Pair{From: pr.From, To: pr.To}
				out.pairs[k] = q
			}
			q.S += share * pr.S / n
			q.N += share * pr.N / n
			q.Discovered = q.Discovered || pr.Discovered
		}
	}
	return out
}
