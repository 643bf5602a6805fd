package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/contract"
	"github.com/unified-cognitive-substrate/ucs/internal/history"
	"github.com/unified-cognitive-substrate/ucs/internal/phrase"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/relevance"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
	"github.com/unified-cognitive-substrate/ucs/outcome"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

var reportSpec = Spec{
	Op:  contract.Report,
	run: opReport,
}

// opReport learns from an action the agent took (stdin: action, outcome,
// success, significance, context, reasoning_trace). The edge from the
// cursor to the action is reinforced; without one, the shortest path is
// credited instead, and only without any path is the jump logged as a
// policy override. Energy is injected at the action, the cursor moves, and
// every fifth report runs a φ-cycle.
func opReport(s *session, c Call) (pyjson.Value, error) {
	in, err := outcome.DecodeReport(c.Input)
	if err != nil {
		return pyjson.Value{}, err
	}
	e := s.engine
	before := e.Cursor.Node
	if s.model.NextSteps() {
		// Where the agent is, as v5 follows it: the task's last step that
		// succeeded, or none at the task's start (never a step that
		// failed, nor another task's last step).
		v, err := s.steps()
		if err != nil {
			return pyjson.Value{}, err
		}
		before = v.TaskEpisode(c.Input.StrOf("task"), in.Context).At
	}
	if !s.manifest.Has(in.Action) {
		return reportUnknown(s, in, before)
	}
	// The outcome: observed (a raw result, classified) or told; and the
	// goal it moves. Both change how much the report teaches.
	observation, status, confidence, err := s.observe(&in)
	if err != nil {
		return pyjson.Value{}, err
	}
	var goalMember pyjson.Value
	if in.GoalID != "" {
		var factor float64
		if goalMember, factor, err = s.attributeGoal(in.GoalID, in.Action, status, confidence); err != nil {
			return pyjson.Value{}, err
		}
		in.Weight *= factor
	}
	out := []pyjson.Member{pyjson.KV("cursor_before", before), pyjson.KV("action", in.Action)}
	if in.HasResult {
		out = append(out, pyjson.KV("observation", observation))
	}
	if in.GoalID != "" {
		out = append(out, pyjson.KV("goal", goalMember))
	}

	credit := e.CreditReport(before, in.Action, outcome.Status(in.Success).Reward(),
		func(u float64) float64 { return s.model.Reward(in.Success, u) })
	if credit.Override {
		if err := s.override(before, in.Action, "no_direct_edge"); err != nil {
			return pyjson.Value{}, err
		}
	}
	out = append(out, credit.Members(e)...)
	r, routed := credit.Reward, credit.Routed
	var edgeLabel any
	if routed {
		edgeLabel = before + " → " + in.Action
	}

	if lv, ok, err := s.learnOutcome(in, before, c.Input); err != nil {
		return pyjson.Value{}, err
	} else if ok {
		out = append(out, pyjson.KV("learning", lv))
	}

	e.Act(in.Action, reportMagnitude)
	after := in.Action
	if v := s.learning.Steps; v != nil {
		after = v.Current().At // v5: a failed step leaves the agent where it was
	}
	out = append(out, pyjson.KV("cursor", after), pyjson.KV("routed", routed))

	newArtifacts := []pyjson.Value{}
	s.meta.ReportCounter++
	phiFired := s.meta.ReportCounter >= phiReportInterval
	if phiFired {
		s.meta.ReportCounter = 0
		e.PhiCycle()
		s.meta.LastPhiT = e.Grid.T
		ids, err := s.unannotated()
		if err != nil {
			return pyjson.Value{}, err
		}
		newArtifacts = e.DescribeArtifacts(ids, true)
	}
	out = append(out, pyjson.KV("phi_fired", phiFired), pyjson.KV("new_artifacts", newArtifacts))
	if corr, err := s.correlate(newArtifacts); err != nil {
		return pyjson.Value{}, err
	} else if len(corr) > 0 {
		out = append(out, pyjson.KV("methodology_correlations", corr))
	}

	reflect := knowledge.Significant(in.Significance)
	out = append(out, pyjson.KV("reflection_needed", reflect))
	if reflect {
		out = append(out, pyjson.KV("reflection_prompt", knowledge.ReflectionPrompt(in.Significance, in.Action, in.Outcome, in.Success)))
	}
	if ids, err := s.unannotated(); err != nil {
		return pyjson.Value{}, err
	} else if len(ids) > 0 && len(newArtifacts) == 0 {
		out = append(out, pyjson.KV("unannotated_artifacts", e.DescribeArtifacts(ids[:min(3, len(ids))], false)))
	}

	logEntry := s.actionLogEntry(in, pyjson.Round(r, 4), edgeLabel, before, in.Action, routed)
	if in.HasReasoning {
		logEntry = logEntry.With("reasoning", in.Reasoning)
	}
	if err := s.add(relActionLog, logEntry); err != nil {
		return pyjson.Value{}, err
	}
	if in.HasReasoning || reflect {
		id, err := s.judgmentNode(in, before, r)
		if err != nil {
			return pyjson.Value{}, err
		}
		out = append(out, pyjson.KV("judgment_node_id", id))
	}
	return pyjson.ObjectValue(out), nil
}

// reportUnknown handles an action that is not a capability of the manifest:
// logged and recorded as a policy override, not reinforced; nothing moves.
func reportUnknown(s *session, in outcome.Report, before string) (pyjson.Value, error) {
	msg := unknownCapability(s, in.Action, "logged but not reinforced")
	s.warn(msg)
	if err := s.override(before, in.Action, "unknown_capability"); err != nil {
		return pyjson.Value{}, err
	}
	if err := s.add(relActionLog, s.actionLogEntry(in, 0, nil, before, before, false)); err != nil {
		return pyjson.Value{}, err
	}
	return pyjson.Obj(
		pyjson.KV("cursor_before", before),
		pyjson.KV("action", in.Action),
		pyjson.KV("warning", "Unknown capability '"+in.Action+"'. Logged but not reinforced."),
		pyjson.KV("cursor", before),
		pyjson.KV("routed", false),
	), nil
}

// actionLogEntry is a report's line in the action log: the reward it
// earned, the edge it took (nil for none) and where the cursor was before
// and after.
func (s *session) actionLogEntry(in outcome.Report, reward, edge any, before, after string, routed bool) pyjson.Value {
	l := history.ActionLine{T: s.engine.Grid.T, Timestamp: pyjson.ISOTime(s.now), Action: in.Action, Outcome: in.Outcome,
		Success: in.Success, Significance: in.Significance, Reward: reward, Edge: edge, Before: before, After: after,
		Routed: routed, Weight: in.Weight, GoalID: in.GoalID, Observed: in.HasResult, LearnedAfter: s.learning.After}
	if s.learning.StepLearned != nil {
		l.Step, l.HasStep = s.learning.StepLearned.Value(), true
	}
	return l.Value()
}

// override records a jump the graph did not offer.
func (s *session) override(from, to, reason string) error {
	return s.add(relOverrides, history.Override(s.engine.Grid.T, pyjson.ISOTime(s.now), from, to, reason))
}

// correlate suggests, for each new wormhole, methodology entries about its
// two capabilities, so the agent can explain the shortcut.
func (s *session) correlate(newArtifacts []pyjson.Value) ([]pyjson.Value, error) {
	var out []pyjson.Value
	for _, a := range newArtifacts {
		if a.StrOf("kind") != torusfield.KindWormhole {
			continue
		}
		from, to := a.StrOf("from"), a.StrOf("to")
		var caps []string
		for _, c := range []string{from, to} {
			if c != "" {
				caps = append(caps, c)
			}
		}
		hits, err := s.methodologyByCaps(knowledge.Query{Capabilities: caps, Now: s.now,
			DecayRate: relevance.DecayRate, StructuralWeight: relevance.StructuralWeight, Max: 2})
		if err != nil {
			return nil, err
		}
		if len(hits) == 0 {
			continue
		}
		out = append(out, knowledge.WormholeCorrelation(a.StrOf("id"), from, to, hits))
	}
	return out, nil
}

// judgmentNode stores the decision as a judgment node with a routing
// snapshot for structural retrieval.
func (s *session) judgmentNode(in outcome.Report, before string, r float64) (string, error) {
	paths, err := s.scorePaths(in.Action, nil, nil)
	if err != nil {
		return "", err
	}
	node := knowledge.JudgmentNode(knowledge.Decision{Date: isoDate(s.now), Timestamp: pyjson.ISOTime(s.now), AgentID: s.meta.AgentID,
		Context: in.Context, CursorBefore: before, Action: in.Action, Outcome: in.Outcome, Success: in.Success,
		Significance: in.Significance, Summary: phrase.RunePrefix(in.Outcome, 200), Reward: pyjson.Round(r, 4),
		Reasoning: in.Reasoning, HasReasoning: in.HasReasoning,
		Routing: relevance.RoutingSnapshot(s.engine, in.Action, paths[:min(5, len(paths))], nil, nil, nil)})
	return s.addEntry(relJudgment, node)
}
