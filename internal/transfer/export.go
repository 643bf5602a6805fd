package transfer

import (
	"math"
	"strconv"

	"github.com/unified-cognitive-substrate/ucs/belief"
	"github.com/unified-cognitive-substrate/ucs/goal"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// A Source is what a package is built from: the workspace's engine and
// knowledge as the exporting call sees them.
type Source struct {
	Engine      *torusfield.Engine
	ExportedAt  string // RFC 3339
	AgentID     string
	Annotations func() (map[string]pyjson.Value, error) // by artifact id
	// Window returns the latest n entries of a knowledge list, as their
	// text: entries are only written out, so they are decoded one at a
	// time as the package is printed.
	Window func(rel string, n int) (pyjson.Value, error)
	// JudgmentWindow and OverridesWindow are how many of the latest
	// judgment nodes and policy overrides the package carries.
	JudgmentWindow, OverridesWindow int
	// Governs says the workspace's model governs its knowledge (v4 and
	// later): the package carries its observations, goals and Markdown
	// files (governed).
	Governs  bool
	Book     func() (*belief.Book, error)
	Goals    func() (*goal.Book, error)
	ReadFile func(rel string) ([]byte, error)
	// Head names the workspace's model and manifest for the model member,
	// whose state is Steps' (v5) or Learned's (v3, v4); neither is set
	// for the reference's model, which exports no model member.
	Head    Head
	Steps   func() (*advice.Steps, error)
	Learned func() (*learn.State, error)
	Tx      *workspace.Tx // the records of a v5 model
}

// Build returns the package of a workspace: the members the reference
// writes (judgment nodes, methodology, dead ends, annotated artifacts,
// the learned routing graph, policy biases and PP history), then its
// governed knowledge and its model member.
func Build(src Source) (pyjson.Value, error) {
	pkg, err := src.reference()
	if err != nil {
		return pyjson.Value{}, err
	}
	if src.Governs {
		b, err := src.Book()
		if err != nil {
			return pyjson.Value{}, err
		}
		gb, err := src.Goals()
		if err != nil {
			return pyjson.Value{}, err
		}
		if pkg, err = governed(pkg, b, gb, src.ReadFile); err != nil {
			return pyjson.Value{}, err
		}
	}
	var m pyjson.Value
	switch {
	case src.Steps != nil:
		v, err := src.Steps()
		if err == nil {
			m, err = exportSteps(src.Head, v, src.Tx)
		}
		if err != nil {
			return pyjson.Value{}, err
		}
	case src.Learned != nil:
		v, err := src.Learned()
		if err == nil {
			m, err = exportLearned(src.Head, v)
		}
		if err != nil {
			return pyjson.Value{}, err
		}
	default:
		return pkg, nil
	}
	return pkg.With(ModelMember, m), nil
}

// reference is the package as the reference writes it.
func (src Source) reference() (pyjson.Value, error) {
	e := src.Engine
	lists := map[string]pyjson.Value{}
	for _, w := range []struct {
		rel string
		n   int
	}{{workspace.RelJudgment, src.JudgmentWindow}, {workspace.RelMethodology, math.MaxInt}, {workspace.RelDeadEnds, math.MaxInt},
		{workspace.RelPPHistory, 100}, {workspace.RelOverrides, src.OverridesWindow}} {
		v, err := src.Window(w.rel, w.n)
		if err != nil {
			return pyjson.Value{}, err
		}
		lists[w.rel] = v
	}
	anns, err := src.Annotations()
	if err != nil {
		return pyjson.Value{}, err
	}
	arts := []pyjson.Member{}
	for _, a := range e.Artifacts.All() {
		ann, ok := anns[a.ID]
		if !ok {
			ann = pyjson.NullValue()
		}
		arts = append(arts, pyjson.KV(a.ID, pyjson.Obj(
			pyjson.KV("kind", a.Kind), pyjson.KV("payload", a.Payload), pyjson.KV("score", pyjson.Round(a.Score, 4)),
			pyjson.KV("created_t", a.CreatedT), pyjson.KV("annotation", ann))))
	}
	edges := make([]pyjson.Value, len(e.Graph.Edges))
	for i, ed := range e.Graph.Edges {
		edges[i] = pyjson.Obj(pyjson.KV("src", ed.Src), pyjson.KV("dst", ed.Dst), pyjson.KV("w", pyjson.Round(ed.W, 6)),
			pyjson.KV("u", pyjson.Round(ed.U, 4)), pyjson.KV("c", pyjson.Round(ed.C, 4)), pyjson.KV("n", pyjson.Round(ed.N, 4)))
	}
	biases := []pyjson.Member{}
	e.Policy.Biases(func(ei int, b float64) { biases = append(biases, pyjson.KV(strconv.Itoa(ei), pyjson.Round(b, 6))) })
	return pyjson.Obj(
		pyjson.KV("format", Format),
		pyjson.KV("exported_at", src.ExportedAt),
		pyjson.KV("agent_id", src.AgentID),
		pyjson.KV("schema_version", "2.0"),
		pyjson.KV("judgment_nodes", lists[workspace.RelJudgment]),
		pyjson.KV("methodology", lists[workspace.RelMethodology]),
		pyjson.KV("dead_ends", lists[workspace.RelDeadEnds]),
		pyjson.KV("artifacts", arts),
		pyjson.KV("routing_graph", pyjson.Obj(pyjson.KV("nodes", e.Graph.Nodes), pyjson.KV("edges", edges))),
		pyjson.KV("policy_biases", biases),
		pyjson.KV("pp_vector", e.PP.Rounded()),
		pyjson.KV("pp_health", pyjson.Round(e.PP.Health(), 4)),
		pyjson.KV("pp_history", lists[workspace.RelPPHistory]),
		pyjson.KV("policy_overrides", lists[workspace.RelOverrides]),
		pyjson.KV("engine_t", e.Grid.T),
		pyjson.KV("cursor", e.Cursor.Node),
	), nil
}
