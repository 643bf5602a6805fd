package torusfield

// A Policy biases routing toward edges that artifacts vouch for. Biases
// accumulate on every φ-cycle and decay by BiasDecay, so an edge keeps its
// bias only while artifacts keep confirming it.
type Policy struct {
	BiasDecay float64 // 0.995
	BiasCap   float64 // 5.0: the most one wormhole adds per cycle
	bias      *ordered[int]
}

func newPolicy() *Policy {
	return &Policy{BiasDecay: 0.995, BiasCap: 5.0, bias: newOrdered[int]()}
}

// Bias returns the bias of an edge.
func (p *Policy) Bias(edge int) float64 {
	v, _ := p.bias.Get(edge)
	return v
}

// Biases calls fn for every biased edge in the order the biases were created.
func (p *Policy) Biases(fn func(edge int, bias float64)) {
	for i, k := range p.bias.keys {
		fn(k, p.bias.vals[i])
	}
}

// update adds each wormhole's score (capped) to its edge and a share of each
// attractor's score to the edges leaving its node, then decays every bias
// and forgets those that fell below 1e-6.
func (p *Policy) update(validated []*Artifact, g *Graph) {
	for _, a := range validated {
		switch a.Kind {
		case KindWormhole:
			if ei, ok := a.EdgeIndex(); ok {
				p.bias.Add(ei, clamp(a.Score, 0, p.BiasCap))
			}
		case KindAttractor:
			if node, ok := a.Node(); ok {
				for _, ei := range g.Out(node) {
					p.bias.Add(ei, clamp(a.Score*0.3, 0, 2))
				}
			}
		}
	}
	for i := range p.bias.vals {
		p.bias.vals[i] *= p.BiasDecay
	}
	p.bias.Filter(func(_ int, v float64) bool { return abs(v) >= 1e-6 })
}

func clamp(x, lo, hi float64) float64 {
	if x < lo {
		return lo
	}
	if x > hi {
		return hi
	}
	return x
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
