package relevance

import (
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/search"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
)

// Query is the reference's query of the knowledge for a context and the
// capabilities it resolved to, before its routing snapshot and limit.
func (s *Source) Query(context string, resolved []string) knowledge.Query {
	return knowledge.Query{Keywords: knowledge.Words(context), Capabilities: resolved, Now: s.Now,
		DecayRate: DecayRate, StructuralWeight: StructuralWeight}
}

// candidates returns the entries of a data file a search returning max
// hits could return (search.Candidates), after the transaction has made
// the index current if it may.
func (s *Source) candidates(rel string, window, max int, p *knowledge.Prepared, k knowledge.Kind) ([]pyjson.Value, error) {
	s.Tx.RefreshIndex(rel)
	return search.Candidates(s.Tx, rel, window, max, p, k)
}

// ReferenceDeadEnds searches the dead ends for a context as the reference
// does (models v2 and v3), at most MaxDeadEndHits.
func (s *Source) ReferenceDeadEnds(context string, q knowledge.Query) ([]knowledge.DeadEndHit, error) {
	q.Max = MaxDeadEndHits
	deadEnds, err := s.candidates(workspace.RelDeadEnds, 0, q.Max, q.Prepare(context), knowledge.DeadEndKind)
	if err != nil {
		return nil, err
	}
	return knowledge.SearchDeadEnds(deadEnds, q, context), nil
}

// referenceHits are the reference's methodology and judgment hits for q
// (models v2 and v3); the judgment nodes searched are the last
// judgmentWindow.
func (s *Source) referenceHits(q knowledge.Query, judgmentWindow int) (methodology, judgment []knowledge.Hit, err error) {
	prepared := q.Prepare("")
	entries, err := s.candidates(workspace.RelMethodology, 0, q.Max, prepared, knowledge.MethodologyKind)
	if err != nil {
		return nil, nil, err
	}
	nodes, err := s.candidates(workspace.RelJudgment, judgmentWindow, q.Max, prepared, knowledge.JudgmentKind)
	if err != nil {
		return nil, nil, err
	}
	return knowledge.SearchMethodology(entries, q), knowledge.SearchJudgmentNodes(nodes, q), nil
}

// Reference is the reference's search of methodology, judgment nodes
// (the last judgmentWindow) and the dead ends found (ReferenceDeadEnds),
// as consult shows them (models v2 and v3).
func (s *Source) Reference(q knowledge.Query, deadHits []knowledge.DeadEndHit, judgmentWindow int) (methHits, judgmentHits, deadOut []pyjson.Value, err error) {
	methodology, nodes, err := s.referenceHits(q, judgmentWindow)
	if err != nil {
		return nil, nil, nil, err
	}
	for _, h := range methodology {
		methHits = append(methHits, pyjson.Obj(
			pyjson.KV("summary", h.Entry.StrOf("summary")),
			pyjson.KV("date", h.Entry.StrOf("date")),
			pyjson.KV("capabilities", h.Entry.GetOr("capabilities", pyjson.ArrayValue(nil))),
		))
	}
	for _, h := range nodes {
		judgmentHits = append(judgmentHits, pyjson.Obj(
			pyjson.KV("id", h.Entry.GetOr("id", pyjson.StringValue(""))),
			pyjson.KV("action", h.Entry.GetOr("action", pyjson.StringValue(""))),
			pyjson.KV("methodology_summary", h.Entry.GetOr("methodology_summary", pyjson.StringValue(""))),
			pyjson.KV("negative_knowledge", h.Entry.GetOr("negative_knowledge", pyjson.StringValue(""))),
			pyjson.KV("outcome_success", h.Entry.GetOr("outcome_success", pyjson.StringValue(""))),
			pyjson.KV("date", h.Entry.GetOr("date", pyjson.StringValue(""))),
		))
	}
	for _, h := range deadHits {
		matched := h.ReopenMatched
		if matched == nil {
			matched = []string{}
		}
		deadOut = append(deadOut, pyjson.Obj(
			pyjson.KV("topic", h.Entry.GetOr("topic", pyjson.StringValue(""))),
			pyjson.KV("why_closed", h.Entry.GetOr("why_closed", pyjson.StringValue(""))),
			pyjson.KV("date", h.Entry.GetOr("date", pyjson.StringValue(""))),
			pyjson.KV("reopen_conditions", h.Entry.GetOr("reopen_conditions", pyjson.StringValue(""))),
			pyjson.KV("reopen_triggered", h.ReopenTriggered),
			pyjson.KV("reopen_matched", matched),
		))
	}
	return methHits, judgmentHits, deadOut, nil
}

// DeadEndHits finds the dead ends that fit a consult's context and those
// that penalise: a model that governs knowledge (governs: v4 and later)
// takes them from its knowledge context (kc), the others search the dead
// ends as the reference does (deadHits, which all penalise).
func (s *Source) DeadEndHits(context string, q knowledge.Query, governs bool) (kc Context, deadHits, penalising []knowledge.DeadEndHit, err error) {
	if governs {
		kc, err = s.Context(context)
		return kc, nil, kc.Penalising, err
	}
	deadHits, err = s.ReferenceDeadEnds(context, q)
	return kc, deadHits, deadHits, err
}
