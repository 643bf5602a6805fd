package bridge

import (
	"math"
	"strconv"

	"github.com/unified-cognitive-substrate/ucs/belief"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
)

// ModelV3 is ucs's first own learning model (package learn, learn.V3Params):
// success estimates per transition conditioned on the task's terms, ranked
// with an optimistic bonus for what is little known, with every suggestion
// explained and every report attributed to the advice it followed or not.
const ModelV3 = "v3"

// ModelV4 is v3 conditioned also on the capability the agent came from
// (learn.Context.After), from the agent's trail (learn.Trail): the default.
const ModelV4 = "v4"

// learnMember is the state file's member that holds the learned state of
// a workspace of a learning model (v3, v4: learn.State); it comes after
// the engine's members.
const learnMember = "learn"

// newLearnState is the learned state of a new workspace of a learning
// model.
func newLearnState(m *Model) *learn.State { return learn.NewState(learn.New(*m.params)) }

// learned returns the learned state, decoding it on first use; nil for a
// workspace of the reference's model.
func (s *session) learned() (*learn.State, error) {
	if !s.model.learns() {
		return nil, nil
	}
	if s.learnt == nil {
		if s.learnRaw == nil {
			s.learnt = newLearnState(s.model)
		} else {
			v, err := learn.DecodeState(s.learnRaw, *s.model.params)
			if err != nil {
				return nil, corrupt(err, relState)
			}
			s.learnt = v
		}
	}
	return s.learnt, nil
}

// appendLearnMember adds a learning model's state to an encoded state
// file, as its last member: the bytes as read when the call did not change
// it.
func (s *session) appendLearnMember(state []byte) []byte {
	if s.model.nextSteps() {
		state = append(state[:len(state)-1], `,"`+learnMember+`":`...)
		switch {
		case s.stepsSt != nil:
			state = s.stepsSt.AppendJSON(state)
		case s.learnRaw != nil:
			state = append(state, s.learnRaw...)
		default:
			state = advice.NewSteps().AppendJSON(state)
		}
		return append(state, '}')
	}
	if !s.model.learns() {
		return state
	}
	state = append(state[:len(state)-1], `,"`+learnMember+`":`...)
	switch {
	case s.learnt != nil:
		state = s.learnt.AppendJSON(state)
	case s.learnRaw != nil:
		state = append(state, s.learnRaw...)
	default:
		state = newLearnState(s.model).AppendJSON(state)
	}
	return append(state, '}')
}

// suggestLearned ranks the next steps from the cursor for a context, with a
// dead end's penalty (in log-odds) on the capabilities it names, and
// remembers the advice for attribution. explore adds the optimism that
// makes an agent that follows the top suggestion try what is little known;
// without it the ranking is the model's best estimate (a probe).
func (s *session) suggestLearned(context string, penalty map[string]float64, explore bool) ([]pyjson.Value, string, error) {
	v, err := s.learned()
	if err != nil {
		return nil, "", err
	}
	cursor := s.engine.Cursor.Node
	ranked, out := s.rankLearned(v, cursor, context, penalty, explore)
	id := advice.AdvisoryID(s.meta.Seq+1, context)
	if len(ranked) > 0 {
		v.Remember(learn.Advisory{ID: id, Cursor: cursor, Top: ranked[0].To, Seq: s.meta.Seq + 1, Terms: learn.Terms(context)})
	}
	return out, id, nil
}

// rankLearned ranks a learning model's next steps from a capability for a
// context (suggestLearned's, and consult --from's), and describes the
// first advisoryTopN. It remembers nothing.
func (s *session) rankLearned(v *learn.State, from, context string, penalty map[string]float64, explore bool) ([]learn.Estimate, []pyjson.Value) {
	terms := learn.Terms(context)
	place := s.place()
	ranked := place.RankLearned(v, from, terms, penalty, explore)
	ranked = withoutDenied(s, ranked, func(r learn.Estimate) string { return r.To })
	top := ranked[:min(advisoryTopN, len(ranked))]
	out := make([]pyjson.Value, len(top))
	for i, r := range top {
		out[i] = place.DescribeLearned(v, terms, from, r, penalty[r.To], learnedWhy(r.Evidence))
	}
	return ranked, out
}

// learnedWhy is why a learning model suggests a step, in the operations'
// words for weighed counts (timesOf).
func learnedWhy(ev learn.Evidence) string {
	why := "untried here; ranked by its prior and an exploration bonus"
	switch {
	case ev.TermN > 0:
		why = "succeeded " + timesOf(ev.TermS, ev.TermN) + " in contexts with \"" + ev.Term + "\" (" + timesOf(ev.S, ev.N) + " overall)"
	case ev.N > 0:
		why = "succeeded " + timesOf(ev.S, ev.N) + ", in other contexts"
	}
	if ev.AfterN > 0 {
		why += "; after " + ev.After + ": " + timesOf(ev.AfterS, ev.AfterN)
	}
	return why
}

// timesOf is a learning model's successes of its outcomes for people:
// "9 of 9 times" when the weights are whole (each report weighed 1), else
// "with weight 1.5 of 2": a partial counts half and a person's verdict
// more, so a weight is no number of times, and the text must not say it
// is.
func timesOf(s, n float64) string {
	if s == math.Trunc(s) && n == math.Trunc(n) {
		return countOf(s, n) + " times"
	}
	return "with " + countOf(s, n)
}

// countOf is "9 of 12" for whole counts, else "weight 1.5 of 2".
func countOf(s, n float64) string {
	if s == math.Trunc(s) && n == math.Trunc(n) {
		return fmtCount(s) + " of " + fmtCount(n)
	}
	return "weight " + fmtCount(s) + " of " + fmtCount(n)
}

func fmtCount(x float64) string {
	if x == math.Trunc(x) {
		return strconv.FormatInt(int64(x), 10)
	}
	return strconv.FormatFloat(x, 'f', 1, 64)
}

// learnReport teaches a learning model (v3, v4) a report's outcome
// (advice.Place.LearnReport) and attributes it to the observations of the
// advice it follows. It returns the answer's "learning" member, or nothing
// for a workspace of another model.
func (s *session) learnReport(in reportInput, before string, input pyjson.Value) (pyjson.Value, bool, error) {
	v, err := s.learned()
	if err != nil || v == nil {
		return pyjson.Value{}, false, err
	}
	l := s.place().LearnReport(v, input.StrOf("advisory_id"), before, in.Context, in.Action, in.Success, in.Weight, s.meta.Seq+1)
	s.learnedAfter = l.After
	if !s.model.governsKnowledge() {
		l.Advisory = nil // v3 is frozen as it shipped: its advice attributes nothing
	}
	return s.attributeLearning(l, in, input)
}

// attributeLearning finishes a report's "learning" member: a warning for
// an advisory_id that names no recent consult, and the outcome attributed
// to the observations the advice rested on.
func (s *session) attributeLearning(l advice.Learning, in reportInput, input pyjson.Value) (pyjson.Value, bool, error) {
	if l.UnknownID {
		s.warn("advisory_id " + quote(input.StrOf("advisory_id")) + " names no recent consult; the report is not attributed")
	}
	if a := l.Advisory; a != nil && l.W > 0 && len(a.Observations) > 0 {
		confidence := min(1, in.Weight*advice.SelfReportConfidence)
		ov, ok, err := s.attributeOutcome(a.Observations, in.Action, l.Y, confidence, belief.OutcomeKind(in.HasResult), "", s.meta.Seq+1)
		if err != nil {
			return pyjson.Value{}, false, err
		}
		if ok {
			l.Members = append(l.Members, pyjson.KV("observations", ov))
		}
	}
	return pyjson.ObjectValue(l.Members), true, nil
}

// modelStatus is what status adds for a workspace of ucs's own model: its
// name and how advice fared. Nothing for the reference's (parity).
func (s *session) modelStatus() (string, any) {
	p, err := s.precision()
	if err != nil || p == nil {
		return "", nil
	}
	return "learning", pyjson.Obj(pyjson.KV("model", s.meta.Model), pyjson.KV("advisory_precision", p))
}

// precision is how a learning model's advice fared (advice.Precision); nil
// for the reference's model.
func (s *session) precision() (any, error) {
	if v, err := s.steps(); err != nil || v != nil {
		if err != nil {
			return nil, err
		}
		return advice.Precision(v.Followed, v.Unfollowed), nil
	}
	v, err := s.learned()
	if err != nil || v == nil {
		return nil, err
	}
	return advice.Precision(v.Followed, v.NotFollowed), nil
}

func orEmptyStrings(xs []string) []string { return advice.OrEmpty(xs) }
