package relevance

import (
	"slices"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// Advice is what a consult found: where the agent is and the paths to
// take from there, the engine's shortcuts and attractors, and the
// knowledge that fits the context.
type Advice struct {
	Cursor                          string
	Resolved                        []string
	Suggested                       []pyjson.Value
	Wormholes, Attractors           []pyjson.Value
	Methodology, DeadEnds, Judgment []pyjson.Value
	PenaltyOrder                    []string // the penalised capabilities, in the order first penalised
	Penalty                         map[string]float64
	PPHealth                        float64
	Unannotated                     int
	OpenQuestions                   []string
	Context                         []torusfield.NodeEnergy // the context's energy, per capability

	// AdvisoryID names advice remembered for attribution, given with the
	// workspace's Model; Task is the task a v5 advice is for.
	AdvisoryID, Model, Task string
	// LeftOutByPolicy lists the capabilities the policy refused, if any.
	LeftOutByPolicy []pyjson.Value
	// Governs is set for a model that governs knowledge (v4 and later),
	// whose answer tells what it LeftOut and the Observations believed
	// about the context.
	Governs               bool
	LeftOut, Observations pyjson.Value
}

// Members are a consult answer's members, in its order: those every
// answer has (the reference's), then those the model adds when it has
// them.
func (a Advice) Members() []pyjson.Member {
	out := a.reference()
	if a.AdvisoryID != "" {
		out = append(out, pyjson.KV("advisory_id", a.AdvisoryID), pyjson.KV("model", a.Model))
	}
	if a.Task != "" {
		out = append(out, pyjson.KV("task", a.Task))
	}
	if a.LeftOutByPolicy != nil {
		out = append(out, pyjson.KV("left_out_by_policy", a.LeftOutByPolicy))
	}
	if a.Governs {
		out = append(out, pyjson.KV("left_out", a.LeftOut), pyjson.KV("observations", a.Observations))
	}
	return out
}

// reference are the members every consult answer has, in the
// reference's order.
func (a Advice) reference() []pyjson.Member {
	return []pyjson.Member{
		pyjson.KV("cursor", a.Cursor),
		pyjson.KV("resolved_capabilities", a.Resolved),
		pyjson.KV("suggested_paths", a.Suggested),
		pyjson.KV("wormholes", a.Wormholes),
		pyjson.KV("attractors", a.Attractors),
		pyjson.KV("methodology_hits", orEmpty(a.Methodology)),
		pyjson.KV("dead_ends", orEmpty(a.DeadEnds)),
		pyjson.KV("judgment_hits", orEmpty(a.Judgment)),
		pyjson.KV("penalty_applied", Applied(a.PenaltyOrder, a.Penalty)),
		pyjson.KV("pp_health", pyjson.Round(a.PPHealth, 4)),
		pyjson.KV("unannotated_count", a.Unannotated),
		pyjson.KV("open_questions", a.OpenQuestions),
		pyjson.KV("context_boosted", Boosted(a.Context)),
	}
}

// orEmpty is a list of hits, [] for none.
func orEmpty(hits []pyjson.Value) []pyjson.Value {
	if hits == nil {
		return []pyjson.Value{}
	}
	return hits
}

// Pick keeps the members of an answer an agent asked for (and the cursor
// and advisory id, which every use of the answer needs), in the answer's
// order.
func Pick(out []pyjson.Member, want []string) pyjson.Value {
	var kept []pyjson.Member
	for _, m := range out {
		if slices.Contains(want, m.Key) || m.Key == "cursor" || m.Key == "advisory_id" {
			kept = append(kept, m)
		}
	}
	return pyjson.ObjectValue(kept)
}
