package relevance

import (
	"cmp"
	"slices"

	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
	"github.com/unified-cognitive-substrate/ucs/recall"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// What a consult of a workspace of model v4 or later shows of the
// qualitative memory, and what it lets weigh on the advice: a
// hit must share a stemmed content word with the context (package recall's
// terms: tests, testing and tested are one word; parser_test.go is parser
// and test), a dead end's reopen conditions hold as a condition (all their
// key terms, or an explicit AND/OR/NOT expression), never on one shared
// word, and a dead end penalises its capabilities only when it matches the
// context. A v2 workspace keeps the reference's hits bit for bit.

// NewAnalyzer is a workspace's term analyzer: recall's, with the "synonyms"
// member of its manifest (the manifest's JSON) when it has a valid one.
func NewAnalyzer(manifest []byte) *recall.Analyzer {
	var syn recall.Synonyms
	if m := gjson.GetBytes(manifest, "synonyms"); m.Exists() {
		if t, err := recall.ParseSynonyms([]byte(m.Raw)); err == nil {
			syn = t
		}
	}
	return recall.NewAnalyzer(syn)
}

// entryTerms are the terms of an entry's text fields.
func entryTerms(a *recall.Analyzer, e pyjson.Value, fields ...string) []string {
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
	return a.Terms(text)
}

// DeadEnds keeps the dead ends that match the context (share two of its
// content words, or all of a shorter context's) or whose reopen conditions
// hold, re-deciding reopen_triggered as a condition; only those that match
// the context may penalise.
func DeadEnds(a *recall.Analyzer, hits []knowledge.DeadEndHit, context string) (shown, penalising []knowledge.DeadEndHit) {
	ctx := a.Terms(context)
	// One shared word is too little to hold an avenue closed against a
	// task ("research the PayPal API" and a Stripe API dead end share
	// "api"): two, or all of a context of fewer.
	need := min(2, len(ctx))
	for _, h := range hits {
		matches := len(ctx) > 0 && recall.Matches(ctx, entryTerms(a, h.Entry, "topic", "why_closed", "text", "keywords"), need)
		h.ReopenTriggered, h.ReopenMatched = false, nil
		if text := h.Entry.StrOf("reopen_conditions"); text != "" {
			if c, err := recall.ParseCondition(text, a); err == nil && c.Holds(ctx) {
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

// PenaltyEnergy is the negative-knowledge energy of matched dead ends: one
// unit per dead end on each capability of the manifest it names or its
// keywords evoke; order lists the capabilities as first penalised.
func PenaltyEnergy(m *torusfield.Manifest, kw *Keywords, hits []knowledge.DeadEndHit) (order []string, energy map[string]float64) {
	energy = map[string]float64{}
	for _, h := range hits {
		caps := knowledge.Strings(h.Entry, "capabilities")
		for _, word := range knowledge.Strings(h.Entry, "keywords") {
			caps = append(caps, kw.Evoke(word)...)
		}
		seen := map[string]bool{}
		for _, c := range caps {
			if seen[c] || !m.Has(c) {
				continue
			}
			seen[c] = true
			if _, ok := energy[c]; !ok {
				order = append(order, c)
			}
			energy[c] += 1.0
		}
	}
	return order, energy
}

// Applied lists the penalties above 0.01, largest first (ties in order),
// as consult's "penalty_applied" shows them.
func Applied(order []string, energy map[string]float64) pyjson.Value {
	order = slices.Clone(order)
	slices.SortStableFunc(order, func(a, b string) int { return cmp.Compare(energy[b], energy[a]) })
	ms := []pyjson.Member{}
	for _, c := range order {
		if energy[c] > 0.01 {
			ms = append(ms, pyjson.KV(c, pyjson.Round(energy[c], 4)))
		}
	}
	return pyjson.ObjectValue(ms)
}
