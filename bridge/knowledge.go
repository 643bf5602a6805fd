package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/relevance"
	"github.com/unified-cognitive-substrate/ucs/recall"
)

// analyzer is the workspace's term analyzer (relevance.NewAnalyzer), built
// once per call when first asked.
func (s *session) analyzer() *recall.Analyzer {
	if s.recallAnalyzer == nil {
		s.recallAnalyzer = relevance.NewAnalyzer(s.manifest.Bytes())
	}
	return s.recallAnalyzer
}

// knowledge is what the call reads of the workspace's knowledge, and of
// the fleet's, for a context.
func (s *session) knowledge() *relevance.Source {
	src := &relevance.Source{Tx: s.tx, Manifest: s.manifest, Now: s.now, Analyzer: s.analyzer, Agent: s.agentID}
	for _, p := range s.peers {
		src.Peers = append(src.Peers, relevance.Peer{Name: p.name, WS: p.ws})
	}
	return src
}
