package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/goal"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
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
	check: checkGoalAdd,
	run:   opGoalAdd,
}

func checkGoalAdd(c Call) error {
	if _, ok := c.Args.Get("count"); ok {
		if _, ok := c.Args.Get("threshold"); ok {
			return badInput(fault.CodeInvalidValue, "give --count or --threshold, not both", "a goal has one completion criterion")
		}
		if argInt(c, "count") < 1 {
			return badInput(fault.CodeInvalidValue, "give --count 1 or more", "--count must be at least 1")
		}
	}
	if v, ok := c.Args.Get("threshold"); ok {
		if x, _ := v.Float(); x <= 0 || x > 1 {
			return badInput(fault.CodeInvalidValue, "give --threshold between 0 and 1, e.g. 0.9", "--threshold must be in (0, 1]")
		}
	}
	if v, ok := c.Args.Get("retries"); ok {
		if n, _ := v.Int(); n < 0 {
			return badInput(fault.CodeInvalidValue, "give --retries 0 or more", "--retries must not be negative")
		}
	}
	return nil
}

func opGoalAdd(s *session, c Call) (pyjson.Value, error) {
	gb, err := s.goals()
	if err != nil {
		return pyjson.Value{}, err
	}
	id, err := s.nextGoalID(gb, c)
	if err != nil {
		return pyjson.Value{}, err
	}
	g := &goal.Goal{
		ID:      id,
		Content: c.Args.StrOf("content"), Parent: c.Args.StrOf("parent"),
		Criterion: goal.CriterionCount, Target: 1,
		RetryBudget: argInt(c, "retries"), State: goal.Active, Created: isoTime(s.now),
	}
	g.RetriesLeft = g.RetryBudget
	if v, ok := c.Args.Get("threshold"); ok {
		g.Criterion, g.Target = goal.CriterionThreshold, 1
		g.Confidence, _ = v.Float()
	} else if v, ok := c.Args.Get("count"); ok {
		g.Target, _ = v.Int()
	}
	if g.Parent != "" && gb.Find(g.Parent) == nil {
		return pyjson.Value{}, unknownGoal(g.Parent)
	}
	gb.Open = append(gb.Open, g)
	// The id is recorded in the event, so a replay gives the goal the id
	// it was given, whatever rule gave it.
	if !s.replaying {
		journaled := c
		journaled.Args = c.Args.With("id", id)
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
	want := c.Args.StrOf("state")
	out := []pyjson.Value{}
	for _, g := range gb.All() {
		if want == "all" || want == "open" && g.State != goal.Completed || want == g.State {
			out = append(out, g.Value())
		}
	}
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
		g, err := s.goal(c.Args.StrOf("id"))
		if err != nil {
			return pyjson.Value{}, err
		}
		return pyjson.Obj(pyjson.KV("goal", g.Value())), nil
	},
}

// goal returns the goal with that id, or an unknown_goal error.
func (s *session) goal(id string) (*goal.Goal, error) {
	gb, err := s.goals()
	if err != nil {
		return nil, err
	}
	g := gb.Find(id)
	if g == nil {
		return nil, unknownGoal(id)
	}
	return g, nil
}

// unknownGoal is the error of a goal id that names none.
func unknownGoal(id string) error {
	return badInput(fault.CodeUnknownGoal, "list the goals with: ucs goal list", "there is no goal %s", quote(id))
}

// A goalMove is an explicit transition of the lifecycle.
type goalMove struct {
	verb, summary, long string
	from                []string // the states it applies to
	to                  string
}

var goalMoves = []goalMove{
	{"done", "Mark a goal completed by hand",
		"An operator's or the agent's verdict that the goal is met, whatever its criteria say. Applies to an active or suspended goal.",
		[]string{goal.Active, goal.Suspended}, goal.Completed},
	{"fail", "Mark a goal failed by hand",
		"Gives the goal up. Applies to an active or suspended goal; retry makes it active again.",
		[]string{goal.Active, goal.Suspended}, goal.Failed},
	{"suspend", "Suspend an active goal: outcomes no longer move it",
		"A suspended goal keeps its progress; outcomes attributed to it are learned but do not move it until resume.",
		[]string{goal.Active}, goal.Suspended},
	{"resume", "Make a suspended goal active again", "The goal continues where it was suspended.",
		[]string{goal.Suspended}, goal.Active},
	{"retry", "Make a failed goal active again, with its whole retry budget",
		"The only way out of failed: the goal's failures are kept, its retries left are its budget again, and retries counts one more.",
		[]string{goal.Failed}, goal.Active},
}

// goalMoveSpec is the operation of one transition.
func goalMoveSpec(m goalMove) *Spec {
	return &Spec{
		Name:     "goal " + m.verb,
		Summary:  m.summary,
		Long:     m.long,
		Example:  "ucs goal " + m.verb + " g12 --note \"...\"",
		Mutating: true,
		Fields:   []field.Field{goalIDField, noteField},
		Output:   goalMoveOutput,
		run: func(s *session, c Call) (pyjson.Value, error) {
			g, err := s.goal(c.Args.StrOf("id"))
			if err != nil {
				return pyjson.Value{}, err
			}
			allowed := false
			for _, st := range m.from {
				allowed = allowed || g.State == st
			}
			if !allowed {
				return pyjson.Value{}, badInput(fault.CodeInvalidState, "see its state with: ucs goal show "+g.ID,
					"goal %s is %s; %s applies to a goal that is %s", g.ID, g.State, m.verb, joinOr(m.from))
			}
			from := g.State
			g.State, g.Note = m.to, c.Args.StrOf("note")
			switch m.to {
			case goal.Completed, goal.Failed:
				g.Closed = isoTime(s.now)
			case goal.Active:
				g.Closed = ""
			}
			if m.verb == "retry" {
				g.Retries++
				g.RetriesLeft = g.RetryBudget
			}
			gb, _ := s.goals()
			gb.Settle(g)
			return pyjson.Obj(pyjson.KV("status", m.verb), pyjson.KV("from", from), pyjson.KV("goal", g.Value())), nil
		},
	}
}

func joinOr(xs []string) string {
	switch len(xs) {
	case 0:
		return ""
	case 1:
		return xs[0]
	}
	out := xs[0]
	for _, x := range xs[1 : len(xs)-1] {
		out += ", " + x
	}
	return out + " or " + xs[len(xs)-1]
}

// goalSpecs are the goal group's operations, in the order help lists them.
func goalSpecs() []*Spec {
	specs := []*Spec{&goalAddSpec, &goalListSpec, &goalShowSpec}
	for _, m := range goalMoves {
		specs = append(specs, goalMoveSpec(m))
	}
	return specs
}

// activeGoals is resume's and status's summary of the open goals.
func (s *session) activeGoals() (pyjson.Value, error) {
	gb, err := s.goals()
	if err != nil {
		return pyjson.Value{}, err
	}
	out := []pyjson.Value{}
	for _, g := range gb.Open {
		if g.State == goal.Active {
			out = append(out, g.Value())
		}
	}
	return pyjson.ArrayValue(out), nil
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

// nextGoalID returns the id of the goal being added (goal.Book.NextID).
// A replay reads the id its event recorded; events written before ids
// were recorded (ucs then numbered a goal by the event that added it)
// replay with that rule.
func (s *session) nextGoalID(gb *goal.Book, c Call) (string, error) {
	if s.replaying {
		if id := c.Args.StrOf("id"); id != "" {
			gb.Given(id)
			return id, nil
		}
		return goal.ID(s.meta.Seq + 1), nil
	}
	return gb.NextID(), nil
}

// goals returns the workspace's goals, decoding them on first use.
func (s *session) goals() (*goal.Book, error) {
	return s.state.goals.get(s)
}

// attributeGoal applies a classified outcome to the goal a report or exec
// names, and returns the answer's "goal" member and the learning weight
// factor. A goal that is not active is told, not changed.
func (s *session) attributeGoal(id, action, status string, confidence float64) (pyjson.Value, float64, error) {
	g, err := s.goal(id)
	if err != nil {
		return pyjson.Value{}, 1, err
	}
	if g.State != goal.Active {
		s.warn("goal " + id + " is " + g.State + "; the outcome is learned but does not move it")
		return pyjson.Obj(pyjson.KV("id", id), pyjson.KV("state", g.State), pyjson.KV("changed", nil)), goal.Weight, nil
	}
	change := g.Observe(s.meta.Seq+1, action, status, confidence, isoTime(s.now))
	gb, _ := s.goals()
	gb.Settle(g)
	var changed any
	if change != "" {
		changed = change
	}
	return pyjson.Obj(pyjson.KV("id", id), pyjson.KV("state", g.State), pyjson.KV("changed", changed),
		pyjson.KV("retries_left", g.RetriesLeft)), goal.Weight, nil
}
