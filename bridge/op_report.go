package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/internal/history"
	"github.com/unified-cognitive-substrate/ucs/internal/phrase"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/relevance"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
	"github.com/unified-cognitive-substrate/ucs/outcome"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

var reportSpec = Spec{
	Output:  reportOutput,
	Name:    "report",
	Summary: "Report what you did; the engine learns from it",
	Long: `After every action: the edge from the cursor to the capability used is
reinforced by how it went (without one, the shortest path to it is credited),
and every fifth report runs a φ-cycle that may find new artifacts. A notable
or critical report asks for a reflection and records a judgment node with its
reasoning trace. An action that is no capability is logged, not learned.`,
	Example:  `echo '{"action": "web_fetch", "outcome": "got the pricing page", "success": "success", "significance": "routine"}' | ucs report`,
	Mutating: true,
	Retries:  true,
	Fields: []field.Field{
		{Name: "action", Type: field.String, Required: true, Doc: "the capability you used (a name of the workspace's manifest)"},
		{Name: "outcome", Type: field.String, Text: true, Max: field.TextCap, Doc: "what happened"},
		{Name: "success", Type: field.String, Enum: outcomes, AnyCase: true, Default: "neutral", Doc: "how it went"},
		{Name: "significance", Type: field.String, Enum: significances, Default: "routine",
			Doc: "notable and critical ask for a reflection and record a judgment node"},
		{Name: "context", Type: field.String, Text: true, Max: field.ContextCap, Doc: "the task the action was part of"},
		{Name: "task", Type: field.String, Text: true, Max: field.TaskCap, Doc: "v5: the task the action was part of (consult's task)"},
		{Name: "advisory_id", Type: field.String, Doc: "v3 and later: the consult whose advice this action followed or not (default: the last consult at the same place)"},
		{Name: "reasoning_trace", Type: field.Object, Text: true, Doc: "why you chose it: constraints, alternatives, decisive_factor, ..."},
		{Name: "goal_id", Type: field.String, Doc: "the goal this action works towards (goal add): the outcome moves it, and teaches 1.5 times as much"},
		{Name: "result", Type: field.Object, Text: true, Doc: "the raw result observed: exit_code, duration_ms, timeout_ms, http_status, stdout_bytes, stderr_tail, error, signal, timed_out; classified, it decides the outcome (ucs exec sends it)"},
		{Name: "expect", Type: field.Object, Doc: "with result, what the step is for when its point is to fail: {\"failure\": true} (a non-zero exit is the step's success, exit 0 is neutral) or {\"exit_codes\": [1]} (the exit codes that mean success; ucs exec's --expect-failure and --success-exit send it)"},
	},
	check: checkReport,
	run:   opReport,
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
	msg := s.manifest.Unknown(in.Action, "logged but not reinforced")
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

// reportOutput is the answer of report.
var reportOutput = []field.Output{
	{Name: "cursor_before", Type: field.String, Always: true, Doc: "the capability the agent was at (v5: its task's last step that succeeded, \"\" at the task's start)"},
	{Name: "action", Type: field.String, Always: true, Doc: "the capability reported"},
	{Name: "cursor", Type: field.String, Always: true, Doc: "the capability the agent is at now (v5: its task's last step that succeeded)"},
	{Name: "routed", Type: field.Bool, Always: true, Doc: "the report moved the cursor along the routing graph"},
	{Name: "warning", Type: field.String, Doc: "an unknown capability: the report was logged, not learnt from"},
	{Name: "observation", Type: field.Object, Doc: "the observation the report is evidence for (models v4 and later)"},
	{Name: "goal", Type: field.Object, Doc: "the goal the outcome was attributed to, and whether it changed"},
	{Name: "reinforcement", Type: field.Object, Null: true, Doc: "the edge the outcome reinforced; null when a path or an override was credited instead"},
	{Name: "credited_path", Type: field.Object, Doc: "the reference's model (v2): the path from the cursor the outcome credited"},
	{Name: "policy_override", Type: field.Object, Doc: "no path in the graph: the jump, logged as a policy override"},
	{Name: "learning", Type: field.Object, Doc: "what the learned model (v3 and later) learnt from the outcome"},
	{Name: "phi_fired", Type: field.Bool, Doc: "the engine's phi step ran"},
	{Name: "new_artifacts", Type: field.Objects, Doc: "artifacts the report created"},
	{Name: "methodology_correlations", Type: field.List, Doc: "methodology the outcome bears on"},
	{Name: "reflection_needed", Type: field.Bool, Doc: "a significant outcome: reflect on it (reflection_prompt says how)"},
	{Name: "reflection_prompt", Type: field.Object, Doc: "the questions a reflection answers"},
	{Name: "unannotated_artifacts", Type: field.Objects, Doc: "artifacts awaiting an annotation"},
	{Name: "judgment_node_id", Type: field.String, Doc: "the judgment node recorded with the report's reasoning"},
}

// checkReport checks a report's input before the workspace is opened.
func checkReport(c Call) error {
	if _, err := outcome.DecodeReport(c.Input); err != nil {
		return err
	}
	return taskID("task", c.Input.StrOf("task"))
}
