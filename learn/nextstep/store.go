package nextstep

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
)

// A Store holds a model's records by key: the evidence learned under one
// key of a count table or one group of the success model's weights. A
// model reads the records of the keys a ranking or an update touches, and
// nothing else, so what a call costs does not depend on how much was
// learned.
type Store interface {
	// Record returns the newest value of key, or nil when there is none.
	Record(key string) ([]byte, error)
}

// A Record is one key's evidence, encoded as a JSON object: the whole
// value, or with Merge a merge patch (RFC 7386) of what changed, to apply
// to the stored value.
type Record struct {
	Key   string
	Value []byte
	Merge bool
}

// Globals are the model's few numbers that are not per key: the
// frequencies' learned weight and the clocks. A workspace keeps them with
// its other small state, beside the store.
type Globals struct {
	Beta  float64 // the frequencies' weight (Params.Hedge)
	Clock int64   // outcomes the success model learned
	Calls int64   // calls observed
}

// sep separates the parts of a key: a control character no capability,
// task or term holds (learn.Terms keeps letters and digits), and one
// PostgreSQL's jsonb takes (it refuses \u0000).
const sep = "\x1f"

// Open returns a model that reads its evidence from st, with the globals a
// previous call left. What it changes is kept in memory until Changes.
func Open(p Params, st Store, g Globals) *Model {
	m := New(p)
	m.store = st
	m.beta, m.clock, m.calls = g.Beta, g.Clock, g.Calls
	return m
}

// Globals returns the model's numbers that are not per key.
func (m *Model) Globals() Globals { return Globals{Beta: m.beta, Clock: m.clock, Calls: m.calls} }

// Err returns the first error the store or a damaged record gave; once
// set, the model ranks and learns as if the key were absent, and the
// caller must not commit its changes.
func (m *Model) Err() error { return m.err }

// table returns the counts under key, loading them from the store on first
// use; nil when there are none.
func (m *Model) table(key string) *counts { return cached(m, m.tables, key, decodeCounts) }

// group returns the success model's weights of a feature, by next tool,
// loading them on first use; nil when there are none.
func (m *Model) group(key string) map[string]*weight {
	return cached(m, m.weights, key, decodeWeights)
}

// cached returns the record of key from the model's cache, else decoded
// from the store and cached (the zero value when the store has none, or
// has a record that does not decode: then Err says so).
func cached[T any](m *Model, cache map[string]T, key string, decode func([]byte) (T, error)) T {
	if v, ok := cache[key]; ok {
		return v
	}
	var v T
	if raw := m.load(key); raw != nil {
		var err error
		if v, err = decode(raw); err != nil {
			m.fail(fmt.Errorf("nextstep record %q: %v", key, err))
			var zero T
			v = zero
		}
	}
	cache[key] = v
	return v
}

func (m *Model) load(key string) []byte {
	if m.store == nil || m.err != nil {
		return nil
	}
	raw, err := m.store.Record(key)
	if err != nil {
		m.fail(err)
		return nil
	}
	return raw
}

func (m *Model) fail(err error) {
	if m.err == nil {
		m.err = err
	}
}

func (m *Model) touch(key string) { m.dirty[key] = true }

// Changes returns the records changed since Open (or the last Changes),
// sorted by key, and forgets that they changed: a key the store did not
// hold whole, any other as a merge patch of the tools whose evidence
// changed (and a count key's totals), so that a call writes what it
// learned and not every tool's evidence under each key it touched. A
// record evicted in memory is not among them. Without merge every record
// is whole, for a store that cannot apply a merge.
func (m *Model) Changes(merge bool) []Record {
	keys := slices.Sorted(maps.Keys(m.dirty))
	out := make([]Record, 0, len(keys))
	for _, k := range keys {
		if c := m.tables[k]; c != nil {
			if c.fresh || !merge {
				out = append(out, Record{Key: k, Value: c.appendJSON(nil, nil)})
			} else {
				out = append(out, Record{Key: k, Value: c.appendJSON(nil, c.changed), Merge: true})
			}
			c.fresh, c.changed = false, nil
		} else if g := m.weights[k]; g != nil {
			if m.wfresh[k] || !merge {
				out = append(out, Record{Key: k, Value: appendWeights(nil, g, nil)})
			} else {
				out = append(out, Record{Key: k, Value: appendWeights(nil, g, m.wchanged[k]), Merge: true})
			}
		}
	}
	clear(m.dirty)
	clear(m.wfresh)
	clear(m.wchanged)
	return out
}

// Records returns every record the model holds in memory, sorted by key:
// for a model without a store, all it learned.
func (m *Model) Records() []Record {
	keys := slices.Collect(maps.Keys(m.tables))
	for k := range m.weights {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, cmp.Compare)
	var out []Record
	for _, k := range slices.Compact(keys) {
		if r, ok := m.record(k); ok {
			out = append(out, r)
		}
	}
	return out
}

// Record returns the whole value of key as the model holds it in memory,
// nil when it holds none: a model without a store (New) is the Store of
// what it learned, so that agents in one process can be each other's
// fleet (Pooled).
func (m *Model) Record(key string) ([]byte, error) {
	r, ok := m.record(key)
	if !ok {
		return nil, nil
	}
	return r.Value, nil
}

func (m *Model) record(k string) (Record, bool) {
	if c := m.tables[k]; c != nil {
		return Record{Key: k, Value: c.appendJSON(nil, nil)}, true
	}
	if g := m.weights[k]; g != nil {
		return Record{Key: k, Value: appendWeights(nil, g, nil)}, true
	}
	return Record{}, false
}

// MapStore is a Store in memory, for tests and for a model loaded whole.
type MapStore map[string][]byte

// Record returns the value of key.
func (s MapStore) Record(key string) ([]byte, error) { return s[key], nil }

// Put stores records, applying a merge as the record log does (RFC 7386,
// which on these records replaces members, and the members of "to").
func (s MapStore) Put(recs []Record) {
	for _, r := range recs {
		if !r.Merge || s[r.Key] == nil {
			s[r.Key] = r.Value
			continue
		}
		var old, patch map[string]json.RawMessage
		_ = json.Unmarshal(s[r.Key], &old)
		_ = json.Unmarshal(r.Value, &patch)
		for k, v := range patch {
			if k == "to" {
				var oto, pto map[string]json.RawMessage
				_ = json.Unmarshal(old[k], &oto)
				_ = json.Unmarshal(v, &pto)
				if oto == nil {
					oto = map[string]json.RawMessage{}
				}
				for t, x := range pto {
					oto[t] = x
				}
				v, _ = json.Marshal(oto)
			}
			old[k] = v
		}
		s[r.Key], _ = json.Marshal(old)
	}
}

// A counts record: {"m":whole successes,"n":weighted successes,"t":last
// update,"to":{"TOOL":[successes,failures,whole successes,whole failures,
// update]},"u":updates}; only the tools in only, when it is not nil (a
// merge patch).
func (c *counts) appendJSON(b []byte, only map[string]bool) []byte {
	b = append(b, `{"m":`...)
	b = strconv.AppendInt(b, c.M, 10)
	b = append(b, `,"n":`...)
	b = appendFloat(b, c.N)
	b = append(b, `,"t":`...)
	b = strconv.AppendInt(b, c.Last, 10)
	b = append(b, `,"to":{`...)
	tools := slices.Sorted(maps.Keys(c.To))
	if only != nil {
		tools = slices.Sorted(maps.Keys(only))
	}
	for i, to := range tools {
		if i > 0 {
			b = append(b, ',')
		}
		o := c.To[to]
		b = appendString(b, to)
		b = append(b, ':', '[')
		b = appendFloat(b, o.S)
		b = append(b, ',')
		b = appendFloat(b, o.F)
		b = append(b, ',')
		b = strconv.AppendInt(b, o.NS, 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, o.NF, 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, o.U, 10)
		b = append(b, ']')
	}
	b = append(b, `},"u":`...)
	b = strconv.AppendInt(b, c.U, 10)
	return append(b, '}')
}

func decodeCounts(raw []byte) (*counts, error) {
	var r struct {
		M  int64                 `json:"m"`
		N  float64               `json:"n"`
		T  int64                 `json:"t"`
		U  int64                 `json:"u"`
		To map[string][5]float64 `json:"to"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, err
	}
	c := &counts{M: r.M, N: r.N, Last: r.T, U: r.U, To: make(map[string]*outcomes, len(r.To))}
	for to, o := range r.To {
		if int64(o[4]) > r.U {
			return nil, fmt.Errorf("%q was stored at update %d, after the key's %d", to, int64(o[4]), r.U)
		}
		c.To[to] = &outcomes{S: o[0], F: o[1], NS: int64(o[2]), NF: int64(o[3]), U: int64(o[4])}
	}
	return c, nil
}

// A weights record: {"TOOL":[mean,variance,clock,outcomes]}; only the
// tools in only, when it is not nil (a merge patch).
func appendWeights(b []byte, g map[string]*weight, only map[string]bool) []byte {
	b = append(b, '{')
	tools := slices.Sorted(maps.Keys(g))
	if only != nil {
		tools = slices.Sorted(maps.Keys(only))
	}
	for i, to := range tools {
		if i > 0 {
			b = append(b, ',')
		}
		w := g[to]
		b = appendString(b, to)
		b = append(b, ':', '[')
		b = appendFloat(b, w.M)
		b = append(b, ',')
		b = appendFloat(b, w.V)
		b = append(b, ',')
		b = strconv.AppendInt(b, w.T, 10)
		b = append(b, ',')
		b = appendFloat(b, w.N)
		b = append(b, ']')
	}
	return append(b, '}')
}

func decodeWeights(raw []byte) (map[string]*weight, error) {
	var r map[string][4]float64
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, err
	}
	g := make(map[string]*weight, len(r))
	for to, w := range r {
		g[to] = &weight{M: w[0], V: w[1], T: int64(w[2]), N: w[3]}
	}
	return g, nil
}

// appendFloat writes the shortest decimal that reads back as x.
func appendFloat(b []byte, x float64) []byte { return strconv.AppendFloat(b, x, 'g', -1, 64) }

// appendString appends s as a JSON string.
func appendString(b []byte, s string) []byte {
	q, _ := json.Marshal(s) // a string always marshals
	return append(b, q...)
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
