package transfer

import (
	"math"
	"strconv"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// A Source is what a package is built from: the workspace's engine and
// knowledge as the exporting call sees them.
type Source struct {
	Engine      *torusfield.Engine
	ExportedAt  string // RFC 3339
	AgentID     string
	Annotations map[string]pyjson.Value // by artifact id
	// Window returns the latest n entries of a knowledge list, as their
	// text: entries are only written out, so they are decoded one at a
	// time as the package is printed.
	Window func(rel string, n int) (pyjson.Value, error)
	// JudgmentWindow and OverridesWindow are how many of the latest
	// judgment nodes and policy overrides the package carries.
	JudgmentWindow, OverridesWindow int
}

// Build returns the package the reference writes: judgment nodes,
// methodology, dead ends, annotated artifacts, the learned routing graph,
// policy biases and PP history. The governed knowledge (Governed) and the
// model member (ExportSteps, ExportLearned) are added to it.
func Build(src Source) (pyjson.Value, error) {
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
	arts := []pyjson.Member{}
	for _, a := range e.Artifacts.All() {
		ann, ok := src.Annotations[a.ID]
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
