package torusfield

// Act moves the engine to a capability the agent acted with: energy of
// magnitude is injected at it and diffuses, the field decays, the
// scheduled injections run, the cursor moves there and time steps on.
func (e *Engine) Act(action string, magnitude float64) {
	xy, _ := e.Coord(action)
	e.Grid.Inject("action_"+action, magnitude, xy.Theta, xy.Phi, FieldEnergy)
	e.Grid.Diffuse(FieldEnergy, e.ThetaMix, e.PhiMix)
	e.Grid.Decay(e.LeakDecay)
	e.RunInjections()
	e.Cursor = Cursor{Node: action, Theta: xy.Theta, Phi: xy.Phi}
	e.Grid.T++
}

// PhiReportInterval is how many reports apart the engine runs a φ-cycle,
// as the reference does.
const PhiReportInterval = 5

// CountReport counts a report towards the next φ-cycle: n is how many
// came since the last one. The PhiReportInterval-th report runs a
// φ-cycle and starts the count again. CountReport returns the new count
// and whether the cycle ran.
func (e *Engine) CountReport(n int) (int, bool) {
	if n+1 < PhiReportInterval {
		return n + 1, false
	}
	e.PhiCycle()
	return 0, true
}
