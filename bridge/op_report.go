package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/contract"
	"github.com/unified-cognitive-substrate/ucs/internal/history"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/relevance"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
	"github.com/unified-cognitive-substrate/ucs/outcome"
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
	out = append(out, pyjson.KV("cursor", after), pyjson.KV("routed", credit.Routed))

	newArtifacts, corr := []pyjson.Value{}, []pyjson.Value(nil)
	var phiFired bool
	if s.meta.ReportCounter, phiFired = e.CountReport(s.meta.ReportCounter); phiFired {
		s.meta.LastPhiT = e.Grid.T
		ids, err := s.unannotated()
		if err != nil {
			return pyjson.Value{}, err
		}
		newArtifacts = e.DescribeArtifacts(ids, true)
		if corr, err = s.knowledge().Correlations(newArtifacts); err != nil {
			return pyjson.Value{}, err
		}
	}
	out = append(out, pyjson.KV("phi_fired", phiFired), pyjson.KV("new_artifacts", newArtifacts))
	if len(corr) > 0 {
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

	line := history.ReportLine(in, e.Grid.T, pyjson.ISOTime(s.now), &s.learning)
	line.Reward, line.Before, line.After, line.Routed = pyjson.Round(credit.Reward, 4), before, in.Action, credit.Routed
	if credit.Routed {
		line.Edge = before + " → " + in.Action
	}
	line.Reasoning, line.HasReasoning = in.Reasoning, in.HasReasoning
	if err := s.add(workspace.RelActionLog, line.Value()); err != nil {
		return pyjson.Value{}, err
	}
	if in.HasReasoning || reflect {
		// The decision, with the routing at the action for structural
		// retrieval.
		anns, err := s.annotations()
		if err != nil {
			return pyjson.Value{}, err
		}
		d := knowledge.ReportDecision(in, before, credit.Reward, s.now, s.meta.AgentID, relevance.RoutingAt(e, anns, in.Action, 0))
		id, err := s.addEntry(workspace.RelJudgment, knowledge.JudgmentNode(d))
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
	msg := s.manifest.Unknown(in.Action, "logged but not reinforced")
	s.warn(msg)
	if err := s.override(before, in.Action, "unknown_capability"); err != nil {
		return pyjson.Value{}, err
	}
	line := history.ReportLine(in, s.engine.Grid.T, pyjson.ISOTime(s.now), &s.learning)
	line.Before, line.After = before, before
	if err := s.add(workspace.RelActionLog, line.Value()); err != nil {
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

// override records a jump the graph did not offer.
func (s *session) override(from, to, reason string) error {
	return s.add(workspace.RelOverrides, history.Override(s.engine.Grid.T, pyjson.ISOTime(s.now), from, to, reason))
}
