package bridge

import (
	"slices"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/relevance"
	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// Tuning of the bridge, the reference's defaults.
const (
	consultWarmup        = 15   // θ-step warm-up of the energy field on consult
	reportMagnitude      = 1.0  // energy injected at a reported action
	phiReportInterval    = 5    // reports between φ-cycles
	advisoryTopN         = 6    // suggested paths per consult
	openQuestionsConsult = 500  // characters of open questions a consult shows
	openQuestionsResume  = 1000 // characters of open questions a resume shows
)

var consultSpec = Spec{
	Output:  consultOutput,
	Name:    "consult",
	Summary: "Before a significant task: suggested paths, methodology, dead ends, judgment",
	Long: `Advises before acting: energizes the capabilities the context evokes (and those
named with --capabilities), scores the paths leaving the cursor, and finds the
methodology, dead ends and judgment nodes that fit. The advisory suggests; the
agent decides.

With --from CAPABILITY (or, v5, --task-start) it ranks the next steps at that
position instead of the agent's: a look that changes nothing (no warm-up, no
advisory_id, nothing journaled), to see the advice anywhere along a task.`,
	Peers:    true, // it ranks the fleet's knowledge beside its own
	Example:  "ucs consult --context \"research competitor pricing on the web\"\nucs consult --context \"research pricing\" --capabilities web_fetch,read\nucs consult --context \"fix the failing test\" --from edit",
	Mutating: true, // its warm-up steps move the engine on
	Fields: []field.Field{
		{Name: "context", Type: field.String, Required: true, Flag: true, Text: true, Max: field.ContextCap, Doc: "the task or situation"},
		{Name: "capabilities", Type: field.Strings, Flag: true, Doc: "capability names to energize besides those the context evokes"},
		{Name: "task", Type: field.String, Flag: true, Text: true, Max: field.TaskCap, Doc: "v5: the task this step is part of, an id you choose: a task not seen before starts at its start (default: the context tells tasks apart)"},
		{Name: "from", Type: field.String, Flag: true, Max: field.PhraseCap, Doc: "rank the next steps as if the agent stood at this capability (read-only: nothing is remembered, committed or journaled)"},
		{Name: "task_start", Type: field.Bool, Flag: true, Doc: "v5: rank the first steps of the task (read-only, as --from)"},
		{Name: "greedy", Type: field.Bool, Flag: true, Doc: "v3 and later: rank by the estimate alone, without the exploration bonus (v5: and without dead ends' penalty): a probe, whose top suggestion the next report is not counted as following"},
		{Name: "fields", Type: field.Strings, Flag: true, Doc: "only these parts of the answer, e.g. suggested_paths,dead_ends (cursor and advisory_id always)"},
	},
	check: func(c Call) error {
		if err := taskID("task", c.Args.StrOf("task")); err != nil {
			return err
		}
		if c.Args.StrOf("from") != "" && argBool(c, "task_start") {
			return badInput(fault.CodeInvalidValue, "give --from CAPABILITY or --task-start, not both",
				"--from and --task-start name two positions")
		}
		for _, w := range c.Args.StrsOf("fields") {
			if !slices.Contains(consultParts, w) {
				return badInput(fault.CodeInvalidValue, "consult's parts are "+strings.Join(consultParts, ", "),
					"--fields names %s, which a consult answer does not have", pyjson.Quote(w))
			}
		}
		return nil
	},
	readOnly: positioned,
	run:      opConsult,
}

// opConsult advises before an action (consultSpec's arguments): the
// engine's routing and the learned suggestions, with what the workspace
// knows about the context (package relevance).
func opConsult(s *session, c Call) (pyjson.Value, error) {
	context, task, greedy := c.Args.StrOf("context"), c.Args.StrOf("task"), argBool(c, "greedy")
	from, positioned := c.Args.StrOf("from"), positioned(c)
	if argBool(c, "task_start") {
		from = nextstep.Start // as if the agent began the task (advice.Advisor.AdviseAt)
	}
	if err := s.place().CheckPosition(s.meta.Model, c.Args.StrOf("from"), argBool(c, "task_start")); err != nil {
		return pyjson.Value{}, err
	}
	b, err := s.consultBasis(c)
	if err != nil {
		return pyjson.Value{}, err
	}
	e := s.engine
	if !positioned { // advice at a position is a look, not a step of the engine
		e.Warm(consultWarmup)
	}
	anns, err := s.annotations()
	if err != nil {
		return pyjson.Value{}, err
	}
	lv, m, err := s.models()
	if err != nil {
		return pyjson.Value{}, err
	}
	cursor := e.Cursor.Node
	var top []pyjson.Value
	var advisoryID string
	switch {
	case positioned:
		cursor = from
		top, err = s.adviceAt(task, context, from, b, greedy)
	case m != nil:
		// Where the agent is in its task (v5): its last step that
		// succeeded, "" at the task's start.
		cursor = s.learning.Steps.TaskEpisode(task, context).At
		top, advisoryID = s.advisor().SuggestSteps(s.learning.Steps, m, task, context, b.Penalty, greedy)
		err = modelErr(m)
	case lv != nil:
		top, advisoryID, err = s.suggestLearned(context, b.Penalty, !greedy)
	default:
		top = s.routes(anns, cursor, b)
	}
	if err != nil {
		return pyjson.Value{}, err
	}
	a := relevance.Advice{Cursor: cursor, Suggested: top, PPHealth: e.PP.Health(), AdvisoryID: advisoryID, Model: s.meta.Model,
		Wormholes: relevance.Enrich(e, anns, torusfield.KindWormhole, 5), Attractors: relevance.Enrich(e, anns, torusfield.KindAttractor, 3),
		LeftOutByPolicy: s.leftOut}
	if err := b.Complete(e, &a, judgmentWindow); err != nil {
		return pyjson.Value{}, err
	}
	if a.OpenQuestions, err = relevance.OpenQuestions(s.ws, openQuestionsConsult, true); err != nil {
		return pyjson.Value{}, internal(err, "list working state")
	}
	unannotated, err := s.unannotated()
	if err != nil {
		return pyjson.Value{}, err
	}
	a.Unannotated = len(unannotated)
	if s.model.NextSteps() {
		a.Task = task
	}
	if a.Governs {
		if a.Observations, err = s.observationContext(context); err != nil {
			return pyjson.Value{}, err
		}
		s.rememberContext(advisoryID, a.Observations)
	}
	out := a.Members()
	if want := c.Args.StrsOf("fields"); len(want) > 0 {
		return relevance.Pick(out, want), nil // the spec's check refused any other name
	}
	return pyjson.ObjectValue(out), nil
}

// consultBasis reads what a consult call's advice rests on
// (relevance.Source.Basis): its task's capabilities, their energy, the
// dead ends and their penalty.
func (s *session) consultBasis(c Call) (relevance.Basis, error) {
	resolved, err := s.taskCapabilities(c)
	if err != nil {
		return relevance.Basis{}, err
	}
	return s.knowledge().Basis(s.engine, c.Args.StrOf("context"), resolved, s.model, s.place())
}

// taskCapabilities are the capabilities a call's task uses
// (relevance.Source.Resolve): those its "context" evokes and those its
// "capabilities" name (a name the manifest lacks is ignored, with a
// warning), as consult and coverage resolve them.
func (s *session) taskCapabilities(c Call) ([]string, error) {
	explicit := c.Args.StrsOf("capabilities")
	for _, name := range explicit {
		if !s.manifest.Has(name) {
			s.warn(s.manifest.Unknown(name, "ignored"))
		}
	}
	return s.knowledge().Resolve(c.Args.StrOf("context"), explicit)
}

// consultParts are the members a consult answer may have.
var consultParts = []string{"cursor", "resolved_capabilities", "suggested_paths", "wormholes", "attractors",
	"methodology_hits", "dead_ends", "judgment_hits", "penalty_applied", "pp_health", "unannotated_count",
	"open_questions", "context_boosted", "advisory_id", "model", "left_out_by_policy", "left_out", "observations", "warnings"}

// consultOutput is the answer of consult.
var consultOutput = []field.Output{
	{Name: "cursor", Type: field.String, Always: true, Doc: "the capability the agent is at (v5: its task's last step that succeeded, \"\" at the task's start)"},
	{Name: "resolved_capabilities", Type: field.Strings, Doc: "the capabilities the context and the given capabilities resolve to"},
	{Name: "suggested_paths", Type: field.Objects, Doc: "the paths to take from the cursor, best first, with their scores"},
	{Name: "wormholes", Type: field.Objects, Doc: "shortcuts the engine found between capabilities"},
	{Name: "attractors", Type: field.Objects, Doc: "capabilities the engine keeps returning to"},
	{Name: "methodology_hits", Type: field.Objects, Doc: "methodology (reflections) relevant to the context"},
	{Name: "dead_ends", Type: field.Objects, Doc: "approaches recorded as dead ends for the context: do not retry them"},
	{Name: "judgment_hits", Type: field.Objects, Doc: "judgment nodes (earlier outcomes and their reasoning) relevant to the context"},
	{Name: "penalty_applied", Type: field.Object, Doc: "the capabilities penalised by recent failures, and by how much"},
	{Name: "pp_health", Type: field.Number, Doc: "the health of the engine's PP vector, 0 to 1"},
	{Name: "unannotated_count", Type: field.Int, Doc: "artifacts awaiting an annotation (reflect with an artifact_id)"},
	{Name: "open_questions", Type: field.List, Doc: "questions the memory cannot answer yet"},
	{Name: "context_boosted", Type: field.Object, Doc: "the capabilities the context boosted, with their energy"},
	{Name: "advisory_id", Type: field.String, Doc: "this advice's id: attach it to the report of the action that follows it (absent when the call is not recorded as advice)"},
	{Name: "model", Type: field.String, Doc: "the workspace's learning model (v2 to v5), beside advisory_id"},
	{Name: "task", Type: field.String, Doc: "v5: the task the advice is for, as given (the MCP server makes it the session's task)"},
	{Name: "left_out_by_policy", Type: field.Objects, Doc: "capabilities the policy refuses, left out of the advice, and why"},
	{Name: "left_out", Type: field.Object, Doc: "knowledge a model that governs knowledge (v4 and later) left out: how many entries of each kind"},
	{Name: "observations", Type: field.Object, Doc: "a model that governs knowledge (v4 and later): the observations believed about the context"},
}
