package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/transfer"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
)

// Continuous fleet learning: a v5 consult on a workspace with peers
// (Bridge.AddPeer; a store's fleet) ranks with the peers' learned evidence
// for the keys its ranking reads, pooled and added as a capped prior under
// its own (nextstep.Model.SetFleet). The peers' records are the outside
// world's, so what the ranking read of them is recorded in the consult's
// journal event (transfer.FleetMember) and a replay ranks
// from that record, without the peers. A workspace without peers reads
// nothing and records nothing.

// useFleet gives a consult's model the fleet's evidence: in a call, the
// peers' record logs, pooled and recorded as they are read; in a replay,
// what the event recorded. close releases the peers' workspaces once the
// ranking is done (the record stays for the commit).
func (s *session) useFleet(m *nextstep.Model, c Call) (close func(), err error) {
	if s.replaying {
		v, ok := c.Input.Get(transfer.FleetMember)
		if !ok {
			return func() {}, nil
		}
		st, err := transfer.RecordedFleet(v)
		if err != nil {
			return nil, fault.Corrupt(err, workspace.RelJournal)
		}
		m.SetFleet(st)
		return func() {}, nil
	}
	if len(s.peers) == 0 {
		return func() {}, nil
	}
	peers := make([]*transfer.PeerRecords, len(s.peers))
	stores := make([]nextstep.Store, len(s.peers))
	for i, p := range s.peers {
		peers[i] = transfer.NewPeerRecords(p.ws)
		stores[i] = peers[i]
	}
	s.fleetRead = &nextstep.Recorder{Store: nextstep.Pooled(m.P, stores)}
	m.SetFleet(s.fleetRead)
	return func() {
		for _, p := range peers {
			p.Close()
		}
	}, nil
}

// recordFleet adds to a call's journaled input what its ranking read of
// the fleet (transfer.FleetRecords). Unchanged for a call without peers.
func (s *session) recordFleet(in pyjson.Value) pyjson.Value {
	if s.fleetRead == nil {
		return in
	}
	var read map[string]map[string]bool
	if v := s.learning.Steps; v != nil && v.Model != nil {
		read = v.Model.FleetRead()
	}
	if in.Kind() != pyjson.Object {
		in = pyjson.Obj()
	}
	return pyjson.SortKeys(in.With(transfer.FleetMember, transfer.FleetRecords(s.fleetRead, read)))
}
