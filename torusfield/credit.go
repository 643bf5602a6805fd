package torusfield

import (
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// A Credit is the reinforcement of one edge by an outcome.
type Credit struct {
	Edge                          int
	OldW, NewW, Reward, Cost, Net float64
}

// Credit reinforces edge ei with reward, its learning step divided by
// share (the length of the credited path; 1 for a direct edge), so a path
// as a whole learns as much as one edge would.
func (e *Engine) Credit(ei int, reward float64, share int) Credit {
	edge := e.Graph.Edges[ei]
	c := Credit{Edge: ei, Reward: reward, Cost: edge.C}
	c.Net = c.Reward - c.Cost
	lr := e.ReinforceLR
	e.ReinforceLR = lr / float64(share)
	c.OldW, c.NewW, _ = e.Reinforce(ei, c.Reward, c.Cost)
	e.ReinforceLR = lr
	return c
}

// Value is the credit as a report's answer shows it, numbers rounded to 4.
func (c Credit) Value(e *Engine) pyjson.Value {
	edge := e.Graph.Edges[c.Edge]
	return pyjson.Obj(
		pyjson.KV("edge", edge.Src+" → "+edge.Dst),
		pyjson.KV("edge_index", c.Edge),
		pyjson.KV("old_w", pyjson.Round(c.OldW, 4)),
		pyjson.KV("new_w", pyjson.Round(c.NewW, 4)),
		pyjson.KV("reward", pyjson.Round(c.Reward, 4)),
		pyjson.KV("cost", pyjson.Round(c.Cost, 4)),
		pyjson.KV("net", pyjson.Round(c.Net, 4)),
	)
}

// A ReportCredit is what a reported step from one capability to another
// taught the graph: its direct edge, else the shortest path to it, else
// nothing (a jump the graph did not offer: a policy override).
type ReportCredit struct {
	From, To string
	// Routed says the graph has the edge From → To: Credits is its one
	// credit.
	Routed bool
	// Path says Credits are the edges of the shortest path From ⇝ To.
	Path    bool
	Credits []Credit
	// Override says no path leads from From to To (From is no start).
	Override bool
	// Reward is the reward the report earned: the edge into To's, or the
	// outcome's base reward when no edge was credited.
	Reward float64
}

// CreditReport credits a reported step from → to with an outcome:
// the edge from → to when the graph has it; else, each edge of the
// shortest path, its step divided by the path's length; else none. A step
// from "" (a task's first, which comes from no capability) credits nothing
// and is no override. reward is the model's reward of the outcome on an
// edge of utility u, and base the outcome's reward where no edge is
// credited (the engine does not know outcomes: package outcome does).
func (e *Engine) CreditReport(from, to string, base float64, reward func(u float64) float64) ReportCredit {
	rc := ReportCredit{From: from, To: to}
	if ei := e.Graph.Find(from, to); ei >= 0 {
		c := e.Credit(ei, reward(e.Graph.Edges[ei].U), 1)
		rc.Routed, rc.Credits, rc.Reward = true, []Credit{c}, c.Reward
		return rc
	}
	rc.Reward = base
	if from == "" {
		return rc
	}
	path := e.Graph.ShortestPath(from, to)
	if path == nil {
		rc.Override = true
		return rc
	}
	rc.Path = true
	for _, ei := range path {
		c := e.Credit(ei, reward(e.Graph.Edges[ei].U), len(path))
		rc.Credits = append(rc.Credits, c)
		rc.Reward = c.Reward // the edge into the action speaks for the report
	}
	return rc
}

// Members are the credit as a report's answer shows it: reinforcement (the
// edge's credit, or null), then credited_path or policy_override.
func (rc ReportCredit) Members(e *Engine) []pyjson.Member {
	switch {
	case rc.Routed:
		return []pyjson.Member{pyjson.KV("reinforcement", rc.Credits[0].Value(e))}
	case rc.Path:
		credited := make([]pyjson.Value, len(rc.Credits))
		for i, c := range rc.Credits {
			credited[i] = c.Value(e)
		}
		return []pyjson.Member{pyjson.KV("reinforcement", nil), pyjson.KV("credited_path", pyjson.Obj(
			pyjson.KV("from", rc.From), pyjson.KV("to", rc.To),
			pyjson.KV("length", len(rc.Credits)), pyjson.KV("scale", 1/float64(len(rc.Credits))),
			pyjson.KV("edges", credited),
		))}
	case rc.Override:
		return []pyjson.Member{pyjson.KV("reinforcement", nil), pyjson.KV("policy_override", pyjson.Obj(
			pyjson.KV("from", rc.From), pyjson.KV("to", rc.To),
			pyjson.KV("reason", "No path in the graph. Jump logged as policy override."),
		))}
	}
	return []pyjson.Member{pyjson.KV("reinforcement", nil)}
}
