package torusfield

// An Executor evaluates a θ-step's traversal when no real result is reported:
// reward blends the edge's utility with the coherence of the energy field
// around the cursor (a flat field is coherent, a steep one is not).
type Executor struct {
	RewardScale     float64 // 1.0
	CoherenceWeight float64 // 0.35
	UtilityWeight   float64 // 0.65
}

func defaultExecutor() Executor {
	return Executor{RewardScale: 1.0, CoherenceWeight: 0.35, UtilityWeight: 0.65}
}

// run returns the reward and cost of traversing e with the cursor at (θ, φ).
func (x *Executor) run(g *Grid, e *Edge, theta, phi int) (reward, cost float64) {
	grad := abs(g.At(FieldEnergy, theta, phi+1)-g.At(FieldEnergy, theta, phi-1)) +
		abs(g.At(FieldEnergy, theta+1, phi)-g.At(FieldEnergy, theta-1, phi))
	coherence := 1.0 / (1.0 + grad)
	reward = x.RewardScale * float64(float64(x.UtilityWeight*e.U)+float64(x.CoherenceWeight*coherence))
	return reward, e.C
}
