package knowledge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/phrase"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// reflectionFields are the questions of a post-task reflection prompt.
var reflectionFields = pyjson.Obj(
	pyjson.KV("initial_signal", "What first drew your attention to this approach?"),
	pyjson.KV("hypothesis", "Before confirming, what did you think would happen?"),
	pyjson.KV("confirmation_path", "What steps did you take to verify? Include dead ends."),
	pyjson.KV("near_miss", "What almost made you miss this or choose wrong?"),
	pyjson.KV("generalized_pattern", "Abstract to a reusable heuristic: When you see [X], do [Y] because [Z]."),
	pyjson.KV("negative_knowledge", "What did you rule out? What avenues are dead ends?"),
)

// Significant reports whether a report of this significance asks for a
// reflection (and records a judgment node).
func Significant(significance string) bool {
	return significance == "notable" || significance == "critical"
}

// ReflectionPrompt asks the agent to reflect on a significant action: the
// questions a post-task reflection answers, with the action's outcome.
func ReflectionPrompt(significance, action, outcome, success string) pyjson.Value {
	return pyjson.Obj(
		pyjson.KV("type", "post_task"),
		pyjson.KV("significance", significance),
		pyjson.KV("context", pyjson.Obj(pyjson.KV("action", action), pyjson.KV("outcome", outcome), pyjson.KV("success", success))),
		pyjson.KV("fields", reflectionFields),
	)
}

// A Reflection is what a post_task or dead_end reflection stores in its
// index entry.
type Reflection struct {
	Date                string
	Capabilities, Words []string
	// Text is the whole reflection, kept in the entry when KeepText (a
	// model that governs knowledge reads it back; summary is a view).
	Text     string
	KeepText bool
}

// MethodologyEntry is a post-task reflection's methodology entry: its
// summary (the text's first 200 characters on one line), who wrote it and
// the routing at the time. The caller adds its id.
func MethodologyEntry(r Reflection, summary, agentID string, routing pyjson.Value) Entry {
	entry := pyjson.Obj(
		pyjson.KV("date", r.Date),
		pyjson.KV("capabilities", r.Capabilities),
		pyjson.KV("keywords", r.Words),
		pyjson.KV("summary", summary),
		pyjson.KV("source_type", "post_task"),
		pyjson.KV("agent_id", agentID),
		pyjson.KV("routing_snapshot", routing),
	)
	if r.KeepText {
		entry = entry.With("text", r.Text)
	}
	return entry
}

// DeadEndEntry is a closed avenue's entry: its topic, why it is closed and
// what would reopen it. The caller adds its id.
func DeadEndEntry(r Reflection, topic, whyClosed, reopenConditions string) Entry {
	entry := pyjson.Obj(
		pyjson.KV("date", r.Date),
		pyjson.KV("capabilities", r.Capabilities),
		pyjson.KV("keywords", r.Words),
		pyjson.KV("topic", topic),
		pyjson.KV("why_closed", whyClosed),
		pyjson.KV("reopen_conditions", reopenConditions),
	)
	if r.KeepText {
		entry = entry.With("text", r.Text)
	}
	return entry
}

// Annotation is an annotation's line: the artifact it explains and why.
func Annotation(artifactID, text, failureCondition, generalizedPattern, at string) Entry {
	return pyjson.Obj(
		pyjson.KV("artifact_id", artifactID),
		pyjson.KV("annotation", pyjson.Obj(
			pyjson.KV("text", text),
			pyjson.KV("failure_condition", failureCondition),
			pyjson.KV("generalized_pattern", generalizedPattern),
			pyjson.KV("annotated_at", at),
		)),
	)
}

// Annotations returns the annotation of each artifact the annotation
// lines (Annotation) explain, by artifact id: the last line for an
// artifact wins.
func Annotations(lines []Entry) map[string]pyjson.Value {
	out := make(map[string]pyjson.Value, len(lines))
	for _, l := range lines {
		id := l.StrOf("artifact_id")
		if ann, ok := l.Get("annotation"); ok && id != "" {
			out[id] = ann
		}
	}
	return out
}

// A Suggestion is a methodology entry offered to explain a new wormhole:
// its summary (cut to 120 characters) and date.
type Suggestion struct{ Summary, Date string }

// Correlation suggests methodology about a new wormhole's two
// capabilities, so the agent can explain the shortcut; idPrefix is the
// artifact id's first 8 characters. A missing end is named None, as the
// reference's f-string names it.
func Correlation(artifactID, idPrefix, from, to string, suggested []Suggestion) pyjson.Value {
	list := make([]pyjson.Value, len(suggested))
	for i, s := range suggested {
		list[i] = pyjson.Obj(pyjson.KV("summary", s.Summary), pyjson.KV("date", s.Date))
	}
	return pyjson.Obj(
		pyjson.KV("artifact_id", artifactID),
		pyjson.KV("wormhole", pyName(from)+" → "+pyName(to)),
		pyjson.KV("suggested_methodology", list),
		pyjson.KV("action", "Consider annotating artifact "+idPrefix+"... with a pattern from the "+
			"methodology matches above, or write a new annotation if none fit."),
	)
}

// WormholeCorrelation is the Correlation of a new wormhole (its artifact
// id and ends) with the methodology hits found about its capabilities:
// each hit's summary cut to 120 characters, and its date.
func WormholeCorrelation(artifactID, from, to string, hits []Hit) pyjson.Value {
	suggested := make([]Suggestion, len(hits))
	for i, h := range hits {
		suggested[i] = Suggestion{Summary: phrase.RunePrefix(h.Entry.StrOf("summary"), 120), Date: h.Entry.StrOf("date")}
	}
	return Correlation(artifactID, phrase.RunePrefix(artifactID, 8), from, to, suggested)
}

// pyName formats a possibly missing name as Python's f-string would.
func pyName(s string) string {
	if s == "" {
		return "None"
	}
	return s
}
