// Package knowledgegen generates a workspace's worth of knowledge for
// benchmarks and scale tests: methodology entries, judgment nodes and dead
// ends shaped as ucs writes them (reflect, report, reflect dead_end), packed
// as an export package (ucs_cognitive_export_v2) that `ucs import` and the
// reference's `bridge.py import` both read. The output depends only on the
// options: the same seed gives the same bytes.
package knowledgegen

import (
	"crypto/sha256"
	"encoding/hex"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// Options say how much to generate.
type Options struct {
	Methodology int       // methodology entries
	Judgment    int       // judgment nodes
	DeadEnds    int       // dead ends
	Seed        uint64    // seeds math/rand/v2's PCG
	Anchor      time.Time // entries are dated over the year before it; zero: DefaultAnchor
	// Part and Parts generate the Part-th of Parts slices of each kind
	// (Part counts from 0; Parts 0 means 1), so a set too large for one
	// import can be imported in parts: the parts, in order, hold exactly
	// the entries of the whole set, in its order.
	Part, Parts int
}

// DefaultAnchor is the fixed date the entries' dates count back from.
var DefaultAnchor = time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC)

// Format is the export format the package is written in.
const Format = "ucs_cognitive_export_v2"

// A generator draws entries for one kind from its own stream, so the n-th
// entry of a kind is the same whatever the other counts are.
type generator struct {
	r      *rand.Rand
	caps   []string
	out    map[string][]string // capability → targets of its edges, in edge order
	anchor time.Time
}

func newGenerator(seed uint64, stream uint64, anchor time.Time) *generator {
	e := torusfield.New(torusfield.DefaultManifest(), torusfield.Options{})
	g := &generator{r: rand.New(rand.NewPCG(seed, stream)), caps: e.Manifest().Names(),
		out: map[string][]string{}, anchor: anchor}
	for _, c := range g.caps {
		for _, ei := range e.Graph.Out(c) {
			g.out[c] = append(g.out[c], e.Graph.Edges[ei].Dst)
		}
	}
	return g
}

// Package generates the export package.
func Package(o Options) pyjson.Value {
	anchor := o.Anchor
	if anchor.IsZero() {
		anchor = DefaultAnchor
	}
	kinds := []struct {
		n    int
		make func(g *generator) pyjson.Value
	}{{o.Methodology, (*generator).methodology}, {o.Judgment, (*generator).judgment}, {o.DeadEnds, (*generator).deadEnd}}
	lists := make([][]pyjson.Value, len(kinds))
	parts := max(o.Parts, 1)
	for k, kind := range kinds {
		g := newGenerator(o.Seed, uint64(k+1), anchor)
		from, to := kind.n*o.Part/parts, kind.n*(o.Part+1)/parts
		for i := range to {
			v := kind.make(g)
			if i >= from {
				lists[k] = append(lists[k], v)
			}
		}
		if lists[k] == nil {
			lists[k] = []pyjson.Value{}
		}
	}
	return pyjson.Obj(
		pyjson.KV("format", Format),
		pyjson.KV("exported_at", anchor.Format("2006-01-02T15:04:05+00:00")),
		pyjson.KV("agent_id", "genknowledge"),
		pyjson.KV("schema_version", "2.0"),
		pyjson.KV("judgment_nodes", lists[1]),
		pyjson.KV("methodology", lists[0]),
		pyjson.KV("dead_ends", lists[2]),
		pyjson.KV("artifacts", pyjson.Obj()),
	)
}

// Bytes is the package as compact JSON.
func Bytes(o Options) []byte {
	return pyjson.AppendCompact(nil, Package(o))
}

func (g *generator) pick(xs []string) string { return xs[g.r.IntN(len(xs))] }

// some draws n distinct items of xs.
func (g *generator) some(xs []string, n int) []string {
	out := make([]string, 0, n)
	for len(out) < n {
		x := g.pick(xs)
		if !contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// date is a day of the year before the anchor, more recent days likelier.
func (g *generator) date() (string, time.Time) {
	days := int(365 * g.r.Float64() * g.r.Float64())
	t := g.anchor.Add(-time.Duration(days) * 24 * time.Hour).Add(-time.Duration(g.r.IntN(36000)) * time.Second)
	return t.Format("2006-01-02"), t
}

// capabilities draws one to three capabilities, related ones together.
func (g *generator) capabilities() []string {
	c := g.pick(g.caps)
	out := []string{c}
	for n := g.r.IntN(3); n > 0; n-- {
		next := g.out[c]
		if len(next) == 0 {
			break
		}
		c = g.pick(next)
		if !contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

func (g *generator) keywords(n int) []string { return g.some(vocabulary, n) }

// sentence is a summary-like sentence of 100 to 200 characters.
func (g *generator) sentence() string {
	var b strings.Builder
	want := 100 + g.r.IntN(100)
	b.WriteString(g.pick(openers))
	for b.Len() < want {
		b.WriteByte(' ')
		b.WriteString(g.pick(vocabulary))
		if g.r.IntN(6) == 0 {
			b.WriteString(g.pick([]string{",", ";", " —", ":"}))
		}
	}
	s := b.String()
	if len(s) > 199 {
		s = s[:strings.LastIndexByte(s[:199], ' ')]
	}
	return strings.TrimRight(s, " ,;:—") + "."
}

// routing is a routing snapshot as the bridge builds one: the cursor, the
// five best edges leaving it with scores, the context energy a consult put
// on capabilities (empty for a reflect), active artifact ids, and t.
func (g *generator) routing(cursor string, withContext bool, t int) pyjson.Value {
	targets := g.out[cursor]
	top := []pyjson.Value{}
	score := 0.5 + 3*g.r.Float64()
	for _, to := range g.some(targets, min(5, len(targets))) {
		top = append(top, pyjson.Obj(pyjson.KV("to", to), pyjson.KV("score", pyjson.Round(score, 4))))
		score *= 0.6 + 0.35*g.r.Float64()
	}
	energy := []pyjson.Member{}
	if withContext {
		for _, c := range g.some(g.caps, 2+g.r.IntN(6)) {
			energy = append(energy, pyjson.KV(c, pyjson.Round(0.02+1.5*g.r.Float64(), 4)))
		}
	}
	active := g.some(artifactIDs, g.r.IntN(6))
	return pyjson.Obj(
		pyjson.KV("cursor", cursor),
		pyjson.KV("top_paths", top),
		pyjson.KV("context_energy", pyjson.ObjectValue(energy)),
		pyjson.KV("active_artifacts", active),
		pyjson.KV("t", t),
	)
}

// withID adds the id ucs gives an entry: the first 12 hex digits of the
// SHA-256 of its canonical JSON.
func withID(v pyjson.Value) pyjson.Value {
	sum := sha256.Sum256(pyjson.Canonical(v))
	return v.With("id", hex.EncodeToString(sum[:6]))
}

// methodology is an entry as reflect post_task stores it.
func (g *generator) methodology() pyjson.Value {
	date, _ := g.date()
	caps := g.capabilities()
	return withID(pyjson.Obj(
		pyjson.KV("date", date),
		pyjson.KV("capabilities", caps),
		pyjson.KV("keywords", g.keywords(2+g.r.IntN(5))),
		pyjson.KV("summary", g.sentence()),
		pyjson.KV("source_type", "post_task"),
		pyjson.KV("agent_id", "default"),
		pyjson.KV("routing_snapshot", g.routing(g.pick(g.caps), g.r.IntN(4) == 0, 200+g.r.IntN(20000))),
	))
}

var outcomes = []string{"success", "success", "success", "partial", "neutral", "failure"}

// judgment is a judgment node as a report with a reasoning trace stores it.
func (g *generator) judgment() pyjson.Value {
	date, ts := g.date()
	action := g.pick(g.caps)
	before := g.pick(g.caps)
	success := g.pick(outcomes)
	task := g.sentence()
	outcome := g.sentence()
	decisive := g.sentence()
	alternatives := g.sentence()
	kws := knowledge.Words(task + " " + outcome + " " + decisive + " " + alternatives)
	kws = kws[:min(30, len(kws))]
	return withID(pyjson.Obj(
		pyjson.KV("date", date),
		pyjson.KV("timestamp", ts.Format("2006-01-02T15:04:05+00:00")),
		pyjson.KV("agent_id", "default"),
		pyjson.KV("context", pyjson.Obj(
			pyjson.KV("task_description", task),
			pyjson.KV("cursor_before", before),
			pyjson.KV("constraints", g.pick([]string{"time budget", "read-only", "no network", "must not break the API"})),
		)),
		pyjson.KV("methodology_summary", decisive),
		pyjson.KV("negative_knowledge", alternatives),
		pyjson.KV("action", action),
		pyjson.KV("outcome", outcome),
		pyjson.KV("outcome_success", success),
		pyjson.KV("significance", g.pick([]string{"routine", "notable", "notable", "critical"})),
		pyjson.KV("reward", pyjson.Round(0.1+0.8*g.r.Float64(), 4)),
		pyjson.KV("routing_snapshot", g.routing(action, false, 200+g.r.IntN(20000))),
		pyjson.KV("capabilities", []string{action}),
		pyjson.KV("keywords", kws),
	))
}

// deadEnd is an entry as reflect dead_end stores it.
func (g *generator) deadEnd() pyjson.Value {
	date, _ := g.date()
	kws := g.keywords(2 + g.r.IntN(3))
	return withID(pyjson.Obj(
		pyjson.KV("date", date),
		pyjson.KV("capabilities", g.capabilities()),
		pyjson.KV("keywords", kws),
		pyjson.KV("topic", strings.Join(g.some(vocabulary, 2+g.r.IntN(2)), " ")),
		pyjson.KV("why_closed", g.sentence()),
		pyjson.KV("reopen_conditions", strings.Join(g.some(vocabulary, 3+g.r.IntN(4)), " ")+" changes"),
	))
}
