package dashboard

import (
	"cmp"
	"slices"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn"
)

// The fleet view: what `ucs view --fleet` draws and `ucs show --fleet`
// answers, for an operator of a store. The bridge reads each workspace the
// caller may read into a FleetWorkspace; NewFleet joins what the shared
// ones learned into the fleet's transitions, each with its provenance.

// FleetTransitions is how many of the fleet's learned transitions the
// view lists, the best evidenced first (the rest are counted).
const FleetTransitions = 50

// A FleetWorkspace is one workspace of a store as the fleet view shows
// it, read by the bridge.
type FleetWorkspace struct {
	Name    string // in the store
	Agent   string // the agent its journal names
	Fleet   string // "" where no store says (a directory's peers)
	Owner   string // the database role that made it; "" where the store records none
	Private bool   // its knowledge reaches no one, and its evidence is not the fleet's
	Model   string
	T       int
	Reports int
	// Precision is its advisory precision, as status gives it (nil for
	// a model that keeps none, v2).
	Precision any
	// What it holds for its fleet to read (nothing reaches the fleet
	// when it is private): knowledge entries and believed observations.
	Methodology, DeadEnds, Judgment, Observations int
	// Learned are its learned transitions (those with evidence count).
	Learned []*learn.Transition
	// Error is why it could not be read (a damaged or unfinished
	// workspace: another agent's to repair), with its code; "" when it
	// was.
	Error, Code string
}

// A FleetTransition is a transition the fleet's shared workspaces
// learned: their evidence summed, and each one's share of it.
type FleetTransition struct {
	Fleet, From, To string
	S, N            float64
	Sources         []Evidence // the most evidence first
}

// Evidence is what one workspace learned of a transition: its weighted
// successes S of N outcomes (whole counts for v5 and v2).
type Evidence struct {
	Workspace string
	S, N      float64
}

// Fleet is the fleet view, gathered by NewFleet.
type Fleet struct {
	Workspaces []FleetWorkspace // by fleet, then name
	// Transitions are the first FleetTransitions of the fleet's learned
	// transitions, of TransitionsTotal.
	Transitions      []FleetTransition
	TransitionsTotal int
}

// NewFleet orders the workspaces by fleet and name and joins the learned
// transitions of the shared ones (not private, read), fleet by fleet:
// a private workspace's evidence is its own, as its knowledge is.
func NewFleet(ws []FleetWorkspace) Fleet {
	ws = slices.Clone(ws)
	slices.SortStableFunc(ws, func(a, b FleetWorkspace) int {
		return cmp.Or(strings.Compare(a.Fleet, b.Fleet), strings.Compare(a.Name, b.Name))
	})
	type key struct{ fleet, from, to string }
	byKey := map[key]*FleetTransition{}
	var all []*FleetTransition
	for _, w := range ws {
		if w.Private || w.Error != "" {
			continue
		}
		for _, t := range w.Learned {
			if t.N <= 0 {
				continue
			}
			k := key{w.Fleet, t.From, t.To}
			ft := byKey[k]
			if ft == nil {
				ft = &FleetTransition{Fleet: w.Fleet, From: t.From, To: t.To}
				byKey[k] = ft
				all = append(all, ft)
			}
			ft.S += t.S
			ft.N += t.N
			ft.Sources = append(ft.Sources, Evidence{Workspace: w.Name, S: t.S, N: t.N})
		}
	}
	for _, ft := range all {
		slices.SortStableFunc(ft.Sources, func(a, b Evidence) int {
			return cmp.Or(cmp.Compare(b.N, a.N), strings.Compare(a.Workspace, b.Workspace))
		})
	}
	slices.SortStableFunc(all, func(a, b *FleetTransition) int {
		return cmp.Or(cmp.Compare(b.N, a.N), strings.Compare(a.Fleet, b.Fleet), strings.Compare(a.From, b.From), strings.Compare(a.To, b.To))
	})
	f := Fleet{Workspaces: ws, TransitionsTotal: len(all)}
	for _, ft := range all[:min(FleetTransitions, len(all))] {
		f.Transitions = append(f.Transitions, *ft)
	}
	return f
}

// Value is show --fleet's answer, in its members' order.
func (f *Fleet) Value() pyjson.Value {
	ws := []pyjson.Value{}
	for _, w := range f.Workspaces {
		ws = append(ws, w.value())
	}
	ts := []pyjson.Value{}
	for _, t := range f.Transitions {
		ts = append(ts, t.value())
	}
	return pyjson.Obj(
		pyjson.KV("workspaces", ws),
		pyjson.KV("fleet_transitions", ts),
		pyjson.KV("fleet_transitions_total", f.TransitionsTotal),
	)
}

// Shown counts what the fleet page shows: view --fleet's answer.
func (f *Fleet) Shown() pyjson.Value {
	fleets := map[string]bool{}
	private := 0
	for _, w := range f.Workspaces {
		fleets[w.Fleet] = true
		if w.Private {
			private++
		}
	}
	return pyjson.Obj(
		pyjson.KV("workspaces", len(f.Workspaces)), pyjson.KV("private", private), pyjson.KV("fleets", len(fleets)),
		pyjson.KV("fleet_transitions", len(f.Transitions)), pyjson.KV("fleet_transitions_total", f.TransitionsTotal),
	)
}

// Page is the fleet page, with its time generated (ISO 8601).
func (f *Fleet) Page(generated string) []byte {
	v := f.Value()
	return RenderFleet(pyjson.AppendCompact(nil, pyjson.ObjectValue(append([]pyjson.Member{pyjson.KV("generated", generated)}, v.Members()...))))
}

func (w *FleetWorkspace) value() pyjson.Value {
	var fleet, owner any
	if w.Fleet != "" {
		fleet = w.Fleet
	}
	if w.Owner != "" {
		owner = w.Owner
	}
	ms := []pyjson.Member{
		pyjson.KV("name", w.Name),
		pyjson.KV("fleet", fleet),
		pyjson.KV("private", w.Private),
		pyjson.KV("owner", owner),
	}
	if w.Error != "" {
		return pyjson.ObjectValue(append(ms, pyjson.KV("error", w.Error), pyjson.KV("code", w.Code)))
	}
	return pyjson.ObjectValue(append(ms,
		pyjson.KV("agent", w.Agent),
		pyjson.KV("model", w.Model),
		pyjson.KV("t", w.T),
		pyjson.KV("reports", w.Reports),
		pyjson.KV("advisory_precision", w.Precision),
		pyjson.KV("knowledge", pyjson.Obj(pyjson.KV("methodology", w.Methodology), pyjson.KV("dead_ends", w.DeadEnds),
			pyjson.KV("judgment_nodes", w.Judgment), pyjson.KV("observations", w.Observations))),
		pyjson.KV("transitions_learned", len(w.Learned)),
	))
}

func (t *FleetTransition) value() pyjson.Value {
	var rate any
	if t.N > 0 {
		rate = pyjson.Round(t.S/t.N, 4)
	}
	src := make([]pyjson.Value, len(t.Sources))
	for i, e := range t.Sources {
		src[i] = pyjson.Obj(pyjson.KV("workspace", e.Workspace), pyjson.KV("successes", pyjson.Round(e.S, 2)),
			pyjson.KV("of", pyjson.Round(e.N, 2)), pyjson.KV("share", pyjson.Round(e.N/t.N, 4)))
	}
	var fleet any
	if t.Fleet != "" {
		fleet = t.Fleet
	}
	return pyjson.Obj(
		pyjson.KV("fleet", fleet),
		pyjson.KV("from", t.From),
		pyjson.KV("to", t.To),
		pyjson.KV("successes", pyjson.Round(t.S, 2)),
		pyjson.KV("of", pyjson.Round(t.N, 2)),
		pyjson.KV("rate", rate),
		pyjson.KV("evidence", src),
	)
}
