package bridge

import (
	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/belief"
	"github.com/unified-cognitive-substrate/ucs/goal"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
)

// Consult's context of observations: which books it ranks (the agent's
// and its fleet peers') and where their context indexes are kept; the
// index and the ranking are belief's (belief.ContextIndex,
// belief.RankContext).

// observationContext is consult's context of observations
// (belief.RankContext): the agent's own believed observations and, with a
// fleet, its peers' (weighing fleetWeight), ranked for the context.
func (s *session) observationContext(context string) (pyjson.Value, error) {
	ci, err := s.contextIndex()
	if err != nil {
		return pyjson.Value{}, err
	}
	var goalTerms []string
	if gb, err := s.goals(); err == nil {
		for _, g := range gb.Open {
			if g.State == goal.Active {
				goalTerms = append(goalTerms, s.analyzer().Terms(g.Content)...)
			}
		}
	}
	own := ""
	if len(s.peers) > 0 {
		own = s.agentID
	}
	sources := []belief.ContextSource{{Index: ci, Agent: own, Weight: 1}}
	for _, p := range s.peers {
		if pci := s.peerContextIndex(p); pci != nil {
			sources = append(sources, belief.ContextSource{Index: pci, Agent: p.name, Weight: fleetWeight})
		}
	}
	return belief.RankContext(context, goalTerms, s.now, sources), nil
}

// peerContextIndex is a fleet peer's believed observations, indexed: its
// derived files when they match its book, else built from the book; nil
// when it keeps none or they cannot be read (a peer is left out, never an
// error of this workspace's).
func (s *session) peerContextIndex(p peer) *belief.ContextIndex {
	raw, err := p.ws.ReadFile(relState)
	if err != nil {
		return nil
	}
	member := gjson.GetBytes(raw, observationsMember)
	if !member.Exists() {
		return nil
	}
	readBook := func(m []byte) ([]byte, error) { return readBook(p.ws.ReadFile, m) }
	return belief.StoredContextIndex(p.ws.ReadFile, workspace.RelObservations, []byte(member.Raw), readBook, s.analyzer())
}

// rememberContext keeps with the consult's advisory the observations it
// put in its context (its own: a peer's are not its evidence to weigh).
func (s *session) rememberContext(advisoryID string, obs pyjson.Value) {
	advs := s.learning.Advisories()
	if advisoryID == "" || len(advs) == 0 {
		return
	}
	adv := &advs[len(advs)-1]
	if adv.ID != advisoryID {
		return
	}
	adv.Observations = append(adv.Observations, belief.OwnHits(obs, s.agentID)...)
}

// The book's context index is kept beside it; stale or missing files are
// rebuilt from the book, and written by the call's commit.
const (
	relObsIndex   = workspace.RelObservations + belief.IndexExt
	relObsSummary = workspace.RelObservations + belief.SummaryExt
)

// contextIndex is the call's context index: read once, from the derived
// files when they match the book and the call has not decoded it, else
// built from the book (and then written by the commit).
func (s *session) contextIndex() (*belief.ContextIndex, error) {
	if s.obsCtx != nil {
		return s.obsCtx, nil
	}
	sum, _ := belief.BookRef(s.state.observations.raw)
	if !s.state.observations.decoded && sum != "" {
		if ci := belief.LoadContextIndex(s.ws.ReadFile, workspace.RelObservations, sum, s.analyzer()); ci != nil {
			s.obsCtx = ci
			return ci, nil
		}
	}
	b, err := s.book()
	if err != nil {
		return nil, err
	}
	s.obsCtx = belief.BuildContextIndex(b, s.analyzer())
	s.obsCtxDirty = true
	return s.obsCtx, nil
}

// writeContextIndex hands the transaction the derived files for the book
// of that hash (written unsynced by the commit: they are rebuilt whenever
// they do not match), from the call's index unless the call changed the
// book after building it.
func (s *session) writeContextIndex(book string, changed bool) error {
	ci := s.obsCtx
	if ci == nil || changed {
		b, err := s.book()
		if err != nil {
			return err
		}
		ci = belief.BuildContextIndex(b, s.analyzer())
	}
	idx, sum := ci.AppendFiles(book)
	s.tx.SetDerived(relObsIndex, idx)
	s.tx.SetDerived(relObsSummary, sum)
	return nil
}
