package belief

import (
	"fmt"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// A Verdict is someone's word on one observation: confirm it (supporting
// evidence), contradict it (contradicting evidence, kept) or retire it
// (invalidate it whatever its evidence).
type Verdict struct {
	Act      string // confirm, contradict or retire
	ID       string // the observation's
	By, Note string
	// Agent is set when the verdict came through the agent's own tools:
	// it weighs as the agent's word, not a person's.
	Agent bool
}

// Applied is the act the verdict applies: the agent's own retirement
// only contradicts (it invalidates when outweighed, as any contradiction
// does); a person's is applied as given.
func (v Verdict) Applied() string {
	if v.Agent && v.Act == "retire" {
		return "contradict"
	}
	return v.Act
}

// Status is the word an answer gives for the act applied: confirmed,
// contradicted or retired (not the act's name with "ed": "retireed").
func (v Verdict) Status() string {
	switch v.Applied() {
	case "confirm":
		return "confirmed"
	case "contradict":
		return "contradicted"
	case "retire":
		return "retired"
	}
	return ""
}

// SourceKind is the kind of evidence the verdict gives: the operator's
// word, a person's rating, or (the agent's own) a report's.
func (v Verdict) SourceKind() string {
	switch {
	case v.Agent:
		return FromReport
	case v.By == Operator:
		return FromOperator
	}
	return FromRating
}

// Judge applies the verdict at w's time, its evidence's source the
// content id of the verdict as given (act, id, by, note, time), so that a
// replay of the call is a duplicate.
func (b *Book) Judge(w Witness, v Verdict) (*Observation, Change, error) {
	now := w.Now()
	rec := pyjson.Obj(pyjson.KV("op", v.Act), pyjson.KV("id", v.ID), pyjson.KV("by", v.By),
		pyjson.KV("note", v.Note), pyjson.KV("now", pyjson.ISOTime(now)))
	source := ContentID(v.Act, pyjson.Canonical(rec))
	switch v.Applied() {
	case "confirm":
		return b.Confirm(v.ID, NewEvidence(w, source, v.SourceKind(), Support, v.By, v.Note), now)
	case "contradict":
		return b.Contradict(v.ID, NewEvidence(w, source, v.SourceKind(), Contradict, v.By, v.Note), now)
	case "retire":
		return b.Retire(v.ID, v.By, v.Note, now)
	}
	return nil, Change{}, fmt.Errorf("belief: no verdict %q (confirm, contradict or retire)", v.Act)
}

// Select is the observations of a status ("believed": active or stale;
// "all"; or one Status's name), in the book's order.
func (b *Book) Select(status string) []*Observation {
	var out []*Observation
	for _, o := range b.obs {
		if status == "all" || status == string(o.Status) || status == "believed" && o.Status.Current() {
			out = append(out, o)
		}
	}
	return out
}
