package belief

import (
	"strings"
	"time"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
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
