package bridge

import (
	"slices"

	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
	"github.com/unified-cognitive-substrate/ucs/recall"
)

// What a consult of a workspace of model v4 or later shows of the
// qualitative memory, and what it lets weigh on the advice: a
// hit must share a stemmed content word with the context (package recall's
// terms: tests, testing and tested are one word; parser_test.go is parser
// and test), a dead end's reopen conditions hold as a condition (all their
// key terms, or an explicit AND/OR/NOT expression), never on one shared
// word, and a dead end penalises its capabilities only when it matches the
// context. A v2 workspace keeps the reference's hits bit for bit.

// analyzer is the workspace's term analyzer: recall's, with the manifest's
// "synonyms" member when it has a valid one.
func (s *session) analyzer() *recall.Analyzer {
	if s.recallAnalyzer == nil {
		var syn recall.Synonyms
		if m := gjson.GetBytes(s.manifest.Bytes(), "synonyms"); m.Exists() {
			if t, err := recall.ParseSynonyms([]byte(m.Raw)); err == nil {
				syn = t
			}
		}
		s.recallAnalyzer = recall.NewAnalyzer(syn)
	}
	return s.recallAnalyzer
}

// entryTerms are the terms of an entry's text fields.
func (s *session) entryTerms(e pyjson.Value, fields ...string) []string {
	text := ""
	for _, f := range fields {
		if v, ok := e.Get(f); ok {
			switch v.Kind() {
			case pyjson.String:
				text += " " + v.Str()
			case pyjson.Array:
				for _, it := range v.Items() {
					text += " " + it.Str()
				}
			}
		}
	}
	return s.analyzer().Terms(text)
}

// relevantDeadEnds keeps the dead ends that match the context (share two
// of its content words, or all of a shorter context's) or whose reopen
// conditions hold, re-deciding reopen_triggered as a condition; only those
// that match the context may penalise.
func (s *session) relevantDeadEnds(hits []knowledge.DeadEndHit, context string) (shown, penalising []knowledge.DeadEndHit) {
	ctx := s.analyzer().Terms(context)
	// One shared word is too little to hold an avenue closed against a
	// task ("research the PayPal API" and a Stripe API dead end share
	// "api"): two, or all of a context of fewer.
	need := min(2, len(ctx))
	for _, h := range hits {
		matches := len(ctx) > 0 && recall.Matches(ctx, s.entryTerms(h.Entry, "topic", "why_closed", "text", "keywords"), need)
		h.ReopenTriggered, h.ReopenMatched = false, nil
		if text := h.Entry.StrOf("reopen_conditions"); text != "" {
			if c, err := recall.ParseCondition(text, s.analyzer()); err == nil && c.Holds(ctx) {
				h.ReopenTriggered = true
				for _, t := range c.Terms() {
					if slices.Contains(ctx, t) {
						h.ReopenMatched = append(h.ReopenMatched, t)
					}
				}
			}
		}
		if matches || h.ReopenTriggered {
			shown = append(shown, h)
		}
		if matches {
			penalising = append(penalising, h)
		}
	}
	return shown, penalising
}
