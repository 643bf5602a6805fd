package nextstep

import (
	"maps"
	"math"
	"slices"
)

// What other agents learned, as a prior under a model's own evidence.
//
// A model given a fleet (SetFleet) ranks with, for every key it reads, the
// peers' record of the same key pooled (Pooled) beside its own: the peers'
// counts enter as pseudo-observations, scaled so that a key's fleet counts
// weigh at most Params.FleetCap successes, and each success-model weight
// the peers hold adds their evidence beyond the prior (its precision, and
// its precision-weighted mean, less the prior's) capped at
// Params.FleetCap outcomes' worth. The model's own counts and
// weights enter in full, so where it has evidence of its own that evidence
// wins, and where it has none the fleet decides. Only the ranking reads the
// fleet: what the model learns and writes (Observe, Changes) is its own,
// so its records never hold another agent's evidence and the fleet can go
// without changing them.

// SetFleet gives the model the fleet's evidence, read key by key from st
// (nil: none; the model ranks on its own evidence alone, exactly as
// without a fleet). Params.FleetCap bounds what a key of it weighs.
func (m *Model) SetFleet(st Store) {
	m.fleet = st
	m.fleetTools = nil
	m.ftables = map[string]*counts{}
	m.fweights = map[string]map[string]*weight{}
}

// HasFleet reports whether the model ranks with a fleet's evidence.
func (m *Model) HasFleet() bool { return m.fleet != nil }

// fleetTable returns the fleet's counts under key, loading them on first
// use; nil when it has none.
func (m *Model) fleetTable(key string) *counts {
	return fleetCached(m, m.ftables, key, decodeCounts)
}

// fleetGroup returns the fleet's success-model weights of a feature.
func (m *Model) fleetGroup(key string) map[string]*weight {
	return fleetCached(m, m.fweights, key, decodeWeights)
}

func fleetCached[T any](m *Model, cache map[string]T, key string, decode func([]byte) (T, error)) T {
	if v, ok := cache[key]; ok {
		return v
	}
	var v T
	raw, err := m.fleet.Record(key)
	if err != nil {
		m.fail(err)
	} else if raw != nil {
		if v, err = decode(raw); err != nil {
			var zero T
			v = zero // another agent's damaged record is no evidence, not this model's error
		}
	}
	cache[key] = v
	return v
}

// fleetScale is the factor a key's fleet counts enter with: all of them
// up to Params.FleetCap weighted successes, scaled down beyond.
func (m *Model) fleetScale(f *counts) float64 {
	if f.N <= m.P.FleetCap || f.N <= 0 {
		return 1
	}
	return m.P.FleetCap / f.N
}

// rankTable returns the counts a ranking reads under key: the model's own,
// and with a fleet, the fleet's added as a capped prior (a table of its
// own, every outcome as it is worth now, so nothing fades twice).
func (m *Model) rankTable(key string) *counts {
	own := m.table(key)
	if m.fleet == nil {
		return own
	}
	f := m.fleetTable(key)
	if f == nil {
		return own
	}
	k := m.fleetScale(f)
	c := &counts{To: map[string]*outcomes{}}
	add := func(src *counts, w float64) {
		if src == nil {
			return
		}
		c.N += w * src.N
		c.M += int64(math.Round(w * float64(src.M)))
		for to, o := range src.To {
			s, fl := src.outcome(to, m.P.Decay)
			x := c.To[to]
			if x == nil {
				x = &outcomes{}
				c.To[to] = x
			}
			x.S += w * s
			x.F += w * fl
			x.NS += int64(math.Round(w * float64(o.NS)))
			x.NF += int64(math.Round(w * float64(o.NF)))
		}
	}
	add(own, 1)
	add(f, k)
	return c
}

// rankBelief is the belief a ranking reads for a feature: the model's own
// (belief), and with a fleet, the fleet's information about the weight
// added, capped at Params.FleetCap outcomes' worth.
//
// The fleet's belief is a posterior: its mean already holds the prior
// the model's own belief holds, so what is added is the fleet's evidence
// alone, its precision and its precision-weighted mean less the prior's.
// Added to a model with no evidence of its own, that gives back the
// fleet's belief, not one shrunk towards the prior a second time.
func (m *Model) rankBelief(f sfeature) weight {
	w := m.belief(f)
	if m.fleet == nil {
		return w
	}
	d, h, _ := m.fleetInfo(f)
	if d <= 0 {
		return w
	}
	p := 1/w.V + d
	w.M = (w.M/w.V + h) / p
	w.V = 1 / p
	return w
}

// fleetInfo returns what the fleet knows of a feature's weight, as
// evidence beyond the prior: the information it adds (its precision less
// the prior's) and that information times the mean it points to (its
// precision-weighted mean less the prior's), both scaled to at most
// Params.FleetCap outcomes, and the outcomes that information counts for.
// The prior taken out is the model's own: a peer whose manifest declares
// other utilities held a prior mean that differs by PriorWeight times
// their difference, a tie-breaker's worth.
func (m *Model) fleetInfo(f sfeature) (info, h, n float64) {
	m.fleetRead(f.group, f.to)
	fw, ok := m.fleetGroup(f.group)[f.to]
	if !ok || fw.V <= 0 || fw.N <= 0 {
		return 0, 0, 0
	}
	v0, mu0 := priorVar, 0.0
	if f.bias {
		v0 = biasVar
		if m.Prior != nil {
			mu0 = m.P.PriorWeight * m.Prior(f.to)
		}
	}
	info = 1/fw.V - 1/v0
	if info <= 0 {
		return 0, 0, 0
	}
	h = fw.M/fw.V - mu0/v0
	n = fw.N
	if n > m.P.FleetCap {
		info *= m.P.FleetCap / n
		h *= m.P.FleetCap / n
		n = m.P.FleetCap
	}
	return info, h, n
}

// FleetShare returns the share of the evidence behind step to, in the
// episode's current state, that came from the fleet: the fleet's
// outcomes (as they enter the ranking, capped) over all outcomes, counted
// over the keys the ranking reads (the count tables' tries of to, and the
// success model's weights of to). 0 without a fleet or without evidence.
func (m *Model) FleetShare(ep *Episode, to string) float64 {
	if m.fleet == nil {
		return 0
	}
	own, fleet := 0.0, 0.0
	keys := []string{keyAll(), keyPrev(ep.Prev)}
	for _, f := range m.features(ep) {
		keys = append(keys, f.key)
	}
	for _, k := range keys {
		if c := m.table(k); c != nil {
			own += m.tries(c, to)
		}
		if f := m.fleetTable(k); f != nil {
			m.fleetRead(k, to)
			fs, ff := f.outcome(to, m.P.Decay)
			fleet += m.fleetScale(f) * (fs + ff)
		}
	}
	if m.P.Logistic {
		for _, f := range m.sfeatures(ep, to) {
			if w, ok := m.group(f.group)[to]; ok {
				own += w.N
			}
			_, _, n := m.fleetInfo(f)
			fleet += n
		}
	}
	if own+fleet <= 0 {
		return 0
	}
	return fleet / (own + fleet)
}

// fleetRead notes that a ranking read tool to's evidence under a fleet
// key (FleetRead).
func (m *Model) fleetRead(key, to string) {
	if m.fleetTools == nil {
		m.fleetTools = map[string]map[string]bool{}
	}
	if m.fleetTools[key] == nil {
		m.fleetTools[key] = map[string]bool{}
	}
	m.fleetTools[key][to] = true
}

// FleetRead returns, for each key of the fleet a ranking read, the next
// tools whose evidence it read: a record of the fleet cut to them
// (TrimRecord) ranks the same, so a call need record no more.
func (m *Model) FleetRead() map[string]map[string]bool { return m.fleetTools }

// TrimRecord keeps of a record only the next tools in tools: a count
// record keeps its totals (what a ranking reads of the others), a weights
// record only those tools' beliefs. The value must pass CheckRecord.
func TrimRecord(key string, value []byte, tools map[string]bool) ([]byte, error) {
	_, isCounts, err := keyStates(key)
	if err != nil {
		return nil, err
	}
	if isCounts {
		c, err := decodeCounts(value)
		if err != nil {
			return nil, err
		}
		for to := range c.To {
			if !tools[to] {
				delete(c.To, to)
			}
		}
		return c.appendJSON(nil, nil), nil
	}
	g, err := decodeWeights(value)
	if err != nil {
		return nil, err
	}
	for to := range g {
		if !tools[to] {
			delete(g, to)
		}
	}
	return appendWeights(nil, g, nil), nil
}

// Pooled is a Store of the fleet: each key's records in the peers' stores
// pooled as if one agent had learned them all (PoolRecord at weight 1:
// counts summed, beliefs combined by precision). A peer's record that
// does not read or pool is passed over: it is another agent's, not this
// model's to repair.
func Pooled(p Params, peers []Store) Store { return pooled{p, peers} }

type pooled struct {
	p     Params
	peers []Store
}

func (s pooled) Record(key string) ([]byte, error) {
	var out []byte
	for _, st := range s.peers {
		raw, err := st.Record(key)
		if err != nil || raw == nil || CheckRecord(key, raw) != nil {
			continue
		}
		if v, err := PoolRecord(s.p, key, out, raw, 1, Globals{}); err == nil {
			out = v
		}
	}
	return out, nil
}

// A Recorder is a Store that remembers what it returned, so that a call
// can record what it read of the outside world (a fleet's records) and a
// replay read the same (MapStore).
type Recorder struct {
	Store
	Read MapStore
}

// Record returns st's value of key, and remembers it when there is one.
func (r *Recorder) Record(key string) ([]byte, error) {
	raw, err := r.Store.Record(key)
	if err == nil && raw != nil {
		if r.Read == nil {
			r.Read = MapStore{}
		}
		r.Read[key] = raw
	}
	return raw, err
}

// Keys returns the keys the recorder read a value of, sorted.
func (r *Recorder) Keys() []string { return slices.Sorted(maps.Keys(r.Read)) }
