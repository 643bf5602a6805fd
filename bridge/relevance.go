package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/relevance"
	"github.com/unified-cognitive-substrate/ucs/recall"
)

// The session's adapters to package relevance: what the workspace knows
// about a context, read through the call's transaction.

// analyzer is the workspace's term analyzer (relevance.NewAnalyzer), built
// once per call when first asked.
func (s *session) analyzer() *recall.Analyzer {
	if s.recallAnalyzer == nil {
		s.recallAnalyzer = relevance.NewAnalyzer(s.manifest.Bytes())
	}
	return s.recallAnalyzer
}

// knowledge is what the call reads of the workspace's knowledge, and of
// the fleet's, for a context: one Source per call, so what it computes
// once (the term index's rule key) serves every search of the call.
func (s *session) knowledge() *relevance.Source {
	if s.knowledgeSrc == nil {
		s.knowledgeSrc = &relevance.Source{Tx: s.tx, Manifest: s.manifest, Now: s.now, Analyzer: s.analyzer, Agent: s.agentID}
		for _, p := range s.peers {
			s.knowledgeSrc.Peers = append(s.knowledgeSrc.Peers, relevance.Peer{Name: p.name, WS: p.ws})
		}
	}
	return s.knowledgeSrc
}

// scorePaths is relevance.ScorePaths on the session's engine and
// annotations.
func (s *session) scorePaths(src string, context, penalty map[string]float64) ([]pyjson.Value, error) {
	anns, err := s.annotations()
	if err != nil {
		return nil, err
	}
	return relevance.ScorePaths(s.engine, anns, src, context, penalty), nil
}

// enrich is relevance.Enrich on the session's engine and annotations.
func (s *session) enrich(kind string, limit int) ([]pyjson.Value, error) {
	anns, err := s.annotations()
	if err != nil {
		return nil, err
	}
	return relevance.Enrich(s.engine, anns, kind, limit), nil
}
