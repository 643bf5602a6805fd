package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/belief"
	"github.com/unified-cognitive-substrate/ucs/goal"
	"github.com/unified-cognitive-substrate/ucs/internal/bookstore"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/relevance"
)

// Consult's context of observations: which books it ranks (the agent's
// and its fleet peers') and where their context indexes are kept; the
// index and the ranking are belief's (belief.ContextIndex,
// belief.RankContext).

// observationContext is consult's context of observations
// (belief.RankContext): the agent's own believed observations and, with a
// fleet, its peers' (weighing relevance.FleetWeight), ranked for the context.
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
		if pci := bookstore.PeerIndex(p.ws, s.analyzer()); pci != nil {
			sources = append(sources, belief.ContextSource{Index: pci, Agent: p.name, Weight: relevance.FleetWeight})
		}
	}
	return belief.RankContext(context, goalTerms, s.now, sources), nil
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

// contextIndex is the call's context index (bookstore.Context), read or
// built once; one built is written by the commit (prepareBook).
func (s *session) contextIndex() (*belief.ContextIndex, error) {
	m := &s.state.observations
	return s.obsCtx.Get(s.ws.ReadFile, m.raw, m.decoded, s.book, s.analyzer)
}
