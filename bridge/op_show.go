package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/belief"
	"github.com/unified-cognitive-substrate/ucs/dashboard"
	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn"
)

// What show lists at most.
const (
	showTransitions  = 15   // learned transitions, most evidence first
	showTasks        = 8    // tasks' chains, the newest first
	showObservations = 10   // observations due for revalidation
	transitionWindow = 5000 // the action log's last lines read for contexts and times
)

var showSpec = Spec{
	Output:  showOutput,
	Name:    "show",
	Summary: "For a person: what ucs has learned, what it suggests and why, how its advice fared",
	Long: `A summary to read: for each recent task the chain of steps learned from its
start (what consult --task-start, then consult --from each step, ranks
first), with the alternatives at each step; the learned transitions (from → to, success rate, the
contexts they were reported in, when last seen), the suggestions for a
context with their reasons (consult's own, computed on a copy: nothing is
kept), the active goals, the advisory precision and the observations due for
revalidation. --format table prints it in 80 columns; json answers the data.
It changes nothing.`,
	Example: "ucs show --format table\nucs show --context \"research competitor pricing\" --format table",
	Fields: []field.Field{
		{Name: "context", Type: field.String, Flag: true, Text: true, Max: field.ContextCap, Doc: "also the suggestions for this task, as consult would give them now"},
		{Name: "format", Type: field.String, Flag: true, Enum: []string{"json", "table"}, Default: "json", Doc: "json (the data) or table (for people, 80 columns)"},
	},
	run:   opShow,
	table: dashboard.ShowTable,
}

func opShow(s *session, c Call) (pyjson.Value, error) {
	contexts, err := reportContexts(s)
	if err != nil {
		return pyjson.Value{}, err
	}
	ts, err := s.transitions(transitionWindow, contexts)
	if err != nil {
		return pyjson.Value{}, err
	}
	learned := []pyjson.Value{}
	total := 0
	for _, t := range learn.ByEvidence(ts) {
		if t.N <= 0 {
			continue
		}
		if total++; len(learned) < showTransitions {
			learned = append(learned, transitionValue(t))
		}
	}
	tasks, err := s.taskChains(contexts, showTasks)
	if err != nil {
		return pyjson.Value{}, err
	}
	out := []pyjson.Member{
		pyjson.KV("model", s.meta.Model),
		pyjson.KV("t", s.engine.Grid.T),
		pyjson.KV("cursor", s.engine.Cursor.Node),
		pyjson.KV("tasks", tasks),
		pyjson.KV("transitions", learned),
		pyjson.KV("transitions_total", total),
	}
	if context := c.Args.StrOf("context"); context != "" {
		advice, err := s.consultNow(context)
		if err != nil {
			return pyjson.Value{}, err
		}
		paths, _ := advice.Get("suggested_paths")
		out = append(out, pyjson.KV("context", context), pyjson.KV("suggestions", paths))
	}
	goals, err := s.activeGoals()
	if err != nil {
		return pyjson.Value{}, err
	}
	out = append(out, pyjson.KV("goals", goals))
	precision, err := s.precision()
	if err != nil {
		return pyjson.Value{}, err
	}
	out = append(out, pyjson.KV("advisory_precision", precision))
	due := []pyjson.Value{}
	dueCount := 0
	if s.model.governsKnowledge() {
		b, err := s.book()
		if err != nil {
			return pyjson.Value{}, err
		}
		list := b.Due(s.now)
		dueCount = len(list)
		for _, o := range list[:min(showObservations, len(list))] {
			due = append(due, belief.Summary(o, s.now))
		}
	}
	out = append(out, pyjson.KV("observations_due", due), pyjson.KV("observations_due_count", dueCount))
	return pyjson.ObjectValue(out), nil
}

// showOutput is the answer of show.
var showOutput = []field.Output{
	{Name: "model", Type: field.String, Doc: "the workspace's reference model"},
	{Name: "t", Type: field.Int, Doc: "the engine's step"},
	{Name: "cursor", Type: field.String, Doc: "the capability the agent is at"},
	{Name: "tasks", Type: field.Objects, Doc: "the newest tasks (by context), each with the chain of steps learned from its start (v2 to v4: from the cursor): at each step consult --from's first suggestion, its evidence in whole counts, and the alternatives"},
	{Name: "transitions", Type: field.Objects, Doc: "the transitions learnt, best evidenced first"},
	{Name: "transitions_total", Type: field.Int, Doc: "how many transitions were learnt"},
	{Name: "context", Type: field.String, Doc: "with context: the task, as given"},
	{Name: "suggestions", Type: field.Objects, Doc: "with context: the paths consult suggests for it"},
	{Name: "goals", Type: field.Objects, Doc: "the active goals"},
	{Name: "advisory_precision", Type: field.Object, Null: true, Doc: "how often advice was followed by success; null for a model that learns none (v2)"},
	{Name: "observations_due", Type: field.Objects, Doc: "observations due for a check (models v4 and later), the first few"},
	{Name: "observations_due_count", Type: field.Int, Doc: "how many observations are due"},
	{Name: "table", Type: field.String, Doc: "with format table: the table for people (what the command line prints)"},
}
