package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/relevance"
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
