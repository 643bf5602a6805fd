package advice

import (
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
)

// A StepRecord is what a v5 report's action-log line keeps of the state
// it was learned in, so that a later rating or amendment teaches the
// same keys: the task, the state before and the state, and whether the
// step counted as the agent's choice.
type StepRecord struct {
	State [3]string
	Own   bool
}

// Value is the record as the action log's line keeps it ("step").
func (r *StepRecord) Value() pyjson.Value {
	return pyjson.Obj(pyjson.KV("task", r.State[0]), pyjson.KV("prev2", r.State[1]), pyjson.KV("prev", r.State[2]), pyjson.KV("own", r.Own))
}

// StepRecordOf reads a line's StepRecord; ok false when it has none.
func StepRecordOf(line pyjson.Value) (StepRecord, bool) {
	v, ok := line.Get("step")
	if !ok || v.Kind() != pyjson.Object {
		return StepRecord{}, false
	}
	str := func(key string) string {
		x, _ := v.Get(key)
		return x.Str()
	}
	own, _ := v.Get("own")
	return StepRecord{State: [3]string{str("task"), str("prev2"), str("prev")}, Own: own.Bool()}, true
}

// Teach applies a rating or an amendment of a past v5 report, learned at
// rec in a context of these terms: a rating's verdict (success, weighed)
// teaches the step's success at that state; an amendment (retract) takes
// the report's count back out. retracted says the report was amended
// before, so a rating's step replaces the report's count. It returns the
// step's explanation before and after, and the episode it restored.
func Teach(m *nextstep.Model, rec StepRecord, terms []string, action, success string, weight float64, retract, retracted bool) (before, after nextstep.Evidence, ep *nextstep.Episode) {
	ep = nextstep.RestoreState(rec.State, terms)
	y, w := learn.OutcomeValue(success)
	before = m.Explain(ep, action)
	switch {
	case retract:
		if rec.Own {
			m.Retract(ep, action, y >= 0.5)
		}
	case w*weight > 0:
		if rec.Own && retracted {
			m.Count(ep, action, y >= 0.5) // the amendment's step replaces the report's
		}
		m.Judge(ep, action, y, w*weight)
	}
	return before, m.Explain(ep, action), ep
}

// TeachLine applies a rating or an amendment of a past v5 report (Teach)
// given its action log line, its context and the capability it came from,
// and returns what it taught as rate and amend answer it. A report that
// taught the model nothing (neutral, or before the model) teaches nothing
// now.
func TeachLine(m *nextstep.Model, line pyjson.Value, context, from, action, success string, weight float64, retract, retracted bool) pyjson.Value {
	rec, ok := StepRecordOf(line)
	if !ok {
		return pyjson.Obj(pyjson.KV("transition", from+" → "+action), pyjson.KV("retracted", false),
			pyjson.KV("note", "the report taught the model nothing (neutral, or before the model)"))
	}
	before, after, ep := Teach(m, rec, learn.Terms(context), action, success, weight, retract, retracted)
	return pyjson.Obj(pyjson.KV("transition", StepName(ep.At)+" → "+action), pyjson.KV("retracted", retract),
		pyjson.KV("p_before", pyjson.Round(before.P, 4)), pyjson.KV("p_after", pyjson.Round(after.P, 4)),
		pyjson.KV("outcomes_after", pyjson.Obj(pyjson.KV("successes", after.Successes), pyjson.KV("failures", after.Failures))))
}
