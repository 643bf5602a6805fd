package nextstep

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
)

// AppendJSON appends the model's state as one JSON object, keys sorted at
// every level, so the same evidence always writes the same bytes:
//
//	{"beta": B, "calls": N, "clock": N,
//	 "counts": {"KEY": {"n": N, "s": {"TO": successes, …}, "f": {"TO": failures, …}, "t": last update}, …},
//	 "weights": {"KEY": [mean, variance, clock, outcomes], …}}
func (m *Model) AppendJSON(b []byte) []byte {
	b = append(b, `{"beta":`...)
	b = strconv.AppendFloat(b, m.beta, 'g', -1, 64)
	b = append(b, `,"calls":`...)
	b = strconv.AppendInt(b, m.calls, 10)
	b = append(b, `,"clock":`...)
	b = strconv.AppendInt(b, m.clock, 10)
	b = append(b, `,"counts":{`...)
	for i, k := range slices.Sorted(maps.Keys(m.tables)) {
		if i > 0 {
			b = append(b, ',')
		}
		c := m.tables[k]
		b = appendString(b, k)
		b = append(b, `:{"n":`...)
		b = strconv.AppendFloat(b, c.N, 'g', -1, 64)
		b = append(b, `,"s":`...)
		b = appendCounts(b, c.Succ)
		b = append(b, `,"f":`...)
		b = appendCounts(b, c.Fail)
		b = append(b, `,"t":`...)
		b = strconv.AppendInt(b, c.Last, 10)
		b = append(b, '}')
	}
	b = append(b, `},"weights":{`...)
	for i, k := range slices.Sorted(maps.Keys(m.weights)) {
		if i > 0 {
			b = append(b, ',')
		}
		w := m.weights[k]
		b = appendString(b, k)
		b = append(b, ':', '[')
		b = strconv.AppendFloat(b, w.M, 'g', -1, 64)
		b = append(b, ',')
		b = strconv.AppendFloat(b, w.V, 'g', -1, 64)
		b = append(b, ',')
		b = strconv.AppendInt(b, w.T, 10)
		b = append(b, ',')
		b = strconv.AppendFloat(b, w.N, 'g', -1, 64)
		b = append(b, ']')
	}
	return append(b, '}', '}')
}

func appendCounts(b []byte, m map[string]float64) []byte {
	b = append(b, '{')
	for i, k := range slices.Sorted(maps.Keys(m)) {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, k)
		b = append(b, ':')
		b = strconv.AppendFloat(b, m[k], 'g', -1, 64)
	}
	return append(b, '}')
}

// Decode reads a state AppendJSON wrote.
func Decode(data []byte, p Params) (*Model, error) {
	var raw struct {
		Beta   *float64 `json:"beta"`
		Calls  int64    `json:"calls"`
		Clock  int64    `json:"clock"`
		Counts map[string]struct {
			N float64            `json:"n"`
			S map[string]float64 `json:"s"`
			F map[string]float64 `json:"f"`
			T int64              `json:"t"`
		} `json:"counts"`
		Weights map[string][4]float64 `json:"weights"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("nextstep state: %v", err)
	}
	m := New(p)
	m.clock, m.calls = raw.Clock, raw.Calls
	if raw.Beta != nil && *raw.Beta >= 0 && *raw.Beta <= 1 {
		m.beta = *raw.Beta
	}
	for k, w := range raw.Weights {
		m.weights[k] = &weight{M: w[0], V: w[1], T: int64(w[2]), N: w[3]}
	}
	for k, c := range raw.Counts {
		if c.S == nil {
			c.S = map[string]float64{}
		}
		if c.F == nil {
			c.F = map[string]float64{}
		}
		m.tables[k] = &counts{N: c.N, Succ: c.S, Fail: c.F, Last: c.T}
	}
	return m, nil
}

// appendString appends s as a JSON string (a key holds NUL separators,
// which strconv's Go quoting would write in a form JSON does not read).
func appendString(b []byte, s string) []byte {
	q, _ := json.Marshal(s) // a string always marshals
	return append(b, q...)
}
