package transfer

import (
	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/quickjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
)

// The fleet prior is the other direction of a transfer: a new v3 or v4
// workspace made with init's fleet_prior starts from what the fleet's
// other workspaces learned, pooled, instead of from a package.

// fleetShare is how much of the fleet's averaged evidence a new agent's
// model starts with (learn.Pool).
const fleetShare = 0.5

// A Peer is another workspace of the fleet, read-only.
type Peer struct {
	Name string
	WS   *workspace.Workspace
}

// FleetPrior is the model a new workspace starts from with fleet_prior:
// the models of the peers that have one (of params' kind), pooled
// (learn.Pool), and the names of those peers; nil when none has. A peer
// whose state does not read is passed over: it is another agent's, not
// this workspace's to repair.
func FleetPrior(peers []Peer, params learn.Params) (*learn.Model, []string) {
	var models []*learn.Model
	var from []string
	for _, p := range peers {
		raw, err := p.WS.ReadFile(workspace.RelState)
		if err != nil {
			continue
		}
		// A v3 or v4 state holds its model as its learn member's model; the
		// reference's has none.
		mr := quickjson.Member(quickjson.Member(gjson.ParseBytes(raw), "learn"), "model")
		if !mr.Exists() {
			continue // a peer of the reference's model
		}
		pm, err := learn.Decode([]byte(mr.Raw), params)
		if err != nil {
			continue
		}
		models, from = append(models, pm), append(from, p.Name)
	}
	if len(models) == 0 {
		return nil, nil
	}
	return learn.Pool(models, params, fleetShare), from
}

// PriorInput is the journal's record of a fleet prior: what the peers
// held is the outside world's, so the journal keeps the prior, and a
// replay reads it back (RecordedPrior).
func PriorInput(prior *learn.Model, from []string) pyjson.Value {
	raw, _ := pyjson.Parse(prior.AppendJSON(nil))
	return pyjson.Obj(pyjson.KV("prior", raw), pyjson.KV("prior_from", from))
}

// RecordedPrior is the fleet prior a journaled init recorded
// (PriorInput), read in a replay; nil when there was none.
func RecordedPrior(input pyjson.Value, params learn.Params) (*learn.Model, []string, error) {
	raw, ok := input.Get("prior")
	if !ok {
		return nil, nil, nil
	}
	prior, err := learn.Decode(pyjson.AppendCompact(nil, raw), params)
	if err != nil {
		return nil, nil, fault.Corrupt(err, workspace.RelJournal)
	}
	var from []string
	if f, ok := input.Get("prior_from"); ok {
		for _, it := range f.Items() {
			from = append(from, it.Str())
		}
	}
	return prior, from, nil
}

// Prior is the model a new workspace of model m starts from with
// fleet_prior, and the peers it came from: in a replay the one the
// journal recorded (RecordedPrior, from the event's input), else the
// peers' own, pooled (FleetPrior). Nil for a model that does not learn,
// or when no peer has a model.
func Prior(m *advice.Model, replaying bool, input pyjson.Value, peers []Peer) (*learn.Model, []string, error) {
	switch {
	case !m.Learns():
		return nil, nil, nil
	case replaying:
		return RecordedPrior(input, *m.Params)
	}
	prior, from := FleetPrior(peers, *m.Params)
	return prior, from, nil
}
