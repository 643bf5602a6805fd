package torusfield

import (
	"slices"
	"strconv"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// AppendState appends the state's compact JSON, lead members first:
// byte for byte pyjson.AppendCompact(dst, pyjson.ObjectValue(append(lead,
// e.State().Members()...))), which is json.dumps(state, separators=(",",
// ":"), ensure_ascii=False). Every changing call writes the state, and
// building its pyjson.Value first cost more than writing it, so it is
// written straight from the engine. Lead members (the bridge's "ucs" meta)
// are written as given, before the state's, even if a key repeats one of
// the state's.
func (e *Engine) AppendState(dst []byte, lead ...pyjson.Member) []byte {
	dst = slices.Grow(dst, e.stateSizeHint())
	dst = appendLead(dst, lead)
	dst = append(dst, `"version":`...)
	dst = pyjson.AppendString(dst, StateVersion)
	dst = append(dst, `,"state":`...)
	dst = e.appendGrid(dst)
	dst = append(dst, `,"graph":`...)
	dst = e.appendGraph(dst)
	dst = append(dst, `,"artifacts":`...)
	dst = e.appendArtifacts(dst)
	dst = append(dst, `,"policy":{"edge_bias":`...)
	dst = e.appendBias(dst)
	dst = append(dst, `},"pp":`...)
	dst = e.PP.appendJSON(dst)
	dst = append(dst, `,"trace":{"theta_tail":`...)
	dst = e.appendThetaTail(dst)
	dst = append(dst, `,"phi_log":`...)
	dst = appendValues(dst, e.Trace.Phi)
	dst = append(dst, `},"cursor":{"node":`...)
	dst = pyjson.AppendString(dst, e.Cursor.Node)
	dst = appendIntMember(dst, "theta", e.Cursor.Theta)
	dst = appendIntMember(dst, "phi", e.Cursor.Phi)
	dst = append(dst, `},"injection_schedule":`...)
	dst = e.appendSchedule(dst)
	return append(dst, '}')
}

// AppendStoredState appends state, an engine state in the compact JSON
// AppendState writes (without lead members), with lead members first:
// exactly what AppendState would write for the engine state holds. It spares
// a caller that has the state's bytes and has not changed the engine (an
// init from the stored warm-up; see Boot) encoding it again.
func AppendStoredState(dst, state []byte, lead ...pyjson.Member) []byte {
	dst = slices.Grow(dst, len(state)+1024) // the bridge's "ucs" member is about 600 bytes
	dst = appendLead(dst, lead)
	return append(dst, state[1:]...) // state is an object: '{' and its members
}

// appendLead opens the state's object with the lead members, each followed
// by a comma: the state's own members follow.
func appendLead(dst []byte, lead []pyjson.Member) []byte {
	dst = append(dst, '{')
	for _, m := range lead {
		dst = pyjson.AppendString(dst, m.Key)
		dst = append(dst, ':')
		dst = pyjson.AppendCompact(dst, m.Value)
		dst = append(dst, ',')
	}
	return dst
}

// stateSizeHint is about the size of the state without lead members, so
// that writing it takes one allocation instead of a doubling chain, and
// fits the 96 KB buffer the bridge passes. Zero cells ("0.0") are most of
// a sparse field; other floats take about 20 bytes.
func (e *Engine) stateSizeHint() int {
	n := 1024 + 40*e.Grid.ports.Len() + 150*len(e.Graph.Edges) + 300*e.Artifacts.Len() +
		30*e.Policy.bias.Len() + 200*min(len(e.Trace.Theta), thetaTailSave) + 250*len(e.Trace.Phi) + 120*len(e.Schedule)
	for _, f := range e.Grid.fields {
		for _, x := range f {
			if x == 0 {
				n += 4
			} else {
				n += 20
			}
		}
	}
	return n
}

// appendFloat writes a float as Python's repr does. Zero cells are most of
// a sparse field, and "0.0" needs no shortest-digits search.
func appendFloat(dst []byte, f float64) []byte {
	if f == 0 && 1/f > 0 {
		return append(dst, "0.0"...)
	}
	return pyjson.AppendFloat(dst, f)
}

// appendFloatMember writes ,"key":f; appendIntMember ,"key":i.
func appendFloatMember(dst []byte, key string, f float64) []byte {
	dst = appendKey(dst, key)
	return appendFloat(dst, f)
}

func appendIntMember(dst []byte, key string, i int) []byte {
	dst = appendKey(dst, key)
	return strconv.AppendInt(dst, int64(i), 10)
}

func appendStringMember(dst []byte, key, s string) []byte {
	dst = appendKey(dst, key)
	return pyjson.AppendString(dst, s)
}

// appendKey writes ,"key": for the state's own keys, which need no escape.
func appendKey(dst []byte, key string) []byte {
	dst = append(dst, ',', '"')
	dst = append(dst, key...)
	return append(dst, '"', ':')
}

// appendNovelty writes n as novelty writes it: an int when the manifest
// gave one.
func appendNovelty(dst []byte, n float64, isInt bool) []byte {
	if isInt {
		return strconv.AppendInt(dst, int64(n), 10)
	}
	return appendFloat(dst, n)
}

func appendFloats(dst []byte, xs []float64) []byte {
	dst = append(dst, '[')
	for i, x := range xs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendFloat(dst, x)
	}
	return append(dst, ']')
}

func appendValues(dst []byte, vs []pyjson.Value) []byte {
	dst = append(dst, '[')
	for i, v := range vs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = pyjson.AppendCompact(dst, v)
	}
	return append(dst, ']')
}

func (e *Engine) appendGrid(dst []byte) []byte {
	g := e.Grid
	dst = append(dst, `{"theta_bins":`...)
	dst = strconv.AppendInt(dst, int64(g.ThetaBins), 10)
	dst = appendIntMember(dst, "phi_bins", g.PhiBins)
	dst = appendIntMember(dst, "t", g.T)
	dst = append(dst, `,"fields":{`...)
	for i, name := range fieldNames {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = pyjson.AppendString(dst, name)
		dst = append(dst, ':')
		dst = appendFloats(dst, g.fields[i])
	}
	dst = append(dst, `},"ports":{`...)
	for i, k := range g.ports.keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = pyjson.AppendString(dst, k)
		dst = append(dst, ':')
		dst = appendFloat(dst, g.ports.vals[i])
	}
	return append(dst, "}}"...)
}

func (e *Engine) appendGraph(dst []byte) []byte {
	dst = append(dst, `{"nodes":[`...)
	for i, n := range e.Graph.Nodes {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = pyjson.AppendString(dst, n)
	}
	dst = append(dst, `],"edges":[`...)
	for i := range e.Graph.Edges {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendEdge(dst, &e.Graph.Edges[i])
	}
	return append(dst, "]}"...)
}

func appendEdge(dst []byte, ed *Edge) []byte {
	dst = append(dst, `{"src":`...)
	dst = pyjson.AppendString(dst, ed.Src)
	dst = appendStringMember(dst, "dst", ed.Dst)
	dst = appendFloatMember(dst, "w", ed.W)
	dst = appendFloatMember(dst, "u", ed.U)
	dst = appendFloatMember(dst, "c", ed.C)
	dst = appendKey(dst, "n")
	dst = appendNovelty(dst, ed.N, ed.NIsInt)
	dst = appendKey(dst, "meta")
	dst = pyjson.AppendCompact(dst, ed.Meta)
	return append(dst, '}')
}

func (e *Engine) appendArtifacts(dst []byte) []byte {
	dst = append(dst, '[')
	for i, a := range e.Artifacts.sorted() {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"id":`...)
		dst = pyjson.AppendString(dst, a.ID)
		dst = appendStringMember(dst, "kind", a.Kind)
		dst = appendKey(dst, "payload")
		dst = pyjson.AppendCompact(dst, a.Payload)
		dst = appendFloatMember(dst, "score", a.Score)
		dst = appendIntMember(dst, "created_t", a.CreatedT)
		dst = appendKey(dst, "meta")
		dst = pyjson.AppendCompact(dst, pyjson.ObjectValue(a.Meta))
		dst = append(dst, '}')
	}
	return append(dst, ']')
}

// appendBias writes the edge biases in the order they were created.
func (e *Engine) appendBias(dst []byte) []byte {
	dst = append(dst, '{')
	for i, ei := range e.Policy.bias.keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, '"')
		dst = strconv.AppendInt(dst, int64(ei), 10)
		dst = append(dst, '"', ':')
		dst = appendFloat(dst, e.Policy.bias.vals[i])
	}
	return append(dst, '}')
}

func (p *PP) appendJSON(dst []byte) []byte {
	for i, name := range PPDimensions {
		if i == 0 {
			dst = append(dst, '{')
		} else {
			dst = append(dst, ',')
		}
		dst = pyjson.AppendString(dst, name)
		dst = append(dst, ':')
		dst = appendFloat(dst, p[i])
	}
	return append(dst, '}')
}

// appendThetaTail writes the last thetaTailSave θ steps, as State does.
func (e *Engine) appendThetaTail(dst []byte) []byte {
	dst = append(dst, '[')
	tail := e.Trace.Theta[max(0, len(e.Trace.Theta)-thetaTailSave):]
	for i := range tail {
		s := &tail[i]
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"t":`...)
		dst = strconv.AppendInt(dst, int64(s.T), 10)
		dst = appendStringMember(dst, "src", s.Src)
		dst = appendStringMember(dst, "dst", s.Dst)
		dst = appendIntMember(dst, "edge_index", s.EdgeIndex)
		dst = appendFloatMember(dst, "reward", s.Reward)
		dst = appendFloatMember(dst, "cost", s.Cost)
		dst = appendKey(dst, "novelty")
		dst = appendNovelty(dst, s.Novelty, s.NoveltyIsInt)
		dst = append(dst, '}')
	}
	return append(dst, ']')
}

func (e *Engine) appendSchedule(dst []byte) []byte {
	dst = append(dst, '[')
	for i := range e.Schedule {
		inj := &e.Schedule[i]
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"port":`...)
		dst = pyjson.AppendString(dst, inj.Port)
		dst = appendFloatMember(dst, "magnitude", inj.Magnitude)
		dst = appendIntMember(dst, "theta", inj.Theta)
		dst = appendIntMember(dst, "phi", inj.Phi)
		dst = appendStringMember(dst, "field", inj.Field)
		dst = appendIntMember(dst, "period", inj.Period)
		dst = append(dst, '}')
	}
	return append(dst, ']')
}
