package torusfield

import "github.com/unified-cognitive-substrate/ucs/internal/pyjson"

// trace reads "trace": the θ tail and the φ log.
func (d *stateDecoder) trace() bool {
	var seen uint32
	return d.s.object(func(key []byte) bool {
		switch string(key) {
		case "theta_tail":
			return once(&seen, 0) && d.thetaTail()
		case "phi_log":
			return once(&seen, 1) && d.phiLog()
		}
		return d.skip()
	})
}

func (d *stateDecoder) thetaTail() bool {
	return d.s.array(func(i int) bool {
		if i == 0 {
			d.n.Trace.Theta = make([]TraceStep, 0, thetaTailSave) // the size State writes
		}
		step, ok := d.traceStep()
		d.n.Trace.Theta = append(d.n.Trace.Theta, step)
		return ok
	})
}

// traceKeys are a θ step's members, all required.
var traceKeys = [...]string{"t", "src", "dst", "edge_index", "reward", "cost", "novelty"}

func (d *stateDecoder) traceStep() (TraceStep, bool) {
	var st TraceStep
	var src, dst []byte
	var seen uint32
	ok := d.s.object(func(key []byte) bool {
		for i, k := range traceKeys {
			if string(key) == k {
				return once(&seen, uint(i)) && d.traceMember(&st, i, &src, &dst)
			}
		}
		return d.skip()
	})
	if !ok || seen != 1<<len(traceKeys)-1 || st.EdgeIndex < 0 || st.EdgeIndex >= len(d.n.Graph.Edges) {
		return st, false
	}
	edge := &d.n.Graph.Edges[st.EdgeIndex]
	st.Src, st.Dst = d.name(src, edge.Src), d.name(dst, edge.Dst)
	return st, true
}

// traceMember reads member traceKeys[i] of a θ step. Restore reads src and
// dst of any kind (Str of a number is ""): only strings take the fast path.
func (d *stateDecoder) traceMember(st *TraceStep, i int, src, dst *[]byte) bool {
	var ok bool
	switch traceKeys[i] {
	case "t":
		st.T, ok = d.s.integer()
	case "src":
		*src, ok = d.s.str()
	case "dst":
		*dst, ok = d.s.str()
	case "edge_index":
		st.EdgeIndex, ok = d.s.integer()
	case "reward":
		st.Reward, ok = d.s.float()
	case "cost":
		st.Cost, ok = d.s.float()
	case "novelty":
		var n pyjson.Number
		n, ok = d.s.number()
		st.Novelty, st.NoveltyIsInt = n.Float, n.IsInt
	}
	return ok
}

// name returns b as a string, sharing the graph's copy when b names the
// edge's end, as it does unless the file was edited: the θ tail repeats a
// few names, and a fresh string each would be 100 allocations a load.
func (d *stateDecoder) name(b []byte, end string) string {
	if string(b) == end {
		return end
	}
	if i := d.n.manifest.Index(string(b)); i >= 0 {
		return d.n.manifest.Capabilities[i].Name
	}
	return string(b)
}

// phiLog keeps the last maxPhiLog records, free-form values.
func (d *stateDecoder) phiLog() bool {
	var items []pyjson.Value
	ok := d.s.array(func(int) bool {
		v, ok := d.phiRecord()
		items = append(items, v)
		return ok
	})
	d.n.Trace.Phi = append([]pyjson.Value(nil), items[max(0, len(items)-maxPhiLog):]...)
	return ok
}

func (d *stateDecoder) phiRecord() (pyjson.Value, bool) {
	pos, depth := d.s.pos, d.s.depth
	if v, ok := d.compactPhiRecord(); ok {
		return v, true
	}
	d.s.pos, d.s.depth = pos, depth
	return d.values.value()
}

// phiRecordKeys and ppKeys are the members of a φ record as PhiCycle makes
// it, with the text AppendState writes before each value.
var (
	phiRecordKeys = [...]struct{ name, text string }{
		{"t", `{"t":`}, {"artifacts_promoted", `,"artifacts_promoted":`}, {"artifacts_total", `,"artifacts_total":`},
		{"pp", `,"pp":`}}
	ppKeys = func() (keys [len(PPDimensions)]string) {
		for i, name := range PPDimensions {
			keys[i] = `,"` + name + `":`
		}
		keys[0] = "{" + keys[0][1:]
		return keys
	}()
)

// compactPhiRecord reads a φ record laid out as AppendState writes
// PhiCycle's records, {"t":…,"artifacts_promoted":…,"artifacts_total":…,
// "pp":{"capacity":…,…,"trust":…}}, matching keys and separators as text,
// and builds the Value pyjson.Parse would: a full log is a hundred of them.
// A record in another layout is read by the value builder.
func (d *stateDecoder) compactPhiRecord() (pyjson.Value, bool) {
	s := &d.s
	ms := take(&d.values.mems, len(phiRecordKeys), memberChunk)
	for i, key := range phiRecordKeys[:3] {
		if !s.lit(key.text) {
			return pyjson.Value{}, false
		}
		n, ok := s.number()
		if !ok {
			return pyjson.Value{}, false
		}
		ms[i] = pyjson.Member{Key: key.name, Value: numberValue(n)}
	}
	if !s.lit(phiRecordKeys[3].text) {
		return pyjson.Value{}, false
	}
	pp := take(&d.values.mems, len(ppKeys), memberChunk)
	for i, text := range ppKeys {
		if !s.lit(text) {
			return pyjson.Value{}, false
		}
		n, ok := s.number()
		if !ok {
			return pyjson.Value{}, false
		}
		pp[i] = pyjson.Member{Key: PPDimensions[i], Value: numberValue(n)}
	}
	if !s.lit("}}") {
		return pyjson.Value{}, false
	}
	ms[3] = pyjson.Member{Key: phiRecordKeys[3].name, Value: pyjson.ObjectValue(pp)}
	return pyjson.ObjectValue(ms), true
}
