package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/goal"
	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// The goal operations (package goal holds the goals): add, list, show, and
// the transitions of a goal's lifecycle that an agent or an operator makes
// explicitly (done, fail, suspend, resume, retry). Outcomes move goals
// through report and exec (attributeGoal). The goals live in the state
// file's "goals" member.

var goalIDField = field.Field{Name: "id", Type: field.String, Flag: true, Positional: true, Required: true, Doc: "the goal's id (from goal add or goal list)"}

var noteField = field.Field{Name: "note", Type: field.String, Flag: true, Text: true, Max: field.NoteCap, Doc: "why (kept with the goal and in the journal)"}

var goalAddSpec = Spec{
	Output:  goalAddOutput,
	Name:    "goal add",
	Summary: "Register a goal: what to achieve, when it counts as done, how many failures it tolerates",
	Long: `A goal is active until its completion criteria are met: --count N successful
outcomes attributed to it (default 1), or --threshold C, one success observed
with a confidence of at least C. Each failure attributed to it spends one of
its --retries (default 2); a failure with none left fails it. A timeout never
fails a goal. Attribute outcomes with goal_id in report or --goal in exec:
they weigh more in learning than unattributed ones.`,
	Example:  "ucs goal add --content \"ship the parser fix\" --count 2\nucs goal add --content \"fetch the pricing page\" --threshold 0.9 --retries 1",
	Mutating: true,
	Fields: []field.Field{
		{Name: "content", Type: field.String, Flag: true, Required: true, Text: true, Max: field.NoteCap, Doc: "what the goal is"},
		{Name: "count", Type: field.Int, Flag: true, Doc: "completed after this many successful outcomes (default 1)"},
		{Name: "threshold", Type: field.Number, Flag: true, Doc: "completed by one success observed with at least this confidence (0 to 1)"},
		{Name: "retries", Type: field.Int, Flag: true, Default: 2, Doc: "failures tolerated before the goal fails"},
		{Name: "parent", Type: field.String, Flag: true, Doc: "the id of the goal this one serves"},
	},
	check: func(c Call) error { return goal.RequestOf(c.Args).Check() },
	run:   opGoalAdd,
}

func opGoalAdd(s *session, c Call) (pyjson.Value, error) {
	gb, err := s.goals()
	if err != nil {
		return pyjson.Value{}, err
	}
	g, err := gb.Create(goal.RequestOf(c.Args), s.replaying, c.Args.StrOf("id"), s.meta.Seq+1, pyjson.ISOTime(s.now))
	if err != nil {
		return pyjson.Value{}, err
	}
	// The id is recorded in the event, so a replay gives the goal the id
	// it was given, whatever rule gave it.
	if !s.replaying {
		journaled := c
		journaled.Args = c.Args.With("id", g.ID)
		s.journaled = &journaled
	}
	return pyjson.Obj(pyjson.KV("status", "added"), pyjson.KV("goal", g.Value())), nil
}

var goalListSpec = Spec{
	Output:  goalListOutput,
	Name:    "goal list",
	Summary: "List goals: the open ones (active, suspended, failed), or those in one state",
	Long: `Each goal with its criteria, progress, retries left and last outcome. The
state keeps every open goal and the last 100 completed ones; the journal keeps
every change.`,
	Example: "ucs goal list\nucs goal list --state completed",
	Fields: []field.Field{
		{Name: "state", Type: field.String, Flag: true, Enum: []string{"open", goal.Active, goal.Suspended, goal.Failed, goal.Completed, "all"},
			Default: "open", Doc: "which goals"},
	},
	run: opGoalList,
}

func opGoalList(s *session, c Call) (pyjson.Value, error) {
	gb, err := s.goals()
	if err != nil {
		return pyjson.Value{}, err
	}
	out := gb.List(c.Args.StrOf("state"))
	return pyjson.Obj(pyjson.KV("goals", out), pyjson.KV("count", len(out))), nil
}

var goalShowSpec = Spec{
	Output:  goalShowOutput,
	Name:    "goal show",
	Summary: "Show one goal: its criteria, progress, retries and last outcome",
	Long:    `The goal's id is the argument (or --id): g and the goal's number in the workspace (g1, g2, ...; goal add and goal list give it).`,
	Example: "ucs goal show g12",
	Fields:  []field.Field{goalIDField},
	run: func(s *session, c Call) (pyjson.Value, error) {
		gb, err := s.goals()
		if err != nil {
			return pyjson.Value{}, err
		}
		g, err := gb.Goal(c.Args.StrOf("id"))
		if err != nil {
			return pyjson.Value{}, err
		}
		return pyjson.Obj(pyjson.KV("goal", g.Value())), nil
	},
}

// goalMoveDocs are the help of the explicit transitions (goal.Moves), by
// verb.
var goalMoveDocs = map[string][2]string{
	"done": {"Mark a goal completed by hand",
		"An operator's or the agent's verdict that the goal is met, whatever its criteria say. Applies to an active or suspended goal."},
	"fail": {"Mark a goal failed by hand",
		"Gives the goal up. Applies to an active or suspended goal; retry makes it active again."},
	"suspend": {"Suspend an active goal: outcomes no longer move it",
		"A suspended goal keeps its progress; outcomes attributed to it are learned but do not move it until resume."},
	"resume": {"Make a suspended goal active again", "The goal continues where it was suspended."},
	"retry": {"Make a failed goal active again, with its whole retry budget",
		"The only way out of failed: the goal's failures are kept, its retries left are its budget again, and retries counts one more."},
}

// goalMoveSpec is the operation of one transition.
func goalMoveSpec(m goal.Move) *Spec {
	return &Spec{
		Name:     "goal " + m.Verb,
		Summary:  goalMoveDocs[m.Verb][0],
		Long:     goalMoveDocs[m.Verb][1],
		Example:  "ucs goal " + m.Verb + " g12 --note \"...\"",
		Mutating: true,
		Fields:   []field.Field{goalIDField, noteField},
		Output:   goalMoveOutput,
		run: func(s *session, c Call) (pyjson.Value, error) {
			gb, err := s.goals()
			if err != nil {
				return pyjson.Value{}, err
			}
			g, from, err := gb.Move(c.Args.StrOf("id"), m, c.Args.StrOf("note"), pyjson.ISOTime(s.now))
			if err != nil {
				return pyjson.Value{}, err
			}
			return pyjson.Obj(pyjson.KV("status", m.Verb), pyjson.KV("from", from), pyjson.KV("goal", g.Value())), nil
		},
	}
}

// goalSpecs are the goal group's operations, in the order help lists them.
func goalSpecs() []*Spec {
	specs := []*Spec{&goalAddSpec, &goalListSpec, &goalShowSpec}
	for _, m := range goal.Moves {
		specs = append(specs, goalMoveSpec(m))
	}
	return specs
}

// goalAddOutput is the answer of goal add.
var goalAddOutput = []field.Output{
	{Name: "status", Type: field.String, Always: true, Doc: "\"added\""},
	{Name: "goal", Type: field.Object, Always: true, Doc: "the goal: its id, state, criteria and progress"},
}

// goalListOutput is the answer of goal list.
var goalListOutput = []field.Output{
	{Name: "goals", Type: field.Objects, Always: true, Doc: "the goals in the state asked for"},
	{Name: "count", Type: field.Int, Always: true, Doc: "how many"},
}

// goalShowOutput is the answer of goal show.
var goalShowOutput = []field.Output{
	{Name: "goal", Type: field.Object, Always: true, Doc: "the goal: its state, progress towards completion, retries left, last outcome"},
}

// goalMoveOutput is the answer of a goal transition (done, fail, suspend, resume, retry).
var goalMoveOutput = []field.Output{
	{Name: "status", Type: field.String, Always: true, Doc: "the goal's new state, as the operation names it"},
	{Name: "from", Type: field.String, Always: true, Doc: "its state before"},
	{Name: "goal", Type: field.Object, Always: true, Doc: "the goal, after the transition"},
}

// goals returns the workspace's goals, decoding them on first use.
func (s *session) goals() (*goal.Book, error) {
	return s.state.goals.get(s)
}

// attributeGoal applies a classified outcome to the goal a report or exec
// names, and returns the answer's "goal" member and the learning weight
// factor. A goal that is not active is told, not changed.
func (s *session) attributeGoal(id, action, status string, confidence float64) (pyjson.Value, float64, error) {
	gb, err := s.goals()
	if err != nil {
		return pyjson.Value{}, 1, err
	}
	out, warning, err := gb.Attribute(id, s.meta.Seq+1, action, status, confidence, pyjson.ISOTime(s.now))
	if err != nil {
		return pyjson.Value{}, 1, err
	}
	if warning != "" {
		s.warn(warning)
	}
	return out, goal.Weight, nil
}
