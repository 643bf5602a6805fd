package torusfield

import "math"

// A Router scores the edges leaving the cursor and picks one by softmax:
//
//	score = α·u − β·c + γ·n + w + bias + δ·context(dst) − ε·penalty(dst)
type Router struct {
	Alpha       float64 // utility weight, 1.25
	Beta        float64 // cost weight, 1.10
	Gamma       float64 // novelty weight, 0.35
	Delta       float64 // context-energy weight, 0.50
	Epsilon     float64 // negative-knowledge penalty weight, 0.75
	Temperature float64 // softmax temperature, 1.0
}

func defaultRouter() Router {
	return Router{Alpha: 1.25, Beta: 1.10, Gamma: 0.35, Delta: 0.50, Epsilon: 0.75, Temperature: 1.0}
}

// Base returns an edge's score without context or penalty, summed left to
// right as the reference does.
func (r *Router) Base(e *Edge, bias float64) float64 {
	return float64(float64(float64(float64(r.Alpha*e.U)-float64(r.Beta*e.C))+float64(r.Gamma*e.N))+e.W) + bias
}

// An EdgeScore is the advisory score of one outgoing edge.
type EdgeScore struct {
	Edge         int
	To           string
	Base         float64 // α·u − β·c + γ·n + w + bias
	Bias         float64
	ContextBoost float64 // δ·context(dst)
	Penalty      float64 // ε·penalty(dst)
	Score        float64 // Base + ContextBoost − Penalty
}

// Score scores every edge leaving src, in edge order. context and penalty
// map destination names to energies; either may be nil.
func (r *Router) Score(g *Graph, p *Policy, src string, context, penalty map[string]float64) []EdgeScore {
	out := make([]EdgeScore, 0, len(g.Out(src)))
	for _, ei := range g.Out(src) {
		e := &g.Edges[ei]
		s := EdgeScore{Edge: ei, To: e.Dst, Bias: p.Bias(ei)}
		s.Base = r.Base(e, s.Bias)
		if len(context) > 0 {
			s.ContextBoost = r.Delta * context[e.Dst]
		}
		if len(penalty) > 0 {
			s.Penalty = r.Epsilon * penalty[e.Dst]
		}
		s.Score = s.Base + s.ContextBoost - s.Penalty
		out = append(out, s)
	}
	return out
}

// pick draws one edge leaving src with probability proportional to
// exp(score/temperature). It returns -1 when src has no outgoing edge.
func (r *Router) pick(rng *Random, g *Graph, p *Policy, src string) int {
	cands := g.Out(src)
	if len(cands) == 0 {
		return -1
	}
	temp := max(r.Temperature, 0.01)
	scores := make([]float64, len(cands))
	for i, ei := range cands {
		scores[i] = r.Base(&g.Edges[ei], p.Bias(ei)) / temp
	}
	m := scores[0] // max() keeps the first of equal maxima
	for _, s := range scores[1:] {
		if s > m {
			m = s
		}
	}
	z := 0.0
	for i, s := range scores {
		scores[i] = math.Exp(s - m)
		z += scores[i]
	}
	target := rng.Float64() * z
	acc := 0.0
	for i, ei := range cands {
		acc += scores[i]
		if acc >= target {
			return ei
		}
	}
	return cands[len(cands)-1]
}
