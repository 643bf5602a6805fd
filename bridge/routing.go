package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/relevance"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

var round = pyjson.Round

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

// routingSnapshot is relevance.RoutingSnapshot on the session's engine.
func (s *session) routingSnapshot(cursor string, paths []pyjson.Value, context []torusfield.NodeEnergy, wormholes, attractors []pyjson.Value) pyjson.Value {
	return relevance.RoutingSnapshot(s.engine, cursor, paths, context, wormholes, attractors)
}
