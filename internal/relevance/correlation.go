package relevance

import (
	"github.com/unified-cognitive-substrate/ucs/internal/history"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/search"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// Correlations suggest, for each new wormhole among artifacts (as
// torusfield's Engine.DescribeArtifacts describes them), at most two
// methodology entries about its two capabilities, so the agent can
// explain the shortcut. A wormhole no entry is about is left out.
func (s *Source) Correlations(artifacts []pyjson.Value) ([]pyjson.Value, error) {
	var out []pyjson.Value
	for _, a := range artifacts {
		if a.StrOf("kind") != torusfield.KindWormhole {
			continue
		}
		from, to := a.StrOf("from"), a.StrOf("to")
		var caps []string
		for _, c := range []string{from, to} {
			if c != "" {
				caps = append(caps, c)
			}
		}
		hits, err := s.methodologyAbout(caps, 2)
		if err != nil {
			return nil, err
		}
		if len(hits) > 0 {
			out = append(out, knowledge.WormholeCorrelation(a.StrOf("id"), from, to, hits))
		}
	}
	return out, nil
}

// Misalignments are the five most used actions of allocs (most used
// first, as history.Allocate orders them) that no methodology entry is
// about (history.Misalignment).
func (s *Source) Misalignments(allocs []history.Allocation) ([]pyjson.Value, error) {
	out := []pyjson.Value{}
	for _, al := range allocs[:min(5, len(allocs))] {
		hits, err := s.methodologyAbout([]string{al.Action}, 1)
		if err != nil {
			return nil, err
		}
		if len(hits) == 0 {
			out = append(out, history.Misalignment(al))
		}
	}
	return out, nil
}

// methodologyAbout runs a capability-only methodology search
// (search.Capabilities) for at most max entries, after the transaction
// has made the index current if it may.
func (s *Source) methodologyAbout(caps []string, max int) ([]knowledge.Hit, error) {
	s.Tx.RefreshIndex(workspace.RelMethodology)
	return search.Capabilities(s.Tx, knowledge.Query{Capabilities: caps, Now: s.Now,
		DecayRate: DecayRate, StructuralWeight: StructuralWeight, Max: max})
}
