package dashboard

import (
	"time"

	"github.com/unified-cognitive-substrate/ucs/belief"
	"github.com/unified-cognitive-substrate/ucs/goal"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// The parts of Data made from the domain's values: the bridge reads them
// from its session and hands them over; these say what the page takes of
// each.

// NewGraph is the capability graph of the engine e: every capability,
// every edge of its graph and every transition of ts learned beside it,
// each with what was learned of it (learned gives a transition's value,
// as show lists it), and the artifacts with their annotations (anns, by
// artifact id).
func NewGraph(e *torusfield.Engine, ts []*learn.Transition, anns map[string]pyjson.Value, learned func(*learn.Transition) pyjson.Value) Graph {
	byEnds := map[[2]string]*learn.Transition{}
	for _, t := range ts {
		byEnds[[2]string{t.From, t.To}] = t
	}
	g := Graph{Nodes: e.Graph.Nodes}
	for _, a := range e.Artifacts.All() {
		art := Artifact{ID: a.ID, Kind: a.Kind, Score: a.Score, Edge: -1}
		if ei, ok := a.EdgeIndex(); ok && ei < len(e.Graph.Edges) {
			art.Edge = ei
		} else if node, ok := a.Node(); ok {
			art.Node, art.OnNode = node, true
		}
		if ann, ok := anns[a.ID]; ok {
			art.Annotation, _ = ann.Get("text")
		}
		g.Artifacts = append(g.Artifacts, art)
	}
	edge := func(from, to string, w, prior float64, t *learn.Transition) Edge {
		ed := Edge{From: from, To: to, W: w, Prior: prior}
		if t != nil && t.N > 0 {
			ed.Learned = learned(t)
		}
		return ed
	}
	for _, ed := range e.Graph.Edges {
		g.Edges = append(g.Edges, edge(ed.Src, ed.Dst, ed.W, ed.U-ed.C, byEnds[[2]string{ed.Src, ed.Dst}]))
	}
	for _, t := range ts { // learned beside the graph: discovered, or a manifest's self-loop
		if t.Edge < 0 && t.N > 0 {
			g.Beside = append(g.Beside, edge(t.From, t.To, 0, 0, t))
		}
	}
	return g
}

// FieldsOf is the torus's fields the page draws, of the grid g.
func FieldsOf(g *torusfield.Grid) Fields {
	f := Fields{ThetaBins: g.ThetaBins, PhiBins: g.PhiBins}
	for _, name := range []string{torusfield.FieldEnergy, torusfield.FieldMemory, torusfield.FieldSalience} {
		f.Fields = append(f.Fields, Field{Name: name, Cells: g.Field(name)})
	}
	return f
}

// GoalsOf lists the open goals of gb and the newest closed ones (at most
// MaxGoalsClosed, newest first), with the number of goals.
func GoalsOf(gb *goal.Book) ([]pyjson.Value, int) {
	out := []pyjson.Value{}
	for _, g := range gb.Open {
		out = append(out, g.Value())
	}
	closed := gb.Closed[max(0, len(gb.Closed)-MaxGoalsClosed):]
	for i := len(closed) - 1; i >= 0; i-- {
		out = append(out, closed[i].Value())
	}
	return out, len(gb.Open) + len(gb.Closed)
}

// ObservationsOf is every observation of the book b at now, for the page
// to order.
func ObservationsOf(b *belief.Book, now time.Time) []Observation {
	all := b.Observations()
	out := make([]Observation, len(all))
	for i, o := range all {
		sum := belief.Summary(o, now)
		out[i] = Observation{Current: o.Status.Current(), LastSupported: sum.StrOf("last_supported"), ID: o.ID, Summary: sum}
	}
	return out
}
