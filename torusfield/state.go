package torusfield

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// StateVersion is the format of the state file, shared with the reference.
const StateVersion = "torusfield_kernel.v0.2.1"

type member = pyjson.Member

func obj(ms ...member) pyjson.Value { return pyjson.ObjectValue(ms) }
func kv(k string, v pyjson.Value) member {
	return member{Key: k, Value: v}
}
func num(f float64) pyjson.Value { return pyjson.FloatValue(f) }
func integer(i int) pyjson.Value { return pyjson.IntValue(int64(i)) }
func str(s string) pyjson.Value  { return pyjson.StringValue(s) }
func floats(xs []float64) pyjson.Value {
	vs := make([]pyjson.Value, len(xs))
	for i, x := range xs {
		vs[i] = num(x)
	}
	return pyjson.ArrayValue(vs)
}

func (p *PP) value() pyjson.Value {
	ms := make([]member, len(p))
	for i, name := range PPDimensions {
		ms[i] = kv(name, num(p[i]))
	}
	return pyjson.ObjectValue(ms)
}

// State returns the engine's state as the state file holds it, member for
// member in the reference's order.
func (e *Engine) State() pyjson.Value {
	g := e.Grid
	fields := make([]member, len(fieldNames))
	for i, name := range fieldNames {
		fields[i] = kv(name, floats(g.fields[i]))
	}
	ports := make([]member, len(g.ports.keys))
	for i, k := range g.ports.keys {
		ports[i] = kv(k, num(g.ports.vals[i]))
	}
	nodes := make([]pyjson.Value, len(e.Graph.Nodes))
	for i, n := range e.Graph.Nodes {
		nodes[i] = str(n)
	}
	edges := make([]pyjson.Value, len(e.Graph.Edges))
	for i, ed := range e.Graph.Edges {
		edges[i] = obj(kv("src", str(ed.Src)), kv("dst", str(ed.Dst)), kv("w", num(ed.W)),
			kv("u", num(ed.U)), kv("c", num(ed.C)), kv("n", novelty(ed.N, ed.NIsInt)), kv("meta", ed.Meta))
	}
	var arts []pyjson.Value
	for _, a := range e.Artifacts.sorted() {
		arts = append(arts, obj(kv("id", str(a.ID)), kv("kind", str(a.Kind)), kv("payload", a.Payload),
			kv("score", num(a.Score)), kv("created_t", integer(a.CreatedT)), kv("meta", pyjson.ObjectValue(a.Meta))))
	}
	var bias []member
	e.Policy.Biases(func(ei int, b float64) { bias = append(bias, kv(strconv.Itoa(ei), num(b))) })
	tail := e.Trace.Theta[max(0, len(e.Trace.Theta)-thetaTailSave):]
	steps := make([]pyjson.Value, len(tail))
	for i, s := range tail {
		steps[i] = obj(kv("t", integer(s.T)), kv("src", str(s.Src)), kv("dst", str(s.Dst)),
			kv("edge_index", integer(s.EdgeIndex)), kv("reward", num(s.Reward)), kv("cost", num(s.Cost)),
			kv("novelty", novelty(s.Novelty, s.NoveltyIsInt)))
	}
	sched := make([]pyjson.Value, len(e.Schedule))
	for i, inj := range e.Schedule {
		sched[i] = obj(kv("port", str(inj.Port)), kv("magnitude", num(inj.Magnitude)), kv("theta", integer(inj.Theta)),
			kv("phi", integer(inj.Phi)), kv("field", str(inj.Field)), kv("period", integer(inj.Period)))
	}
	return obj(
		kv("version", str(StateVersion)),
		kv("state", obj(kv("theta_bins", integer(g.ThetaBins)), kv("phi_bins", integer(g.PhiBins)),
			kv("t", integer(g.T)), kv("fields", pyjson.ObjectValue(fields)), kv("ports", pyjson.ObjectValue(ports)))),
		kv("graph", obj(kv("nodes", pyjson.ArrayValue(nodes)), kv("edges", pyjson.ArrayValue(edges)))),
		kv("artifacts", pyjson.ArrayValue(arts)),
		kv("policy", obj(kv("edge_bias", pyjson.IntKeyObjectValue(bias)))),
		kv("pp", e.PP.value()),
		kv("trace", obj(kv("theta_tail", pyjson.ArrayValue(steps)), kv("phi_log", pyjson.ArrayValue(e.Trace.Phi)))),
		kv("cursor", obj(kv("node", str(e.Cursor.Node)), kv("theta", integer(e.Cursor.Theta)), kv("phi", integer(e.Cursor.Phi)))),
		kv("injection_schedule", pyjson.ArrayValue(sched)),
	)
}

// MarshalState returns the state file's bytes: the reference's
// json.dump(indent=2, ensure_ascii=False), with no final newline.
func (e *Engine) MarshalState() []byte { return pyjson.Indent(e.State()) }

// Digest returns the SHA-256 (hex) of the state in Python's stable JSON
// (sorted keys, no white space): the reference's integrity digest.
func (e *Engine) Digest() string {
	sum := sha256.Sum256(pyjson.Canonical(e.State()))
	return hex.EncodeToString(sum[:])
}

// LoadState builds an engine from a manifest and restores a state file
// written by MarshalState or by the reference.
func LoadState(m *Manifest, data []byte, opts Options) (*Engine, error) {
	e := New(m, opts)
	if err := e.RestoreBytes(data, nil); err != nil {
		if _, ok := err.(*StateError); !ok {
			// A syntax error: a state file that is not JSON is a bad state file.
			err = &StateError{Msg: err.Error()}
		}
		return nil, err
	}
	return e, nil
}

// A StateError says which field of a state file is wrong.
type StateError struct {
	Field string // a path such as "state.fields.energy[12]"
	Msg   string
}

func (e *StateError) Error() string {
	if e.Field == "" {
		return "state: " + e.Msg
	}
	return "state: " + e.Field + ": " + e.Msg
}

func bad(field, format string, args ...any) error {
	return &StateError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// Restore overwrites the engine's learned state with a saved one: t, ports
// and fields, artifacts, edge biases, the PP vector, the cursor, every
// edge's w, the θ tail and the φ log. The graph itself always comes from the
// manifest, so the state must have been written for the same graph: the
// edge count and every edge's ends must agree. Restore checks every field
// it reads (types, grid sizes, finite numbers, indexes in range) and
// changes nothing when it returns an error.
func (e *Engine) Restore(v pyjson.Value) error {
	if v.Kind() != pyjson.Object {
		return bad("", "the document must be a JSON object")
	}
	if ver, _ := v.Get("version"); ver.Str() != StateVersion {
		return bad("version", "want %q, got %s", StateVersion, describe(ver))
	}
	n := e.scratch()
	steps := []func(*Engine, pyjson.Value) error{restoreGrid, restoreGraph, restoreArtifacts, restorePolicy,
		restorePP, restoreCursor, restoreTrace}
	for _, step := range steps {
		if err := step(n, v); err != nil {
			return err
		}
	}
	e.adopt(n)
	return nil
}

// scratch returns the parts a restore fills: what an absent section leaves
// (a zero grid, zero weights, no artifacts, biases or trace, the cursor on
// the first capability). Restoring into scratch parts and adopting them
// only when all is well is what leaves the engine unchanged on an error.
func (e *Engine) scratch() *Engine {
	n := &Engine{
		Grid:      newGrid(e.Grid.ThetaBins, e.Grid.PhiBins),
		Graph:     &Graph{Nodes: e.Graph.Nodes, Edges: slices.Clone(e.Graph.Edges), adj: e.Graph.adj},
		Artifacts: newArtifactStore(),
		Policy:    newPolicy(),
		Cursor:    Cursor{Node: e.manifest.Capabilities[0].Name},
		manifest:  e.manifest,
	}
	for i := range n.Graph.Edges {
		n.Graph.Edges[i].W = 0
	}
	return n
}

// adopt takes over the restored parts of a scratch engine.
func (e *Engine) adopt(n *Engine) {
	e.Grid, e.Graph, e.Artifacts, e.Policy.bias = n.Grid, n.Graph, n.Artifacts, n.Policy.bias
	e.PP, e.Cursor, e.Trace = n.PP, n.Cursor, n.Trace
}

func describe(v pyjson.Value) string {
	if v.Kind() == pyjson.String {
		return strconv.Quote(v.Str())
	}
	return v.Kind().Noun()
}

func object(v pyjson.Value, key, path string) (pyjson.Value, bool, error) {
	x, ok := v.Get(key)
	if !ok {
		return x, false, nil
	}
	if x.Kind() != pyjson.Object {
		return x, false, bad(path, "must be an object, got %s", describe(x))
	}
	return x, true, nil
}

func getInt(v pyjson.Value, key, path string, dst *int) error {
	x, ok := v.Get(key)
	if !ok {
		return nil
	}
	i, isInt := x.Int()
	if !isInt {
		return bad(path, "must be an integer, got %s", describe(x))
	}
	*dst = int(i)
	return nil
}

func finite(x pyjson.Value, path string) (float64, error) {
	f, ok := x.Float()
	if !ok {
		return 0, bad(path, "must be a number, got %s", describe(x))
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, bad(path, "must be finite")
	}
	return f, nil
}

func restoreGrid(e *Engine, v pyjson.Value) error {
	s, ok, err := object(v, "state", "state")
	if err != nil || !ok {
		return err
	}
	for _, dim := range []struct {
		key  string
		want int
	}{{"theta_bins", e.Grid.ThetaBins}, {"phi_bins", e.Grid.PhiBins}} {
		got := dim.want
		if err := getInt(s, dim.key, "state."+dim.key, &got); err != nil {
			return err
		}
		if got != dim.want {
			return bad("state."+dim.key, "the grid has %d, the state file %d", dim.want, got)
		}
	}
	if err := getInt(s, "t", "state.t", &e.Grid.T); err != nil {
		return err
	}
	if e.Grid.T < 0 {
		return bad("state.t", "must not be negative")
	}
	if ports, ok, err := object(s, "ports", "state.ports"); err != nil {
		return err
	} else if ok {
		for _, m := range ports.Members() {
			f, err := finite(m.Value, "state.ports."+m.Key)
			if err != nil {
				return err
			}
			e.Grid.ports.Set(m.Key, f)
		}
	}
	fields, ok, err := object(s, "fields", "state.fields")
	if err != nil || !ok {
		return err
	}
	for _, m := range fields.Members() {
		fi := fieldIndex(m.Key)
		if fi < 0 {
			continue // a field this version does not know; the reference ignores it too
		}
		path := "state.fields." + m.Key
		if m.Value.Kind() != pyjson.Array {
			return bad(path, "must be a list of numbers, got %s", describe(m.Value))
		}
		items := m.Value.Items()
		if len(items) != e.Grid.Size() {
			return bad(path, "has %d cells, the %d×%d grid has %d", len(items), e.Grid.ThetaBins, e.Grid.PhiBins, e.Grid.Size())
		}
		dst := e.Grid.fields[fi]
		for i, x := range items {
			f, ok := x.Float()
			if !ok || math.IsNaN(f) || math.IsInf(f, 0) {
				// The path is formatted only for the error: 3,072 cells a load.
				_, err := finite(x, fmt.Sprintf("%s[%d]", path, i))
				return err
			}
			dst[i] = f
		}
	}
	return nil
}

func restoreGraph(e *Engine, v pyjson.Value) error {
	g, ok, err := object(v, "graph", "graph")
	if err != nil || !ok {
		return err
	}
	ev, ok := g.Get("edges")
	if !ok {
		return nil
	}
	if ev.Kind() != pyjson.Array {
		return bad("graph.edges", "must be a list, got %s", describe(ev))
	}
	items := ev.Items()
	if len(items) != len(e.Graph.Edges) {
		return bad("graph.edges", "the state has %d edges, the manifest resolves to %d: it was written for another manifest",
			len(items), len(e.Graph.Edges))
	}
	for i, x := range items {
		path := fmt.Sprintf("graph.edges[%d]", i)
		if x.Kind() != pyjson.Object {
			return bad(path, "must be an object")
		}
		edge := &e.Graph.Edges[i]
		src, _ := x.Get("src")
		dst, _ := x.Get("dst")
		if src.Str() != edge.Src || dst.Str() != edge.Dst {
			return bad(path, "is %s→%s in the state but %s→%s in the manifest: it was written for another manifest",
				src.Str(), dst.Str(), edge.Src, edge.Dst)
		}
		w := 0.0
		if wv, ok := x.Get("w"); ok {
			if w, err = finite(wv, path+".w"); err != nil {
				return err
			}
		}
		edge.W = w
	}
	return nil
}

func restoreArtifacts(e *Engine, v pyjson.Value) error {
	av, ok := v.Get("artifacts")
	if !ok {
		return nil
	}
	if av.Kind() != pyjson.Array {
		return bad("artifacts", "must be a list, got %s", describe(av))
	}
	for i, x := range av.Items() {
		path := fmt.Sprintf("artifacts[%d]", i)
		if x.Kind() != pyjson.Object {
			return bad(path, "must be an object")
		}
		a := &Artifact{}
		id, _ := x.Get("id")
		kind, _ := x.Get("kind")
		if id.Kind() != pyjson.String || id.Str() == "" {
			return bad(path+".id", "must be a non-empty string")
		}
		if kind.Kind() != pyjson.String {
			return bad(path+".kind", "must be a string")
		}
		a.ID, a.Kind = id.Str(), kind.Str()
		p, ok := x.Get("payload")
		if !ok || p.Kind() != pyjson.Object {
			return bad(path+".payload", "must be an object")
		}
		a.Payload = p
		if ei, ok := a.EdgeIndex(); ok && (ei < 0 || ei >= len(e.Graph.Edges)) {
			return bad(path+".payload.edge_index", "%d is not an edge of the graph", ei)
		}
		sv, ok := x.Get("score")
		if !ok {
			return bad(path+".score", "is missing")
		}
		var err error
		if a.Score, err = finite(sv, path+".score"); err != nil {
			return err
		}
		if _, ok := x.Get("created_t"); !ok {
			return bad(path+".created_t", "is missing")
		}
		if err := getInt(x, "created_t", path+".created_t", &a.CreatedT); err != nil {
			return err
		}
		meta, ok, err := object(x, "meta", path+".meta")
		if err != nil {
			return err
		}
		if ok {
			a.Meta = meta.Members()
		}
		e.Artifacts.Promote(a)
	}
	return nil
}

func restorePolicy(e *Engine, v pyjson.Value) error {
	p, ok, err := object(v, "policy", "policy")
	if err != nil || !ok {
		return err
	}
	b, ok, err := object(p, "edge_bias", "policy.edge_bias")
	if err != nil || !ok {
		return err
	}
	for _, m := range b.Members() {
		path := "policy.edge_bias." + m.Key
		ei, err := strconv.Atoi(m.Key)
		if err != nil || ei < 0 || ei >= len(e.Graph.Edges) || strconv.Itoa(ei) != m.Key {
			return bad(path, "the key must be the index of an edge")
		}
		f, err := finite(m.Value, path)
		if err != nil {
			return err
		}
		e.Policy.bias.Set(ei, f)
	}
	return nil
}

func restorePP(e *Engine, v pyjson.Value) error {
	p, ok, err := object(v, "pp", "pp")
	if err != nil || !ok {
		return err
	}
	for i, name := range PPDimensions {
		if x, ok := p.Get(name); ok {
			if e.PP[i], err = finite(x, "pp."+name); err != nil {
				return err
			}
		}
	}
	return nil
}

func restoreCursor(e *Engine, v pyjson.Value) error {
	c, ok, err := object(v, "cursor", "cursor")
	if err != nil || !ok {
		return err
	}
	if n, ok := c.Get("node"); ok {
		if n.Kind() != pyjson.String || !e.manifest.Has(n.Str()) {
			return bad("cursor.node", "%s is not a capability of the manifest", describe(n))
		}
		e.Cursor.Node = n.Str()
	}
	e.Cursor.Theta, e.Cursor.Phi = 0, 0
	if err := getInt(c, "theta", "cursor.theta", &e.Cursor.Theta); err != nil {
		return err
	}
	return getInt(c, "phi", "cursor.phi", &e.Cursor.Phi)
}

func restoreTrace(e *Engine, v pyjson.Value) error {
	t, ok, err := object(v, "trace", "trace")
	if err != nil || !ok {
		return err
	}
	if tail, ok := t.Get("theta_tail"); ok {
		if tail.Kind() != pyjson.Array {
			return bad("trace.theta_tail", "must be a list")
		}
		for i, x := range tail.Items() {
			s, err := traceStep(e, x, fmt.Sprintf("trace.theta_tail[%d]", i))
			if err != nil {
				return err
			}
			e.Trace.Theta = append(e.Trace.Theta, s)
		}
	}
	if phi, ok := t.Get("phi_log"); ok {
		if phi.Kind() != pyjson.Array {
			return bad("trace.phi_log", "must be a list")
		}
		items := phi.Items()
		e.Trace.Phi = append([]pyjson.Value(nil), items[max(0, len(items)-maxPhiLog):]...)
	}
	return nil
}

func traceStep(e *Engine, x pyjson.Value, path string) (TraceStep, error) {
	var s TraceStep
	if x.Kind() != pyjson.Object {
		return s, bad(path, "must be an object")
	}
	for _, key := range []string{"t", "src", "dst", "edge_index", "reward", "cost", "novelty"} {
		if _, ok := x.Get(key); !ok {
			return s, bad(path+"."+key, "is missing")
		}
	}
	if err := getInt(x, "t", path+".t", &s.T); err != nil {
		return s, err
	}
	if err := getInt(x, "edge_index", path+".edge_index", &s.EdgeIndex); err != nil {
		return s, err
	}
	if s.EdgeIndex < 0 || s.EdgeIndex >= len(e.Graph.Edges) {
		return s, bad(path+".edge_index", "%d is not an edge of the graph", s.EdgeIndex)
	}
	src, _ := x.Get("src")
	dst, _ := x.Get("dst")
	s.Src, s.Dst = src.Str(), dst.Str()
	var err error
	for _, f := range []struct {
		key string
		dst *float64
	}{{"reward", &s.Reward}, {"cost", &s.Cost}, {"novelty", &s.Novelty}} {
		fv, _ := x.Get(f.key)
		if *f.dst, err = finite(fv, path+"."+f.key); err != nil {
			return s, err
		}
	}
	nv, _ := x.Get("novelty")
	s.NoveltyIsInt = nv.Kind() == pyjson.Int
	return s, nil
}
