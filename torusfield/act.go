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
