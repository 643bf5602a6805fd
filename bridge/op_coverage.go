package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/relevance"
)

// coverage tells how ready the memory is for a task before the agent
// starts it (relevance.Coverage). It reads only: no warm-up steps, no
// advisory, nothing journaled.

var coverageSpec = Spec{
	Output:  coverageOutput,
	Name:    "coverage",
	Summary: "How ready the memory is for a task: a score, the gaps, a recommendation",
	Long: `Reads what consult would find for the task (the capabilities it evokes, the
methodology, judgment and dead ends that fit) and how many outcomes of those
capabilities were reported, without moving the engine or recording anything.
The score (0 to 1) averages knowledge (hits, full at 3) and experience (the
mean over the capabilities of their outcomes, full at 5; a v2 workspace keeps
no such counts and scores knowledge alone).`,
	Peers:   true, // the fleet's knowledge counts too
	Example: "ucs coverage --context \"deploy the staging cluster\"\nucs coverage --context \"research pricing\" --capabilities web_fetch",
	Fields: []field.Field{
		{Name: "context", Type: field.String, Required: true, Flag: true, Text: true, Max: field.ContextCap, Doc: "the task"},
		{Name: "capabilities", Type: field.Strings, Flag: true, Doc: "capability names the task uses besides those the context evokes"},
	},
	run: opCoverage,
}

// opCoverage measures the memory's coverage of a task (coverageSpec):
// the knowledge found as consult finds it, and the outcomes the model
// learnt of the task's capabilities (relevance.Coverage).
func opCoverage(s *session, c Call) (pyjson.Value, error) {
	context := c.Args.StrOf("context")
	resolved, err := s.taskCapabilities(c)
	if err != nil {
		return pyjson.Value{}, err
	}
	found, err := s.knowledge().Found(context, resolved, s.model.GovernsKnowledge(), judgmentWindow)
	if err != nil {
		return pyjson.Value{}, err
	}
	v, m, err := s.models()
	if err != nil {
		return pyjson.Value{}, err
	}
	return relevance.Coverage(context, resolved, found, s.place().Outcomes(v, m, s.engine.Cursor.Node, context)), nil
}

// coverageOutput is the answer of coverage.
var coverageOutput = []field.Output{
	{Name: "context", Type: field.String, Always: true, Doc: "the task, as given"},
	{Name: "score", Type: field.Number, Always: true, Doc: "how ready the memory is for the task, 0 to 1"},
	{Name: "resolved_capabilities", Type: field.Strings, Always: true, Doc: "the capabilities the task resolves to"},
	{Name: "knowledge", Type: field.Object, Always: true, Doc: "the knowledge relevant to the task: its score and entries of each kind"},
	{Name: "experience", Type: field.Object, Null: true, Always: true, Doc: "the outcomes learnt of the task's capabilities and its score; null for a model that learns none (v2)"},
	{Name: "gaps", Type: field.Strings, Always: true, Doc: "what the memory lacks for the task"},
	{Name: "recommendation", Type: field.String, Always: true, Doc: "what to do about the gaps"},
}
