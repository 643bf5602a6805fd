package bridge

import (
	"fmt"

	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/quickjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
)

// Continuous fleet learning: a v5 consult on a workspace with peers
// (Bridge.AddPeer; a store's fleet) ranks with the peers' learned evidence
// for the keys its ranking reads, pooled and added as a capped prior under
// its own (nextstep.Model.SetFleet). The peers' records are the outside
// world's, so what the ranking read of them is recorded in the consult's
// journal event (fleetMember: key → the pooled record) and a replay ranks
// from that record, without the peers. A workspace without peers reads
// nothing and records nothing.

// fleetMember is the consult event's input member that records what the
// ranking read of the fleet.
const fleetMember = "fleet_records"

// useFleet gives a consult's model the fleet's evidence: in a call, the
// peers' record logs, pooled and recorded as they are read; in a replay,
// what the event recorded. close releases the peers' workspaces once the
// ranking is done (the record stays for the commit).
func (s *session) useFleet(m *nextstep.Model, c Call) (close func(), err error) {
	if s.replaying {
		v, ok := c.Input.Get(fleetMember)
		if !ok {
			return func() {}, nil
		}
		st, err := recordedFleet(v)
		if err != nil {
			return nil, fault.Corrupt(err, workspace.RelJournal)
		}
		m.SetFleet(st)
		return func() {}, nil
	}
	if len(s.peers) == 0 {
		return func() {}, nil
	}
	peers := make([]*peerRecords, len(s.peers))
	stores := make([]nextstep.Store, len(s.peers))
	for i, p := range s.peers {
		peers[i] = &peerRecords{ws: p.ws}
		stores[i] = peers[i]
	}
	s.fleetRead = &nextstep.Recorder{Store: nextstep.Pooled(m.P, stores)}
	m.SetFleet(s.fleetRead)
	return func() {
		for _, p := range peers {
			p.close()
		}
	}, nil
}

// recordFleet adds to a call's journaled input what its ranking read of
// the fleet: each key's pooled record, cut to the next tools the
// rankings read of it (nextstep.TrimRecord), by key (an empty object when the
// peers held none of its keys, so the replay ranks with a fleet too).
// Unchanged for a call without peers.
func (s *session) recordFleet(in pyjson.Value) pyjson.Value {
	if s.fleetRead == nil {
		return in
	}
	var read map[string]map[string]bool
	if v := s.learning.Steps; v != nil && v.Model != nil {
		read = v.Model.FleetRead()
	}
	members := make([]pyjson.Member, 0, len(s.fleetRead.Read))
	for _, k := range s.fleetRead.Keys() {
		// Only the tools the rankings read of it: the replay reads no more.
		raw, err := nextstep.TrimRecord(k, s.fleetRead.Read[k], read[k])
		if err != nil {
			continue // a pooled record always reads
		}
		v, err := pyjson.Parse(raw)
		if err != nil {
			continue
		}
		members = append(members, pyjson.KV(k, v))
	}
	if in.Kind() != pyjson.Object {
		in = pyjson.Obj()
	}
	return pyjson.SortKeys(in.With(fleetMember, pyjson.ObjectValue(members)))
}

// recordedFleet is the fleet's evidence a journal event recorded
// (recordFleet), each record checked as the model's.
func recordedFleet(v pyjson.Value) (nextstep.MapStore, error) {
	if v.Kind() != pyjson.Object {
		return nil, fmt.Errorf("%s: want an object of records", fleetMember)
	}
	st := nextstep.MapStore{}
	for _, m := range v.Members() {
		raw := pyjson.AppendCompact(nil, m.Value)
		if err := nextstep.CheckRecord(m.Key, raw); err != nil {
			return nil, fmt.Errorf("%s: %q: %v", fleetMember, m.Key, err)
		}
		st[m.Key] = raw
	}
	return st, nil
}

// peerRecords reads a peer's v5 evidence from its record log, opening the
// peer's workspace (shared, read-only) on the first key and reading its
// state's generation; a peer that does not open, or is not of the v5
// model, holds nothing: it is another agent's, not this call's to fail on.
type peerRecords struct {
	ws     *workspace.Workspace
	tx     *workspace.Tx
	gen    int64
	opened bool
}

// Record returns the peer's newest value of a v5 key; nil when it has none.
func (p *peerRecords) Record(key string) ([]byte, error) {
	if !p.opened {
		p.open()
	}
	if p.tx == nil {
		return nil, nil
	}
	raw, err := p.tx.Record(advice.RecordKey(p.gen, key))
	if err != nil {
		return nil, nil
	}
	return raw, nil
}

func (p *peerRecords) open() {
	p.opened = true
	// As a writer, as relevance searches a peer: the peer's record index
	// is kept, so a lookup reads a short tail, not the whole log (a
	// store's mirror of a peer has no index until one is built).
	tx, err := p.ws.Begin(true)
	if err != nil {
		return
	}
	if !advice.LookupModel(tx.Meta.Model).NextSteps() {
		tx.Close()
		return
	}
	g := quickjson.Member(quickjson.Member(gjson.ParseBytes(tx.State()), "learn"), "generation")
	if g.Exists() {
		p.gen = g.Int()
	}
	p.tx = tx
}

func (p *peerRecords) close() {
	if p.tx != nil {
		p.tx.Close()
		p.tx = nil
	}
}
