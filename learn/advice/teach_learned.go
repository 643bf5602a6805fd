package advice

import (
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// TeachLearned applies a rating or an amendment of a past report to a
// learned model (v3, v4: learn.State.Reteach): the step from from (which
// the agent reached from came) to action, in the report's context. It
// returns what it taught as rate and amend answer it; TeachLine is v5's.
func TeachLearned(v *learn.State, g *torusfield.Graph, man *torusfield.Manifest, context, came, from, action, success string, weight float64, clock int64, retract bool) pyjson.Value {
	pb, pa := v.Reteach(g, man, learn.Terms(context), came, from, action, success, weight, clock, retract)
	return pyjson.Obj(pyjson.KV("transition", from+" → "+action), pyjson.KV("retracted", retract),
		pyjson.KV("p_before", pyjson.Round(pb.P, 4)), pyjson.KV("p_after", pyjson.Round(pa.P, 4)),
		pyjson.KV("evidence_after", pyjson.Obj(pyjson.KV("successes", pyjson.Round(pa.Evidence.S, 2)), pyjson.KV("of", pyjson.Round(pa.Evidence.N, 2)))))
}

// TeachReference applies a rating or an amendment of a past report to the
// reference's model (v2), the engine's graph: the edge from from to
// action is credited m's reward of success, as a report would. That model
// cannot take an outcome back, so a retraction teaches nothing, and
// neither does a step the graph has no edge for.
func TeachReference(e *torusfield.Engine, m *Model, from, action, success string, retract bool) pyjson.Value {
	if retract {
		return pyjson.Obj(pyjson.KV("transition", from+" → "+action), pyjson.KV("retracted", false),
			pyjson.KV("note", "the reference's model cannot take an outcome back"))
	}
	if ei := e.Graph.Find(from, action); ei >= 0 {
		return e.Credit(ei, m.Reward(success, e.Graph.Edges[ei].U), 1).Value(e)
	}
	return pyjson.Obj(pyjson.KV("transition", from+" → "+action), pyjson.KV("note", "no edge: nothing reinforced"))
}
