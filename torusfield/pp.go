package torusfield

// PPDimensions are the six dimensions of the Positive-Potential vector, in
// the reference's order: health averages them in this order.
var PPDimensions = [6]string{"capacity", "optionality", "resilience", "throughput", "truth", "trust"}

// A PP is the Positive-Potential vector: six health dimensions in [0, 1],
// each an exponential moving average updated on every φ-cycle.
type PP [6]float64

const (
	ppCapacity = iota
	ppOptionality
	ppResilience
	ppThroughput
	ppTruth
	ppTrust
)

// Health is the mean of the six dimensions.
func (p *PP) Health() float64 {
	return sum(p[:]) / float64(len(p))
}

// evaluate updates the vector from one φ-cycle's validated artifacts and the
// θ log. Throughput, optionality and capacity follow activity quickly (α =
// 0.10); truth, trust and resilience follow signal quality slowly (α = 0.05).
func (p *PP) evaluate(validated []*Artifact, log *TraceLog) {
	steps := float64(len(log.Theta))
	kinds := map[string]bool{}
	mass := 0.0
	for _, a := range validated {
		kinds[a.Kind] = true
		mass += a.Score
	}
	nk := float64(len(kinds))
	sat := func(x, k float64) float64 { return min(1.0, x/k) }
	p[ppThroughput] = float64(0.90*p[ppThroughput]) + float64(0.10*sat(steps, 50.0))
	p[ppOptionality] = float64(0.90*p[ppOptionality]) + float64(0.10*sat(nk, 3.0))
	p[ppCapacity] = float64(0.90*p[ppCapacity]) + float64(0.10*sat(mass, 5.0))
	p[ppTruth] = float64(0.95*p[ppTruth]) + float64(0.05*float64(0.5+float64(0.5*sat(mass, 5.0))))
	p[ppTrust] = float64(0.95*p[ppTrust]) + float64(0.05*float64(0.5+float64(0.5*sat(nk, 3.0))))
	p[ppResilience] = float64(0.95*p[ppResilience]) + float64(0.05*float64(0.5+float64(0.5*sat(steps, 50.0))))
}
