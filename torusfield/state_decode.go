package torusfield

import "github.com/unified-cognitive-substrate/ucs/internal/pyjson"

// RestoreBytes restores the engine from a state document's bytes, exactly
// as Restore(pyjson.Parse(data)) would: the same engine afterwards, the
// same error, and no change to the engine when it fails.
//
// Every call of the CLI loads the state, and building a pyjson.Value for
// its ~3,000 numbers was most of a call's time. So RestoreBytes first reads
// the document in place, writing the numbers straight into a scratch
// engine. The moment the document is anything but a well-formed state in
// the expected shape (a type mismatch, a repeated key, an escaped string,
// a value out of range, a syntax error), it starts over with pyjson.Parse
// and Restore, which produce the exact error. The free-form parts
// (artifacts, the φ log) are built as the pyjson.Values Parse would build.
//
// Top-level members that State does not write (the bridge's "ucs" meta)
// are passed to visit, in document order, with their raw JSON, once the
// document is known to be valid JSON: after a syntax error visit is never
// called. visit's first error is returned as is, before any error of the
// state proper, and the engine is left unchanged. A nil visit ignores them,
// as Restore does. raw is a value pyjson.Parse reads as the document holds
// it: a slice of data (white space included) or, when the slow path ran, a
// compact re-encoding (a repeated key is then read once, with its last
// value, as Python's dict does). Parse it; do not compare it.
//
// Errors: a syntax error is the *pyjson.SyntaxError pyjson.Parse returns
// (LoadState wraps it in a StateError); a bad state is a *StateError.
func (e *Engine) RestoreBytes(data []byte, visit func(key string, raw []byte) error) error {
	d := newStateDecoder(data, e.scratch())
	if !d.document() {
		return e.restoreSlow(data, visit)
	}
	if visit != nil {
		for _, m := range d.others {
			if err := visit(m.key, m.raw); err != nil {
				return err
			}
		}
	}
	e.adopt(d.n)
	return nil
}

// restoreSlow is RestoreBytes by way of a pyjson.Value: the reference
// semantics, and the source of every error.
func (e *Engine) restoreSlow(data []byte, visit func(key string, raw []byte) error) error {
	v, err := pyjson.Parse(data)
	if err != nil {
		return err
	}
	if visit != nil {
		for _, m := range v.Members() {
			if !ownsKey(m.Key) {
				if err := visit(m.Key, pyjson.AppendCompact(nil, m.Value)); err != nil {
					return err
				}
			}
		}
	}
	return e.Restore(v)
}

// A section is a top-level member State writes and its fast decoder.
type section struct {
	key    string
	decode func(*stateDecoder) bool
}

// sections are read in any order: the fast path gives up on any error, so
// the order in which Restore checks them does not matter here.
var sections = [...]section{
	{"version", (*stateDecoder).version},
	{"state", (*stateDecoder).grid},
	{"graph", (*stateDecoder).graph},
	{"artifacts", (*stateDecoder).artifacts},
	{"policy", (*stateDecoder).policy},
	{"pp", (*stateDecoder).pp},
	{"trace", (*stateDecoder).trace},
	{"cursor", (*stateDecoder).cursor},
	// Restore does not read the schedule (the manifest makes it), but it
	// is the engine's member, not a visitor's.
	{"injection_schedule", (*stateDecoder).skip},
}

func ownsKey(key string) bool {
	for _, sec := range sections {
		if sec.key == key {
			return true
		}
	}
	return false
}

// rawMember is a top-level member for visit.
type rawMember struct {
	key string
	raw []byte
}

// stateDecoder is RestoreBytes's fast path: each method scans one part of
// the document into the scratch engine n and returns false to give up.
type stateDecoder struct {
	s      scanner
	n      *Engine
	values valueBuilder // on s
	others []rawMember
}

func newStateDecoder(data []byte, n *Engine) *stateDecoder {
	d := &stateDecoder{s: scanner{src: data}, n: n}
	d.values.s = &d.s
	return d
}

// once sets bit in seen and reports whether it was clear. A key read twice
// in one object goes to the slow path, which applies Python's dict rule
// (first position, last value); keys the engine ignores may repeat.
func once(seen *uint32, bit uint) bool {
	if *seen&(1<<bit) != 0 {
		return false
	}
	*seen |= 1 << bit
	return true
}

func (d *stateDecoder) skip() bool {
	_, ok := d.s.skip()
	return ok
}

func (d *stateDecoder) document() bool {
	var seen uint32
	ok := d.s.object(func(key []byte) bool {
		for i, sec := range sections {
			if string(key) == sec.key {
				return once(&seen, uint(i)) && sec.decode(d)
			}
		}
		return d.other(string(key))
	})
	return ok && d.s.end() && seen&1 != 0 // the version is required
}

// other keeps a member the engine does not own for visit. The bridge
// writes one; many are left to the slow path, whose duplicate check does
// not take quadratic time.
func (d *stateDecoder) other(key string) bool {
	if len(d.others) >= 16 {
		return false
	}
	for _, m := range d.others {
		if m.key == key {
			return false
		}
	}
	raw, ok := d.s.skip()
	d.others = append(d.others, rawMember{key, raw})
	return ok
}

func (d *stateDecoder) version() bool {
	v, ok := d.s.str()
	return ok && string(v) == StateVersion
}

// grid reads "state": the grid's size, t, ports and fields.
func (d *stateDecoder) grid() bool {
	g := d.n.Grid
	var seen uint32
	return d.s.object(func(key []byte) bool {
		switch string(key) {
		case "theta_bins":
			return once(&seen, 0) && d.dim(g.ThetaBins)
		case "phi_bins":
			return once(&seen, 1) && d.dim(g.PhiBins)
		case "t":
			t, ok := d.s.integer()
			g.T = t
			return once(&seen, 2) && ok && t >= 0
		case "ports":
			return once(&seen, 3) && d.ports()
		case "fields":
			return once(&seen, 4) && d.fields()
		}
		return d.skip()
	})
}

func (d *stateDecoder) dim(want int) bool {
	got, ok := d.s.integer()
	return ok && got == want
}

func (d *stateDecoder) ports() bool {
	ports := d.n.Grid.ports
	return d.s.object(func(key []byte) bool {
		if _, dup := ports.pos[string(key)]; dup {
			return false
		}
		f, ok := d.s.float()
		ports.Set(string(key), f)
		return ok
	})
}

func (d *stateDecoder) fields() bool {
	var seen uint32
	return d.s.object(func(key []byte) bool {
		for i, name := range fieldNames {
			if string(key) == name {
				return once(&seen, uint(i)) && d.floats(d.n.Grid.fields[i])
			}
		}
		return d.skip() // a field this version does not know, as Restore ignores it
	})
}

// floats reads an array of exactly len(dst) numbers into dst: the grid's
// fields, the bulk of the document, read without a closure per cell.
func (d *stateDecoder) floats(dst []float64) bool {
	s := &d.s
	if !s.eat('[') || !s.enter() {
		return false
	}
	if s.eat(']') {
		s.depth--
		return len(dst) == 0
	}
	for i := range dst {
		s.ws()
		f, ok := s.float()
		if !ok {
			return false
		}
		dst[i] = f
		if s.pos < len(s.src) && s.src[s.pos] == ',' && i < len(dst)-1 { // compact: the common case, first
			s.pos++
			continue
		}
		if s.eat(']') {
			s.depth--
			return i == len(dst)-1
		}
		if !s.eat(',') {
			return false
		}
	}
	return false // more cells than the grid has
}

// graph reads the edges' weights; nodes and the other edge members come
// from the manifest.
func (d *stateDecoder) graph() bool {
	var seen uint32
	return d.s.object(func(key []byte) bool {
		if string(key) == "edges" {
			return once(&seen, 0) && d.edges()
		}
		return d.skip()
	})
}

func (d *stateDecoder) edges() bool {
	edges := d.n.Graph.Edges
	count := 0
	ok := d.s.array(func(i int) bool {
		count = i + 1
		return i < len(edges) && d.edge(&edges[i])
	})
	return ok && count == len(edges)
}

// edge reads one edge: its ends must be the manifest's, w is optional.
func (d *stateDecoder) edge(edge *Edge) bool {
	pos, depth := d.s.pos, d.s.depth
	if d.compactEdge(edge) {
		return true
	}
	d.s.pos, d.s.depth = pos, depth
	return d.anyEdge(edge)
}

// compactEdge reads an edge laid out as AppendState writes it,
// {"src":…,"dst":…,"w":…,"u":…,"c":…,"n":…,"meta":…}, matching the keys
// and separators as text: the Aegis graph's 249 edges are a third of a
// state's members, and reading them member by member was a third of a
// load. An edge in another layout (indented, other keys or order) is read
// by anyEdge.
func (d *stateDecoder) compactEdge(edge *Edge) bool {
	s := &d.s
	if !s.lit(`{"src":`) {
		return false
	}
	src, ok := s.str()
	if !ok || string(src) != edge.Src || !s.lit(`,"dst":`) {
		return false
	}
	dst, ok := s.str()
	if !ok || string(dst) != edge.Dst || !s.lit(`,"w":`) {
		return false
	}
	w, ok := s.float()
	if !ok || !s.lit(`,"u":`) || !s.skipNumber() || !s.lit(`,"c":`) || !s.skipNumber() ||
		!s.lit(`,"n":`) || !s.skipNumber() || !s.lit(`,"meta":`) {
		return false
	}
	if _, ok := s.skip(); !ok || !s.lit("}") {
		return false
	}
	edge.W = w
	return true
}

// anyEdge reads an edge member by member.
func (d *stateDecoder) anyEdge(edge *Edge) bool {
	var seen uint32
	var src, dst []byte
	ok := d.s.object(func(key []byte) bool {
		var ok bool
		switch string(key) {
		case "src":
			src, ok = d.s.str()
			return once(&seen, 0) && ok
		case "dst":
			dst, ok = d.s.str()
			return once(&seen, 1) && ok
		case "w":
			edge.W, ok = d.s.float()
			return once(&seen, 2) && ok
		}
		return d.skip()
	})
	return ok && seen&3 == 3 && string(src) == edge.Src && string(dst) == edge.Dst
}

// artifacts are few and free-form (payload, meta): they are built as
// pyjson.Values and restored as Restore does.
func (d *stateDecoder) artifacts() bool {
	v, ok := d.values.value()
	if !ok {
		return false
	}
	doc := pyjson.ObjectValue([]pyjson.Member{{Key: "artifacts", Value: v}})
	return restoreArtifacts(d.n, doc) == nil
}

func (d *stateDecoder) policy() bool {
	var seen uint32
	return d.s.object(func(key []byte) bool {
		if string(key) == "edge_bias" {
			return once(&seen, 0) && d.edgeBias()
		}
		return d.skip()
	})
}

func (d *stateDecoder) edgeBias() bool {
	bias := d.n.Policy.bias
	return d.s.object(func(key []byte) bool {
		ei, ok := edgeKey(key, len(d.n.Graph.Edges))
		if _, dup := bias.pos[ei]; !ok || dup {
			return false
		}
		f, ok := d.s.float()
		bias.Set(ei, f)
		return ok
	})
}

// edgeKey reads a bias key as restorePolicy accepts it: an edge index in
// [0, n) written as strconv.Itoa writes it (no sign, no leading zero).
func edgeKey(key []byte, n int) (int, bool) {
	if len(key) == 0 || len(key) > 9 || (key[0] == '0' && len(key) > 1) {
		return 0, false
	}
	v := 0
	for _, c := range key {
		if !isDigit(c) {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, v < n
}

func (d *stateDecoder) pp() bool {
	var seen uint32
	return d.s.object(func(key []byte) bool {
		for i, name := range PPDimensions {
			if string(key) == name {
				var ok bool
				d.n.PP[i], ok = d.s.float()
				return once(&seen, uint(i)) && ok
			}
		}
		return d.skip()
	})
}

func (d *stateDecoder) cursor() bool {
	c := &d.n.Cursor
	var seen uint32
	return d.s.object(func(key []byte) bool {
		var ok bool
		switch string(key) {
		case "node":
			var node []byte
			node, ok = d.s.str()
			i := d.n.manifest.Index(string(node))
			if i >= 0 {
				c.Node = d.n.manifest.Capabilities[i].Name
			}
			return once(&seen, 0) && ok && i >= 0
		case "theta":
			c.Theta, ok = d.s.integer()
			return once(&seen, 1) && ok
		case "phi":
			c.Phi, ok = d.s.integer()
			return once(&seen, 2) && ok
		}
		return d.skip()
	})
}
