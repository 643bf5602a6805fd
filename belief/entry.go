package belief

import (
	"strings"
	"time"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
	"github.com/unified-cognitive-substrate/ucs/recall"
)

// EntryReflection is the reflection an entry a workspace already holds
// states, of type typ ("post_task" for the methodology, "dead_end" for
// the dead ends), and when: the entry's date when it is before now, else
// now. It is false when the entry states nothing. A workspace moving to a
// model that keeps observations makes its entries into them this way,
// each the evidence of its claim.
func EntryReflection(e pyjson.Value, typ string, now time.Time) (Reflection, time.Time, bool) {
	r := Reflection{Type: typ, Text: e.StrOf("text"), Capabilities: knowledge.Strings(e, "capabilities"),
		Keywords: knowledge.Strings(e, "keywords"), Topic: e.StrOf("topic"), WhyClosed: e.StrOf("why_closed"),
		Kind: e.StrOf("kind"), Subject: e.StrOf("subject"), Slot: e.StrOf("slot"), Contradicts: e.StrOf("contradicts")}
	if r.Text == "" && typ == "post_task" {
		r.Text = e.StrOf("summary")
	}
	if strings.TrimSpace(r.Text) == "" && r.Topic == "" {
		return Reflection{}, time.Time{}, false
	}
	at := now
	if d, err := time.Parse("2006-01-02", e.StrOf("date")); err == nil && d.Before(now) {
		at = d
	}
	return r, at, true
}

// Believe makes the reflection r, recorded as raw at at, evidence for the
// observation it speaks to (ObserveReflection). The evidence's source is
// raw's content id without its request id, which a retried call changes.
func (b *Book) Believe(w Witness, r Reflection, raw pyjson.Value, at time.Time, an *recall.Analyzer) (*Observation, Change, error) {
	ev := NewEvidence(w, ContentID("reflection", pyjson.Canonical(raw.Without("request_id"))), FromReflection, Support, "", "")
	ev.At = at
	return b.ObserveReflection(r, ev, at, an)
}

// ObserveEntries makes the methodology and dead ends a workspace already
// holds into observations (EntryReflection, Believe), methodology first,
// and returns how many entries it read.
func (b *Book) ObserveEntries(w Witness, methodology, deadEnds []pyjson.Value, an *recall.Analyzer) (int, error) {
	n := 0
	for _, f := range []struct {
		entries []pyjson.Value
		typ     string
	}{{methodology, "post_task"}, {deadEnds, "dead_end"}} {
		for _, e := range f.entries {
			r, at, ok := EntryReflection(e, f.typ, w.Now())
			if !ok {
				continue
			}
			if _, _, err := b.Believe(w, r, e, at, an); err != nil {
				return n, err
			}
			n++
		}
	}
	return n, nil
}
