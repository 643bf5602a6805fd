package transfer

import (
	"fmt"

	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/quickjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
)

// The fleet's learned evidence is the continuous transfer: a v5 consult on
// a workspace with peers ranks with what the peers learned for the keys
// it reads (nextstep.Model.SetFleet). The peers' records are the outside
// world's, so what a ranking read of them travels in the consult's
// journal event (FleetMember) and a replay ranks from that record.

// FleetMember is the consult event's input member that records what the
// ranking read of the fleet: key → the pooled record.
const FleetMember = "fleet_records"

// FleetRecords is FleetMember's value: each key the recorder read, its
// pooled record cut to the next tools the rankings read of it
// (nextstep.TrimRecord; read as nextstep.Model.FleetRead gives it), by
// key; an empty object when the peers held none of the keys, so that the
// replay ranks with a fleet too.
func FleetRecords(rec *nextstep.Recorder, read map[string]map[string]bool) pyjson.Value {
	members := make([]pyjson.Member, 0, len(rec.Read))
	for _, k := range rec.Keys() {
		// Only the tools the rankings read of it: the replay reads no more.
		raw, err := nextstep.TrimRecord(k, rec.Read[k], read[k])
		if err != nil {
			continue // a pooled record always reads
		}
		v, err := pyjson.Parse(raw)
		if err != nil {
			continue
		}
		members = append(members, pyjson.KV(k, v))
	}
	return pyjson.ObjectValue(members)
}

// RecordedFleet is the fleet's evidence a journal event recorded
// (FleetRecords), each record checked as the model's.
func RecordedFleet(v pyjson.Value) (nextstep.MapStore, error) {
	if v.Kind() != pyjson.Object {
		return nil, fmt.Errorf("%s: want an object of records", FleetMember)
	}
	st := nextstep.MapStore{}
	for _, m := range v.Members() {
		raw := pyjson.AppendCompact(nil, m.Value)
		if err := nextstep.CheckRecord(m.Key, raw); err != nil {
			return nil, fmt.Errorf("%s: %q: %v", FleetMember, m.Key, err)
		}
		st[m.Key] = raw
	}
	return st, nil
}

// PeerRecords reads a peer's v5 evidence from its record log, opening the
// peer's workspace (shared, read-only) on the first key and reading its
// state's generation; a peer that does not open, or is not of the v5
// model, holds nothing: it is another agent's, not this call's to fail on.
type PeerRecords struct {
	ws     *workspace.Workspace
	tx     *workspace.Tx
	gen    int64
	opened bool
}

// Record returns the peer's newest value of a v5 key; nil when it has none.
func (p *PeerRecords) Record(key string) ([]byte, error) {
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

func (p *PeerRecords) open() {
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

// Close releases the peer's workspace, once the ranking is done.
func (p *PeerRecords) Close() {
	if p.tx != nil {
		p.tx.Close()
		p.tx = nil
	}
}

// NewPeerRecords reads the v5 evidence of the peer workspace ws.
func NewPeerRecords(ws *workspace.Workspace) *PeerRecords { return &PeerRecords{ws: ws} }
