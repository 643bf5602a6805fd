package relevance

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/search"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
	"github.com/unified-cognitive-substrate/ucs/recall"
)

// A consult of a workspace of model v4 finds its methodology, dead ends and
// judgment nodes with one routine: BM25 over each entry whole
// (its title, text, pattern, conditions, keywords and capabilities, as
// termFields weighs them), read from the workspace's term index
// (search.Terms), so that its cost grows with the hits and not
// with the entries. Each hit ranks by relevance × recency:
//
//	relevance = s / (s + 1)          s: the entry's BM25 score for the context
//	recency   = 1 / (1 + 0.01·days)  the reference's decay of an entry's date
//
// Hits ranking below knowledgeMinRank, near-duplicates of a hit ranked
// above, and dead ends that neither match the context (DeadEnds)
// nor have their reopen conditions hold are left out; at most
// MaxMethodologyHits methodology entries and judgment nodes and
// MaxDeadEndHits dead ends are kept, within knowledgeMaxBytes of JSON in
// all, and the answer's "left_out" counts the rest by kind. Each hit
// explains its rank. A workspace of model v2 or v3 keeps the reference's
// search.
const (
	// MaxMethodologyHits is the most methodology entries, and the most
	// judgment nodes, a consult shows; MaxDeadEndHits the most dead ends.
	MaxMethodologyHits = 5
	MaxDeadEndHits     = 3
	// DecayRate is the reference's decay of an entry's date, per day.
	DecayRate = 0.01
	// StructuralWeight weighs the similarity of routing snapshots in the
	// reference's search.
	StructuralWeight = 10.0

	knowledgeMinRank  = 0.02
	knowledgeMaxBytes = 4000
	// knowledgeCandidates is how many hits of each kind the search returns
	// for the filters to choose from.
	knowledgeCandidates = 40
	// shownText is the most characters of an entry's text a hit shows:
	// the entry is kept whole, the hit is a view of it.
	shownText = 280
)

// knowledgeHit is a hit of the knowledge context, ranked.
type knowledgeHit struct {
	entry                    pyjson.Value
	line                     int
	rank, relevance, recency float64
	matched, terms           []string
	// agent names the workspace the entry is from when the consult
	// searched a fleet; peer is 0 for the agent's own, else its peer's
	// position + 1; weight is FleetWeight for a peer's.
	agent  string
	peer   int
	weight float64
}

// A Context is the methodology, dead ends and judgment nodes a consult of
// a v4 workspace shows for a context, and the dead ends that penalise.
type Context struct {
	Methodology, DeadEnds, Judgment []pyjson.Value
	Penalising                      []knowledge.DeadEndHit
	// LeftOut counts the hits of each kind left out.
	LeftOut pyjson.Value
}

// Context finds what a v4 workspace (and its fleet) knows about a context.
func (s *Source) Context(context string) (Context, error) {
	var kc Context
	ctx := s.Analyzer().Terms(context)
	size := 0
	left := map[string]int{}
	for _, kind := range []struct {
		rel, name string
		max       int
	}{{workspace.RelDeadEnds, "dead_ends", MaxDeadEndHits}, {workspace.RelMethodology, "methodology", MaxMethodologyHits}, {workspace.RelJudgment, "judgment", MaxMethodologyHits}} {
		hits, err := s.rankedKnowledge(kind.rel, ctx)
		if err != nil {
			return kc, err
		}
		var kept [][]string
		for _, h := range hits {
			if len(kept) >= kind.max || slices.ContainsFunc(kept, func(t []string) bool { return recall.NearDuplicate(t, h.terms) }) {
				left[kind.name]++
				continue
			}
			var v pyjson.Value
			var pen []knowledge.DeadEndHit
			switch kind.rel {
			case workspace.RelDeadEnds:
				shown, penalising := DeadEnds(s.Analyzer(), []knowledge.DeadEndHit{{Hit: knowledge.Hit{Entry: h.entry}}}, context)
				if len(shown) == 0 {
					continue // not relevant: not left out either
				}
				v, pen = deadEndView(shown[0], h), penalising
			case workspace.RelMethodology:
				v = pyjson.Obj(
					pyjson.KV("summary", shown(methodologyText(h.entry))),
					pyjson.KV("date", h.entry.StrOf("date")),
					pyjson.KV("capabilities", h.entry.GetOr("capabilities", pyjson.ArrayValue(nil))),
					pyjson.KV("rank", h.rankValue()))
			case workspace.RelJudgment:
				v = pyjson.Obj(
					pyjson.KV("id", h.entry.GetOr("id", pyjson.StringValue(""))),
					pyjson.KV("action", h.entry.GetOr("action", pyjson.StringValue(""))),
					pyjson.KV("methodology_summary", shown(h.entry.StrOf("methodology_summary"))),
					pyjson.KV("negative_knowledge", shown(h.entry.StrOf("negative_knowledge"))),
					pyjson.KV("outcome_success", h.entry.GetOr("outcome_success", pyjson.StringValue(""))),
					pyjson.KV("date", h.entry.GetOr("date", pyjson.StringValue(""))),
					pyjson.KV("rank", h.rankValue()))
			}
			v = h.withAgent(v)
			n := len(pyjson.AppendCompact(nil, v))
			if size+n > knowledgeMaxBytes {
				left[kind.name]++
				continue
			}
			size += n
			kept = append(kept, h.terms)
			kc.Penalising = append(kc.Penalising, pen...)
			switch kind.rel {
			case workspace.RelDeadEnds:
				kc.DeadEnds = append(kc.DeadEnds, v)
			case workspace.RelMethodology:
				kc.Methodology = append(kc.Methodology, v)
			case workspace.RelJudgment:
				kc.Judgment = append(kc.Judgment, v)
			}
		}
	}
	kc.LeftOut = pyjson.Obj(pyjson.KV("methodology", left["methodology"]), pyjson.KV("dead_ends", left["dead_ends"]),
		pyjson.KV("judgment", left["judgment"]))
	return kc, nil
}

// FleetWeight scales the rank of another agent's entry (a fleet's peer):
// an agent's own evidence weighs more.
const FleetWeight = 0.8

// rankedKnowledge searches a knowledge file, and the same file of the
// fleet's other workspaces, for the context's terms and ranks the hits by
// relevance × recency (× FleetWeight for another agent's), best first
// (ties: the agent's own first, then in file order), without those ranking
// below knowledgeMinRank. With peers, each hit names its agent.
func (s *Source) rankedKnowledge(rel string, ctx []string) ([]knowledgeHit, error) {
	if len(ctx) == 0 {
		return nil, nil
	}
	out, err := s.rankedIn(s.Tx, rel, ctx, "", 1)
	if err != nil {
		return nil, err
	}
	if len(s.Peers) > 0 {
		for i := range out {
			out[i].agent = s.Agent
		}
	}
	for i, p := range s.Peers {
		// A peer's mirror is this process's own copy: searched as a
		// writer, so that its term index is kept.
		tx, err := p.WS.Begin(true)
		if err != nil {
			continue // a peer that cannot be read is left out
		}
		hits, err := s.rankedIn(tx, rel, ctx, p.Name, FleetWeight)
		tx.Close()
		if err != nil {
			continue
		}
		for j := range hits {
			hits[j].peer = i + 1
		}
		out = append(out, hits...)
	}
	slices.SortStableFunc(out, func(a, b knowledgeHit) int {
		switch {
		case a.rank > b.rank:
			return -1
		case a.rank < b.rank:
			return 1
		case a.peer != b.peer:
			return a.peer - b.peer
		}
		return a.line - b.line
	})
	return out, nil
}

// rankedIn ranks the hits of one workspace's file (see rankedKnowledge).
func (s *Source) rankedIn(tx *workspace.Tx, rel string, ctx []string, agent string, weight float64) ([]knowledgeHit, error) {
	rule := s.termRule(rel)
	hits, err := search.Terms(tx, rel, recall.Query{Terms: ctx, Max: knowledgeCandidates}, rule)
	if err != nil {
		return nil, err
	}
	var out []knowledgeHit
	for _, h := range hits {
		k := knowledgeHit{entry: h.Entry, line: h.Line, agent: agent, weight: weight, relevance: h.Score / (h.Score + 1),
			recency: knowledge.Decay(h.Entry.StrOf("date"), s.Now, DecayRate)}
		k.rank = k.relevance * k.recency * weight
		if k.rank < knowledgeMinRank {
			continue
		}
		for _, m := range h.Matched {
			k.matched = append(k.matched, m.Term)
		}
		var text []string
		for _, f := range rule.Fields(h.Entry) {
			text = append(text, f.Text)
		}
		k.terms = s.Analyzer().Terms(strings.Join(text, " "))
		out = append(out, k)
	}
	return out, nil
}

// rankValue explains a hit's rank.
func (h knowledgeHit) rankValue() pyjson.Value {
	ms := []pyjson.Member{pyjson.KV("score", pyjson.Round(h.rank, 4)), pyjson.KV("relevance", pyjson.Round(h.relevance, 4)),
		pyjson.KV("recency", pyjson.Round(h.recency, 4))}
	if h.weight != 1 {
		ms = append(ms, pyjson.KV("fleet_weight", h.weight))
	}
	return pyjson.ObjectValue(append(ms, pyjson.KV("matched", h.matched)))
}

// withAgent adds the hit's agent to its view, when the consult searched
// a fleet.
func (h knowledgeHit) withAgent(v pyjson.Value) pyjson.Value {
	if h.agent == "" {
		return v
	}
	return v.With("agent", h.agent)
}

// deadEndView is a dead end as a v4 consult shows it.
func deadEndView(d knowledge.DeadEndHit, h knowledgeHit) pyjson.Value {
	matched := d.ReopenMatched
	if matched == nil {
		matched = []string{}
	}
	return pyjson.Obj(
		pyjson.KV("topic", d.Entry.GetOr("topic", pyjson.StringValue(""))),
		pyjson.KV("why_closed", shown(d.Entry.StrOf("why_closed"))),
		pyjson.KV("date", d.Entry.GetOr("date", pyjson.StringValue(""))),
		pyjson.KV("reopen_conditions", d.Entry.GetOr("reopen_conditions", pyjson.StringValue(""))),
		pyjson.KV("reopen_triggered", d.ReopenTriggered),
		pyjson.KV("reopen_matched", matched),
		pyjson.KV("rank", h.rankValue()),
	)
}

// methodologyText is what a methodology entry says: its whole text, or an
// older entry's summary.
func methodologyText(e pyjson.Value) string {
	if t := e.StrOf("text"); t != "" {
		return t
	}
	return e.StrOf("summary")
}

// shown cuts a text to shownText characters, marking the cut.
func shown(s string) string {
	if utf8.RuneCountInString(s) <= shownText {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:shownText-1])) + "…"
}
