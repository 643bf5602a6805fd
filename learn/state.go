package learn

import (
	"errors"
	"strconv"

	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/quickjson"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// A State is what a workspace of a learning model learns beside the
// engine: the model, the recent consults' advice (for attribution), how
// advice fared when followed and when not, and the agent's trail when the
// model weighs where the agent came from (KeepsTrail).
type State struct {
	Model       *Model
	Advisories  []Advisory // oldest first, at most AdvisoriesKept
	Followed    Tally      // reports that followed the top suggestion of the advice they are attributed to
	NotFollowed Tally      // reports that did not
	Trail       Trail      // kept only when KeepsTrail
}

// NewState returns the state of a workspace whose model is m, with no
// advice remembered.
func NewState(m *Model) *State { return &State{Model: m} }

// KeepsTrail reports whether the model conditions on the capability the
// agent came from (Context.After), and so the state follows the agent's
// trail.
func (s *State) KeepsTrail() bool { return s.Model.P.AfterScale > 0 }

// Context is the Context of a step from the cursor in a task with these
// terms: with where the agent came from, when the state keeps the trail.
func (s *State) Context(cursor string, terms []string) Context {
	ctx := Context{Terms: terms}
	if s.KeepsTrail() {
		ctx.After = s.Trail.After(cursor, terms)
	}
	return ctx
}

// Learn teaches the model a report of action from the cursor in a task
// with these terms (Teach), and follows the agent's trail.
func (s *State) Learn(g *torusfield.Graph, man *torusfield.Manifest, terms []string, cursor, action, success string, weight float64, clock int64) (before, after Estimate, discovered bool) {
	before, after, discovered = Teach(g, man, s.Model, s.Context(cursor, terms), cursor, action, success, weight, clock)
	if s.KeepsTrail() {
		s.Trail.Move(cursor, action, success, terms)
	}
	return before, after, discovered
}

// Chain is the path a suggestion of the step from → to leads along: to,
// then twice the best next step after the last (greedy, in a task with
// these terms, after the step before it when the state keeps the trail),
// as long as there is one: at most three steps.
func (s *State) Chain(g *torusfield.Graph, man *torusfield.Manifest, terms []string, from, to string) []string {
	chain := []string{to}
	prev, at := from, to
	for len(chain) < 3 {
		ctx := Context{Terms: terms}
		if s.KeepsTrail() {
			ctx.After = prev
		}
		next := s.Model.Rank(ctx, at, NextSteps(g, man, s.Model, at), false)
		if len(next) == 0 {
			break
		}
		chain = append(chain, next[0].To)
		prev, at = at, next[0].To
	}
	return chain
}

// AppendJSON appends the state as one compact object with sorted keys:
//
//	{"advisories":[[id,cursor,top,seq,[terms],[observations]?],...],
//	 "followed":[S,N],"model":{...},"not_followed":[S,N],"trail":[prev,at,[terms]]}
//
// with the model as Model.AppendJSON writes it, and the trail only when
// the state keeps it. The same state always gives the same bytes.
func (s *State) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"advisories":[`...)
	for i, a := range s.Advisories {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, '[')
		for _, x := range []string{a.ID, a.Cursor, a.Top} {
			dst = pyjson.AppendString(dst, x)
			dst = append(dst, ',')
		}
		dst = strconv.AppendInt(dst, a.Seq, 10)
		dst = append(dst, ',')
		dst = pyjson.AppendStrings(dst, a.Terms)
		if len(a.Observations) > 0 {
			dst = append(dst, ',')
			dst = pyjson.AppendStrings(dst, a.Observations)
		}
		dst = append(dst, ']')
	}
	dst = append(dst, `],"followed":`...)
	dst = s.Followed.AppendJSON(dst)
	dst = append(dst, `,"model":`...)
	dst = s.Model.AppendJSON(dst)
	dst = append(dst, `,"not_followed":`...)
	dst = s.NotFollowed.AppendJSON(dst)
	if s.KeepsTrail() {
		t := s.Trail
		dst = append(dst, `,"trail":[`...)
		dst = pyjson.AppendString(dst, t.Prev)
		dst = append(dst, ',')
		dst = pyjson.AppendString(dst, t.At)
		dst = append(dst, ',')
		dst = pyjson.AppendStrings(dst, t.Terms)
		dst = append(dst, ']')
	}
	return append(dst, '}')
}

// AppendJSON appends the tally as [successes, outcomes].
func (t Tally) AppendJSON(dst []byte) []byte {
	dst = append(dst, '[')
	dst = pyjson.AppendFloat(dst, t.Successes)
	dst = append(dst, ',')
	dst = pyjson.AppendFloat(dst, t.Outcomes)
	return append(dst, ']')
}

// DecodeState reads a state written by AppendJSON into a new state whose
// model has the given parameters. It refuses anything else with an error
// that names the member: a state file is input like any other.
func DecodeState(raw []byte, p Params) (*State, error) {
	if !gjson.ValidBytes(raw) {
		return nil, errors.New("learn: not valid JSON")
	}
	doc := gjson.ParseBytes(raw)
	m, err := Decode([]byte(quickjson.Member(doc, "model").Raw), p)
	if err != nil {
		return nil, err
	}
	s := NewState(m)
	if s.KeepsTrail() {
		a := quickjson.Member(doc, "trail").Array()
		if len(a) != 3 || a[0].Type != gjson.String || a[1].Type != gjson.String || !a[2].IsArray() {
			return nil, errors.New("learn.trail: want [prev, at, [terms]]")
		}
		s.Trail.Prev, s.Trail.At = a[0].Str, a[1].Str
		for _, t := range a[2].Array() {
			if t.Type != gjson.String {
				return nil, errors.New("learn.trail: a term is not a string")
			}
			s.Trail.Terms = append(s.Trail.Terms, t.Str)
		}
	}
	if err := DecodeTallies(doc, &s.Followed, &s.NotFollowed); err != nil {
		return nil, err
	}
	for _, r := range quickjson.Member(doc, "advisories").Array() {
		a := r.Array()
		if len(a) != 5 && len(a) != 6 || a[0].Type != gjson.String || a[1].Type != gjson.String || a[2].Type != gjson.String ||
			a[3].Type != gjson.Number || !a[4].IsArray() || len(a) == 6 && !a[5].IsArray() {
			return nil, errors.New("learn.advisories: want [id, cursor, top, seq, [terms], [observations]?]")
		}
		adv := Advisory{ID: a[0].Str, Cursor: a[1].Str, Top: a[2].Str, Seq: a[3].Int()}
		for _, t := range a[4].Array() {
			adv.Terms = append(adv.Terms, t.Str)
		}
		if len(a) == 6 {
			for _, t := range a[5].Array() {
				adv.Observations = append(adv.Observations, t.Str)
			}
		}
		s.Advisories = append(s.Advisories, adv)
	}
	if len(s.Advisories) > AdvisoriesKept {
		return nil, errors.New("learn.advisories: too many")
	}
	return s, nil
}

// DecodeTallies reads a learned state's "followed" and "not_followed"
// tallies, each [successes, outcomes].
func DecodeTallies(doc gjson.Result, followed, notFollowed *Tally) error {
	if err := DecodeTally(quickjson.Member(doc, "followed"), "followed", followed); err != nil {
		return err
	}
	return DecodeTally(quickjson.Member(doc, "not_followed"), "not_followed", notFollowed)
}

// DecodeTally reads one tally, the member key of a state, into dst.
func DecodeTally(r gjson.Result, key string, dst *Tally) error {
	a := r.Array()
	if len(a) != 2 || a[0].Type != gjson.Number || a[1].Type != gjson.Number || a[0].Num < 0 || a[0].Num > a[1].Num {
		return errors.New("learn." + key + ": want [successes, outcomes]")
	}
	*dst = Tally{a[0].Num, a[1].Num}
	return nil
}
