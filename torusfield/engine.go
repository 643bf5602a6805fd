package torusfield

import (
	"fmt"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// Options tune how New builds an engine. The zero value gives the
// reference's defaults: a 24×32 grid and seed 1337.
type Options struct {
	ThetaBins, PhiBins int
	Seed               uint64 // 0 means 1337; use SeedZero for a zero seed
	SeedZero           bool
}

// DefaultSeed seeds every engine unless Options say otherwise. The
// generator's state is never saved: every boot starts from this seed, as
// the reference does.
const DefaultSeed = 1337

// An Injection is a scheduled energy source: every Period steps it injects
// Magnitude into Field at (Theta, Phi) through Port.
type Injection struct {
	Port       string
	Magnitude  float64
	Theta, Phi int
	Field      string
	Period     int
}

// A Cursor is where the agent is: a node and its position on the torus.
type Cursor struct {
	Node       string
	Theta, Phi int
}

// Coord is a capability's fixed position on the torus.
type Coord struct{ Theta, Phi int }

// An Engine is a torusfield kernel: the grid, the capability graph, the
// trace, the artifacts, the routing policy and the PP vector.
type Engine struct {
	Grid      *Grid
	Graph     *Graph
	Trace     TraceLog
	Artifacts *ArtifactStore
	Policy    *Policy
	Router    Router
	Executor  Executor
	Harvester Harvester
	PP        PP
	Cursor    Cursor

	// Tuning, with the reference's defaults.
	PhiPeriod   int     // θ-steps between φ-cycles when stepping, 25
	ThetaMix    float64 // 0.06
	PhiMix      float64 // 0.04
	ReinforceLR float64 // 0.075
	LeakDecay   float64 // 0.995

	Schedule []Injection
	coords   map[string]Coord
	manifest *Manifest
	rng      *Random
	seed     uint64 // rng's, for Settle
}

// New builds a fresh engine from a manifest: the graph, the zeroed grid,
// one scheduled injection and one coordinate per capability, and the cursor
// on the first capability.
func New(m *Manifest, opts Options) *Engine {
	tb, pb := opts.ThetaBins, opts.PhiBins
	if tb <= 0 {
		tb = 24
	}
	if pb <= 0 {
		pb = 32
	}
	seed := opts.Seed
	if seed == 0 && !opts.SeedZero {
		seed = DefaultSeed
	}
	e := &Engine{
		Grid:        newGrid(tb, pb),
		Graph:       buildGraph(m),
		Artifacts:   newArtifactStore(),
		Policy:      newPolicy(),
		Router:      defaultRouter(),
		Executor:    defaultExecutor(),
		Harvester:   defaultHarvester(),
		PhiPeriod:   25,
		ThetaMix:    0.06,
		PhiMix:      0.04,
		ReinforceLR: 0.075,
		LeakDecay:   0.995,
		coords:      make(map[string]Coord, len(m.Capabilities)),
		manifest:    m,
		rng:         NewRandom(seed),
		seed:        seed,
	}
	e.Cursor.Node = m.Capabilities[0].Name
	for i, c := range m.Capabilities {
		th, ph := i%tb, (i*3)%pb
		e.coords[c.Name] = Coord{th, ph}
		e.Schedule = append(e.Schedule, Injection{
			Port: "cap_" + c.Name, Magnitude: 0.5 + c.U,
			Theta: th, Phi: ph, Field: FieldEnergy,
			Period: max(1, int(10*c.C)),
		})
	}
	return e
}

// Manifest returns the manifest the engine was built from.
func (e *Engine) Manifest() *Manifest { return e.manifest }

// Coord returns a capability's position on the torus.
func (e *Engine) Coord(name string) (Coord, bool) {
	c, ok := e.coords[name]
	return c, ok
}

// RunInjections fires the scheduled injections due at the current step.
func (e *Engine) RunInjections() {
	for _, inj := range e.Schedule {
		if inj.Period <= 0 || e.Grid.T%inj.Period == 0 {
			e.Grid.Inject(inj.Port, inj.Magnitude, inj.Theta, inj.Phi, inj.Field)
		}
	}
}

// Warm runs n warm-up θ-steps of the energy field alone: diffusion,
// decay and the scheduled injections, with no routing, so energy a
// context put on the grid spreads before paths are scored (a consult's
// warm-up, as the reference's).
func (e *Engine) Warm(n int) {
	for range n {
		e.Grid.Diffuse(FieldEnergy, e.ThetaMix, e.PhiMix)
		e.Grid.Decay(e.LeakDecay)
		e.RunInjections()
	}
}

// Step runs one θ-step: scheduled injections, diffusion of energy, a routed
// pick of an edge leaving the cursor, its evaluation and reinforcement, the
// cursor's move, decay, and a φ-cycle every PhiPeriod steps. It returns the
// destination, or false when the cursor has no outgoing edge (then nothing
// but the injections and diffusion happened, as in the reference).
func (e *Engine) Step() (string, bool) {
	e.RunInjections()
	e.Grid.Diffuse(FieldEnergy, e.ThetaMix, e.PhiMix)
	ei := e.Router.pick(e.rng, e.Graph, e.Policy, e.Cursor.Node)
	if ei < 0 {
		return "", false
	}
	edge := &e.Graph.Edges[ei]
	reward, cost := e.Executor.run(e.Grid, edge, e.Cursor.Theta, e.Cursor.Phi)
	e.Trace.appendTheta(TraceStep{T: e.Grid.T, Src: edge.Src, Dst: edge.Dst, EdgeIndex: ei,
		Reward: reward, Cost: cost, Novelty: edge.N, NoveltyIsInt: edge.NIsInt})
	edge.W = learn(edge.W, e.ReinforceLR, reward-cost)
	e.Cursor = Cursor{Node: edge.Dst,
		Theta: floorMod(e.Cursor.Theta+1, e.Grid.ThetaBins),
		Phi:   floorMod(e.Cursor.Phi+2, e.Grid.PhiBins)}
	e.Grid.Decay(e.LeakDecay)
	e.Grid.T++
	if e.Grid.T%e.PhiPeriod == 0 {
		e.PhiCycle()
	}
	return edge.Dst, true
}

// Run runs n θ-steps.
func (e *Engine) Run(n int) {
	for range n {
		e.Step()
	}
}

// Reinforce credits a traversal of edge ei that the agent reported: the
// weight moves by ReinforceLR·(reward−cost−0.5), clamped to [-2.5, 2.5], and
// the step joins the θ log at the current t. It returns the weight before
// and after.
func (e *Engine) Reinforce(ei int, reward, cost float64) (oldW, newW float64, err error) {
	if ei < 0 || ei >= len(e.Graph.Edges) {
		return 0, 0, fmt.Errorf("torusfield: edge %d out of range", ei)
	}
	edge := &e.Graph.Edges[ei]
	oldW = edge.W
	edge.W = learn(edge.W, e.ReinforceLR, reward-cost)
	e.Trace.appendTheta(TraceStep{T: e.Grid.T, Src: edge.Src, Dst: edge.Dst, EdgeIndex: ei,
		Reward: reward, Cost: cost, Novelty: edge.N, NoveltyIsInt: edge.NIsInt})
	return oldW, edge.W, nil
}

// A PhiRecord summarizes one φ-cycle.
type PhiRecord struct {
	T         int
	Promoted  int // artifacts promoted for the first time
	Total     int // artifacts held after the cycle
	PP        PP
	Validated []*Artifact
	NewIDs    []string // IDs of the artifacts promoted for the first time
}

// PhiCycle harvests the trace: it detects and validates candidate
// artifacts, promotes them (stamping each as detected now), updates the
// policy and the PP vector, logs a φ record, and deposits 15% of the
// validated artifacts' mass into the memory field.
func (e *Engine) PhiCycle() PhiRecord {
	t := e.Grid.T
	validated := validate(e.Harvester.Detect(&e.Trace, t))
	rec := PhiRecord{T: t, Validated: validated}
	for _, a := range validated {
		if e.Artifacts.Promote(a) {
			rec.Promoted++
			rec.NewIDs = append(rec.NewIDs, a.ID)
		}
		if held, ok := e.Artifacts.Get(a.ID); ok {
			held.setLastDetectedT(t)
		}
	}
	e.Policy.update(validated, e.Graph)
	e.PP.evaluate(validated, &e.Trace)
	rec.Total = e.Artifacts.Len()
	rec.PP = e.PP
	e.Trace.appendPhi(pyjson.ObjectValue([]pyjson.Member{
		{Key: "t", Value: pyjson.IntValue(int64(t))},
		{Key: "artifacts_promoted", Value: pyjson.IntValue(int64(rec.Promoted))},
		{Key: "artifacts_total", Value: pyjson.IntValue(int64(rec.Total))},
		{Key: "pp", Value: e.PP.value()},
	}))
	mass := 0.0
	for _, a := range validated {
		mass += a.Score
	}
	if mass > 0 {
		k := floorDiv(t, e.PhiPeriod)
		e.Grid.Inject("artifact_mass", 0.15*mass, floorMod(k, e.Grid.ThetaBins), floorMod(2*k+1, e.Grid.PhiBins), FieldMemory)
	}
	return rec
}

// PrepareContextEnergy zeroes the context-energy field, injects magnitude
// at each named capability, diffuses the field steps times, and returns the
// energy at every capability's position in manifest order.
func (e *Engine) PrepareContextEnergy(caps []string, magnitude float64, steps int) []NodeEnergy {
	e.Grid.Zero(FieldContextEnergy)
	for _, c := range caps {
		if xy, ok := e.coords[c]; ok {
			e.Grid.Inject("ctx_"+c, magnitude, xy.Theta, xy.Phi, FieldContextEnergy)
		}
	}
	for range steps {
		e.Grid.Diffuse(FieldContextEnergy, e.ThetaMix, e.PhiMix)
	}
	out := make([]NodeEnergy, 0, len(e.manifest.Capabilities))
	for _, c := range e.manifest.Capabilities {
		xy := e.coords[c.Name]
		out = append(out, NodeEnergy{Node: c.Name, Energy: e.Grid.At(FieldContextEnergy, xy.Theta, xy.Phi)})
	}
	return out
}

// NodeEnergy is a field's value at a capability's position.
type NodeEnergy struct {
	Node   string
	Energy float64
}

// learn is the reinforcement rule: w + lr·(net − 0.5), clamped to [-2.5, 2.5].
func learn(w, lr, net float64) float64 {
	return clamp(w+float64(lr*(net-0.5)), -2.5, 2.5)
}

// floorDiv divides rounding toward negative infinity, as Python's // does.
func floorDiv(a, n int) int {
	q := a / n
	if (a%n != 0) && ((a < 0) != (n < 0)) {
		q--
	}
	return q
}
