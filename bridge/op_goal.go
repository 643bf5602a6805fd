package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/goal"
	"github.com/unified-cognitive-substrate/ucs/internal/contract"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// The goal operations (package goal holds the goals): add, list, show, and
// the transitions of a goal's lifecycle that an agent or an operator makes
// explicitly (done, fail, suspend, resume, retry). Outcomes move goals
// through report and exec (attributeGoal). The goals live in the state
// file's "goals" member.

var goalAddSpec = Spec{
	Op:  contract.GoalAdd,
	run: opGoalAdd,
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
	Op:  contract.GoalList,
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
	Op: contract.GoalShow,
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

// goalMoveSpec is the operation of one transition.
func goalMoveSpec(m goal.Move) *Spec {
	return &Spec{
		Op: contract.GoalMove(m),
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
