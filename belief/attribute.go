package belief

import (
	"slices"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// OutcomeWeight is how much one outcome says about a general claim: less
// than a reflection that states it.
const OutcomeWeight = 0.5

// Attribute makes an action's outcome evidence on the observations ids
// (those the advice it followed put in context) that are about the
// action's capability (OpenSentience's causal attribution): a success
// (y > 0.5) supports them, a failure contradicts them, each weighing
// OutcomeWeight × confidence; a neutral outcome (0.5) says nothing.
// Evidence is of the kind given, by by (w's agent when empty), its
// source a content id of the outcome (seq, action, y), so a replay of the
// call is a duplicate. It returns the answer's member, and false when no
// observation was concerned. A refusal is an *ActError.
func (b *Book) Attribute(w Witness, ids []string, action string, y, confidence float64, kind, by string, seq int64) (pyjson.Value, bool, error) {
	source := ContentID(kind, pyjson.Canonical(pyjson.Obj(pyjson.KV("seq", seq), pyjson.KV("action", action), pyjson.KV("y", y))))
	var out []pyjson.Value
	for _, id := range ids {
		o := b.Get(id)
		if o == nil || !o.Status.Current() || !AboutCapability(o.Key.Subject, action) || y == 0.5 {
			continue
		}
		ev := NewEvidence(w, source, kind, Support, by, "")
		ev.Weight = OutcomeWeight * confidence
		var ch Change
		var err error
		if y > 0.5 {
			o, ch, err = b.Confirm(id, ev, w.Now())
		} else {
			ev.Stance = Contradict
			o, ch, err = b.Contradict(id, ev, w.Now())
		}
		if err != nil {
			return pyjson.Value{}, false, &ActError{ID: id, Err: err}
		}
		out = append(out, pyjson.Obj(pyjson.KV("id", o.ID), pyjson.KV("stance", string(ev.Stance)),
			pyjson.KV("weight", round4(ev.Weight)), pyjson.KV("status", string(ch.After)), pyjson.KV("confidence", round4(o.Confidence.Value))))
	}
	if out == nil {
		return pyjson.Value{}, false, nil
	}
	return pyjson.ArrayValue(out), true, nil
}

// AboutCapability reports whether an observation's subject names the
// capability ("capability:a+b" names a and b).
func AboutCapability(subject, capability string) bool {
	names, ok := strings.CutPrefix(subject, "capability:")
	return ok && slices.Contains(strings.Split(names, "+"), capability)
}

// About lists the ids of the current observations about the capability,
// in the book's order: what an operator's verdict on an action of it
// bears on.
func (b *Book) About(capability string) []string {
	var ids []string
	for _, o := range b.Observations() {
		if o.Status.Current() && AboutCapability(o.Key.Subject, capability) {
			ids = append(ids, o.ID)
		}
	}
	return ids
}
