package torusfield

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// The tests of RestoreBytes and AppendState are differential: the fast
// codec must do exactly what pyjson.Parse + Restore and
// pyjson.AppendCompact(State()) do.

// smallManifestJSON has what the Aegis manifest lacks: int novelty (the
// state writes n and the θ tail's novelty as ints), non-ASCII names, and
// metas with escapes, which edges copy into the state.
const smallManifestJSON = `{"capabilities": [
	{"name": "a", "connects_to": ["b", "é"], "u": 0.9, "c": 0.1, "n": 1,
	 "meta": {"quote": "x\"y\\z/\n\u0001", "list": [1, 2.5, null, true, -0.0, 1e-7], "emoji": "\ud83d\ude00"}},
	{"name": "b", "connects_to": ["a", "😀"], "n": 0},
	{"name": "é", "connects_to": ["a", "b"], "u": 0.7},
	{"name": "😀", "connects_to": ["b", "a"], "c": 0.35}]}`

func smallManifest(t testing.TB) *Manifest {
	m, err := ParseManifest([]byte(smallManifestJSON))
	require.NoError(t, err)
	return m
}

// ucsLead is a member like the bridge's workspace meta.
var ucsLead = pyjson.KV("ucs", pyjson.Obj(
	pyjson.KV("format", "ucs.workspace.v1"), pyjson.KV("seq", 12), pyjson.KV("agent_id", "agent \"é\"\t"),
	pyjson.KV("last", nil), pyjson.KV("ratio", 0.5), pyjson.KV("ok", true),
	pyjson.KV("files", pyjson.Obj(pyjson.KV("episodes", pyjson.Obj(pyjson.KV("lines", 3), pyjson.KV("hash", "ab")))))))

// stateDoc is a state document and the engine options it loads on.
type stateDoc struct {
	name string
	m    *Manifest
	opts Options
	data []byte
}

// docForms returns the forms a state is stored in: indented (the
// reference), compact (the bridge), compact with the bridge's meta first.
func docForms(name string, m *Manifest, opts Options, v pyjson.Value) []stateDoc {
	withLead := pyjson.ObjectValue(append([]pyjson.Member{ucsLead}, v.Members()...))
	return []stateDoc{
		{name + "/indent", m, opts, pyjson.Indent(v)},
		{name + "/compact", m, opts, pyjson.AppendCompact(nil, v)},
		{name + "/ucs", m, opts, pyjson.AppendCompact(nil, withLead)},
	}
}

// stateCorpus: the reference's state files and engines after random runs,
// on both manifests and two grid sizes, with and without artifacts.
func stateCorpus(t testing.TB) []stateDoc {
	aegis := DefaultManifest()
	var docs []stateDoc
	for _, name := range []string{"init-state.json", "workspace/ucs/state/torusfield_state.json"} {
		v, err := pyjson.Parse(fixture(t, name))
		require.NoError(t, err)
		docs = append(docs, docForms(name, aegis, Options{}, v)...)
	}
	for _, seed := range []uint64{1, 42, 1337} {
		rng := rand.New(rand.NewPCG(seed, 7))
		for _, c := range []struct {
			name string
			m    *Manifest
			opts Options
		}{
			{"aegis", aegis, Options{Seed: seed}},
			{"small", smallManifest(t), Options{Seed: seed}},
			{"small-3x4", smallManifest(t), Options{Seed: seed, ThetaBins: 3, PhiBins: 4}},
		} {
			e := New(c.m, c.opts)
			steps := rng.IntN(400)
			e.Run(steps)
			for range rng.IntN(3) {
				e.PhiCycle()
			}
			name := fmt.Sprintf("%s-seed%d-t%d", c.name, seed, steps)
			docs = append(docs, docForms(name, c.m, c.opts, e.State())...)
		}
	}
	return docs
}

// engineView is everything a restore sets, for comparing two engines
// beyond their state files: the artifacts' promotion order, for one, is
// not in the file but decides later ties.
type engineView struct {
	Fields    [len(fieldNames)][]float64
	PortKeys  []string
	PortVals  []float64
	Edges     []Edge
	Artifacts []*Artifact
	BiasKeys  []int
	BiasVals  []float64
	PP        PP
	Cursor    Cursor
	Trace     TraceLog
	T         int
}

func viewOf(e *Engine) engineView {
	return engineView{e.Grid.fields, e.Grid.ports.keys, e.Grid.ports.vals, e.Graph.Edges, e.Artifacts.All(),
		e.Policy.bias.keys, e.Policy.bias.vals, e.PP, e.Cursor, e.Trace, e.Grid.T}
}

// stateKeys are the members State writes; Restore ignores the others.
var stateKeys = func() map[string]bool {
	keys := map[string]bool{}
	for _, m := range New(DefaultManifest(), Options{}).State().Members() {
		keys[m.Key] = true
	}
	return keys
}()

// referenceRestore is the path RestoreBytes must match: pyjson.Parse, the
// members Restore ignores, Restore.
func referenceRestore(e *Engine, data []byte) ([]pyjson.Member, error) {
	v, err := pyjson.Parse(data)
	if err != nil {
		return nil, err
	}
	var others []pyjson.Member
	for _, m := range v.Members() {
		if !stateKeys[m.Key] {
			others = append(others, m)
		}
	}
	return others, e.Restore(v)
}

// restoreBytes runs RestoreBytes, collecting the visited members parsed.
func restoreBytes(e *Engine, data []byte) ([]pyjson.Member, error) {
	var others []pyjson.Member
	var bad error
	err := e.RestoreBytes(data, func(key string, raw []byte) error {
		v, err := pyjson.Parse(raw)
		if err != nil {
			bad = fmt.Errorf("visit(%q) got raw JSON pyjson.Parse rejects: %w", key, err)
		}
		others = append(others, pyjson.Member{Key: key, Value: v})
		return nil
	})
	if bad != nil {
		return nil, bad
	}
	return others, err
}

// requireSameRestore restores doc both ways on engines prepared alike and
// requires the same error, the same visited members and the same engine,
// which on an error means an unchanged one.
func requireSameRestore(t *testing.T, doc stateDoc, prepare func(*Engine)) {
	t.Helper()
	want, got := New(doc.m, doc.opts), New(doc.m, doc.opts)
	if prepare != nil {
		prepare(want)
		prepare(got)
	}
	wantOthers, wantErr := referenceRestore(want, doc.data)
	gotOthers, gotErr := restoreBytes(got, doc.data)
	require.Equal(t, wantErr, gotErr, "%s", doc.name)
	if wantErr != nil {
		require.Equal(t, fmt.Sprintf("%T", wantErr), fmt.Sprintf("%T", gotErr))
		require.Equal(t, wantErr.Error(), gotErr.Error())
	}
	require.Equal(t, wantOthers, gotOthers, "%s: visited members", doc.name)
	require.Equal(t, viewOf(want), viewOf(got), "%s", doc.name)
	require.Equal(t, string(want.MarshalState()), string(got.MarshalState()), "%s", doc.name)
	require.Equal(t, want.Digest(), got.Digest(), "%s", doc.name)
}

// fastPathTakes reports whether RestoreBytes's fast path reads doc without
// falling back.
func fastPathTakes(m *Manifest, opts Options, data []byte) bool {
	return newStateDecoder(data, New(m, opts).scratch()).document()
}

// TestRestoreBytesMatchesRestore: every state of the corpus, in every form,
// restores to the same engine both ways, on the fast path, and the engines
// go on alike.
func TestRestoreBytesMatchesRestore(t *testing.T) {
	for _, doc := range stateCorpus(t) {
		t.Run(doc.name, func(t *testing.T) {
			requireSameRestore(t, doc, nil)
			assert.True(t, fastPathTakes(doc.m, doc.opts, doc.data), "the fast path gave up")

			// Restored over a used engine, and run on: the same futures.
			want, got := New(doc.m, doc.opts), New(doc.m, doc.opts)
			want.Run(60)
			got.Run(60)
			_, err := referenceRestore(want, doc.data)
			require.NoError(t, err)
			require.NoError(t, got.RestoreBytes(doc.data, nil))
			want.Run(80)
			got.Run(80)
			require.Equal(t, viewOf(want), viewOf(got))
			require.Equal(t, string(want.MarshalState()), string(got.MarshalState()))
		})
	}
}

// TestRestoreBytesRejectsAsRestore: each corruption of the table
// TestLoadStateRejects uses gives RestoreBytes the same error as Restore,
// in each form of the file, and leaves an engine holding artifacts as it
// was.
func TestRestoreBytesRejectsAsRestore(t *testing.T) {
	m := DefaultManifest()
	good := initState(t)
	used := func(e *Engine) { e.Run(130) } // the first artifacts appear at t=125
	for _, c := range badStates() {
		t.Run(c.name, func(t *testing.T) {
			for _, doc := range docForms(c.name, m, Options{}, edit(good, c.path, c.fn)) {
				requireSameRestore(t, doc, used)
				e := New(m, Options{})
				err := e.RestoreBytes(doc.data, nil)
				requireStateError(t, err, c.field, c.msg)
			}
		})
	}
}

// acceptedEdits are changes to init-state.json that Restore accepts, each
// a case the fast path must read as Restore does or hand over.
func acceptedEdits() []struct {
	name string
	path []any
	fn   func(pyjson.Value) pyjson.Value
} {
	many := make([]pyjson.Value, 150)
	for i := range many {
		many[i] = pyjson.Obj(pyjson.KV("t", i), pyjson.KV("x", []pyjson.Value{pyjson.FloatValue(float64(i) / 3)}))
	}
	type e = struct {
		name string
		path []any
		fn   func(pyjson.Value) pyjson.Value
	}
	return []e{
		{"θ src a number", []any{"trace", "theta_tail", 0, "src"}, set(5)},
		{"θ dst null", []any{"trace", "theta_tail", 1, "dst"}, set(nil)},
		{"θ src another node", []any{"trace", "theta_tail", 2, "src"}, set("read")},
		{"θ src no node", []any{"trace", "theta_tail", 2, "dst"}, set("élsewhere")},
		{"θ novelty an int", []any{"trace", "theta_tail", 3, "novelty"}, set(1)},
		{"θ reward an int", []any{"trace", "theta_tail", 3, "reward"}, set(-2)},
		{"θ extra member", []any{"trace", "theta_tail", 4, "extra"}, set([]string{"x"})},
		{"θ tail empty", []any{"trace", "theta_tail"}, set([]pyjson.Value{})},
		{"θ tail missing", []any{"trace", "theta_tail"}, del},
		{"φ log long", []any{"trace", "phi_log"}, set(many)},
		{"φ log empty", []any{"trace", "phi_log"}, set([]pyjson.Value{})},
		{"trace extra", []any{"trace", "extra"}, set(1.5)},
		{"edge w missing", []any{"graph", "edges", 7, "w"}, del},
		{"edge w an int", []any{"graph", "edges", 8, "w"}, set(2)},
		{"edge u a string", []any{"graph", "edges", 9, "u"}, set("u")},
		{"edge extra", []any{"graph", "edges", 9, "zzz"}, set(nil)},
		{"nodes missing", []any{"graph", "nodes"}, del},
		{"edges missing", []any{"graph", "edges"}, del},
		{"graph extra", []any{"graph", "x"}, set([]pyjson.Value{})},
		{"unknown field", []any{"state", "fields", "gravity"}, set([]string{"not", "numbers"})},
		{"field missing", []any{"state", "fields", "memory"}, del},
		{"fields missing", []any{"state", "fields"}, del},
		{"ports missing", []any{"state", "ports"}, del},
		{"ports empty", []any{"state", "ports"}, set([]pyjson.Member{})},
		{"port an int", []any{"state", "ports", "cap_read"}, set(3)},
		{"t missing", []any{"state", "t"}, del},
		{"t huge", []any{"state", "t"}, set(int64(1) << 62)},
		{"bins missing", []any{"state", "theta_bins"}, del},
		{"state extra", []any{"state", "extra"}, set(true)},
		{"cursor missing", []any{"cursor"}, del},
		{"cursor node missing", []any{"cursor", "node"}, del},
		{"cursor theta missing", []any{"cursor", "theta"}, del},
		{"cursor negative", []any{"cursor", "phi"}, set(-40)},
		{"pp partial", []any{"pp", "truth"}, del},
		{"pp extra", []any{"pp", "joy"}, set("high")},
		{"pp an int", []any{"pp", "trust"}, set(1)},
		{"bias empty", []any{"policy", "edge_bias"}, set([]pyjson.Member{})},
		{"bias key 0", []any{"policy", "edge_bias"}, renameKey("3", "0")},
		{"policy extra", []any{"policy", "x"}, set(nil)},
		{"artifact meta missing", []any{"artifacts", 0, "meta"}, del},
		{"artifacts twice the same", []any{"artifacts"}, func(v pyjson.Value) pyjson.Value {
			return pyjson.ArrayValue(append(append([]pyjson.Value(nil), v.Items()...), v.Items()...))
		}},
		{"artifacts empty", []any{"artifacts"}, set([]pyjson.Value{})},
		{"schedule garbage", []any{"injection_schedule"}, set("anything")},
		{"schedule missing", []any{"injection_schedule"}, del},
		{"version last", nil, func(v pyjson.Value) pyjson.Value {
			ms := append([]pyjson.Member(nil), v.Members()[1:]...)
			return pyjson.ObjectValue(append(ms, v.Members()[0]))
		}},
		{"unknown top-level members", nil, func(v pyjson.Value) pyjson.Value {
			return pyjson.ObjectValue(append([]pyjson.Member{pyjson.KV("a", 1), pyjson.KV("", "empty key")},
				append(v.Members(), pyjson.KV("z", []pyjson.Value{pyjson.Obj()}))...))
		}},
		{"only the version", nil, func(v pyjson.Value) pyjson.Value { return pyjson.ObjectValue(v.Members()[:1]) }},
	}
}

// TestRestoreBytesAcceptsAsRestore: what Restore accepts, RestoreBytes
// accepts with the same result.
func TestRestoreBytesAcceptsAsRestore(t *testing.T) {
	m := DefaultManifest()
	good := initState(t)
	for _, c := range acceptedEdits() {
		t.Run(c.name, func(t *testing.T) {
			v := edit(good, c.path, c.fn)
			require.NoError(t, New(m, Options{}).Restore(v), "the edit must be one Restore accepts")
			for _, doc := range docForms(c.name, m, Options{}, v) {
				requireSameRestore(t, doc, nil)
			}
		})
	}
}

// textEdits are changes to the compact init-state.json made as text, for
// what a Value cannot express: repeated keys, escapes, number spellings,
// white space, syntax errors. Each replaces the first occurrence of old.
var textEdits = []struct{ name, old, new string }{
	{"repeated state", `"version":`, `"state":{},"version":`},
	{"repeated state after", `,"graph":`, `,"state":{"t":3},"graph":`},
	{"repeated version", `,"state":`, `,"version":"torusfield_kernel.v0.2.0","state":`},
	{"repeated version good", `,"state":`, `,"version":"torusfield_kernel.v0.2.1","state":`},
	{"repeated ucs", `"version":`, `"ucs":1,"ucs":{"seq":2},"version":`},
	{"repeated port", `"ports":{`, `"ports":{"cap_read":1.5,`},
	{"repeated field", `"fields":{`, `"fields":{"energy":[],`},
	{"repeated field bad last", `,"ports":`, `,"energy":[1.0],"ports":`},
	{"repeated bias", `"edge_bias":{`, `"edge_bias":{"3":9.5,`},
	{"repeated w", `"dst":"agents_list",`, `"dst":"agents_list","w":"bad",`},
	{"repeated w good", `"dst":"agents_list",`, `"dst":"agents_list","w":1.25,"w":0.5,`},
	{"repeated src", `{"src":"read"`, `{"src":"write","src":"read"`},
	{"repeated θ key", `"theta_tail":[{`, `"theta_tail":[{"cost":"x",`},
	{"repeated cursor node", `"cursor":{`, `"cursor":{"node":"nowhere",`},
	{"repeated pp", `"pp":{`, `"pp":{"truth":"x",`},
	{"repeated edges", `"graph":{`, `"graph":{"edges":[],`},
	{"escaped key", `"state":`, `"\u0073tate":`},
	{"escaped version", `"torusfield_kernel.v0.2.1"`, `"torusfield_kernel.v0.2.\u0031"`},
	{"escaped node", `"cursor":{"node":"`, `"cursor":{"node":"\u006d`},
	{"escaped solidus in a skipped string", `"version":`, `"ucs":"a\/b\\c\"\n\u00e9\ud83d\ude00","version":`},
	{"lone high surrogate", `"version":`, `"ucs":"\ud83d","version":`},
	{"lone low surrogate", `"version":`, `"ucs":"\ude00","version":`},
	{"high then not low", `"version":`, `"ucs":"\ud83d\u0041","version":`},
	{"bad hex", `"version":`, `"ucs":"\u12G4","version":`},
	{"bad escape", `"version":`, `"ucs":"\x41","version":`},
	{"raw control character", `"version":`, "\"ucs\":\"a\tb\",\"version\":"},
	{"invalid UTF-8 in a skipped string", `"version":`, "\"ucs\":\"\xff\",\"version\":"},
	{"invalid UTF-8 in a key", `"version":`, "\"\xc3\":1,\"version\":"},
	{"invalid UTF-8 in a port", `"ports":{"`, "\"ports\":{\"\xe2\x82"},
	{"UTF-8 port", `"ports":{"`, `"ports":{"é`},
	{"BOM", `{`, "\ufeff{"},
	{"19-digit t", `"t":200`, `"t":1000000000000000000`},
	{"int64 max t", `"t":200`, `"t":9223372036854775807`},
	{"t past int64", `"t":200`, `"t":9223372036854775808`},
	{"negative zero t", `"t":200`, `"t":-0`},
	{"cursor past int64", `"theta":8`, `"theta":9223372036854775808`},
	{"cursor int64 min", `"theta":8`, `"theta":-9223372036854775808`},
	{"cursor past int64 min", `"theta":8`, `"theta":-9223372036854775809`},
	{"cell past int64", `22.508069460802194`, `9999999999999999999`},
	{"cell 20 digits", `22.508069460802194`, `18446744073709551617`},
	{"exponent", `22.508069460802194`, `2.2508069460802194e1`},
	{"exponent upper", `22.508069460802194`, `2250.8069460802194E-2`},
	{"exponent plus", `22.508069460802194`, `0.22508069460802194e+2`},
	{"many digits", `22.508069460802194`, `22.50806946080219400000000000000000000001`},
	{"leading fraction zeros", `22.508069460802194`, `0.00000000000000000000000000000000225`},
	{"overflow", `22.508069460802194`, `1E400`},
	{"underflow", `22.508069460802194`, `1e-400`},
	{"negative underflow", `22.508069460802194`, `-1e-400`},
	{"negative zero", `22.508069460802194`, `-0.0`},
	{"int cell", `22.508069460802194`, `22`},
	{"big int cell", `22.508069460802194`, `-9223372036854775808`},
	{"leading zero", `22.508069460802194`, `022.5`},
	{"bare point", `22.508069460802194`, `22.`},
	{"point first", `22.508069460802194`, `.5`},
	{"plus", `22.508069460802194`, `+22.5`},
	{"no exponent digits", `22.508069460802194`, `22e`},
	{"NaN", `22.508069460802194`, `NaN`},
	{"Infinity", `22.508069460802194`, `Infinity`},
	{"-Infinity", `22.508069460802194`, `-Infinity`},
	{"minus alone", `22.508069460802194`, `-`},
	{"true cell", `22.508069460802194`, `true`},
	{"truncated literal", `"version":`, `"ucs":tru,"version":`},
	{"null ucs", `"version":`, `"ucs":null,"version":`},
	{"white space", `,"state":{`, " ,\n\t\r\"state\" : { "},
	{"white space in a field", `22.508069460802194,`, "22.508069460802194 \n,\t"},
	{"trailing comma in a field", `22.508069460802194,`, `22.508069460802194,,`},
	{"trailing comma in an object", `"pp":{`, `"pp":{,`},
	{"missing colon", `"pp":{`, `"pp"{`},
	{"missing comma", `,"pp":{`, `"pp":{`},
	{"single quotes", `"version":`, `'version':`},
	{"θ src number", `"theta_tail":[{`, `"theta_tail":[{"src":7,`},
	{"φ int in pp", `"artifacts_total":0,"pp":{"capacity":0.0`, `"artifacts_total":0,"pp":{"capacity":0`},
	{"φ float t", `"phi_log":[{"t":25`, `"phi_log":[{"t":25.0`},
	{"φ extra pp member", `"trust":0.025}}`, `"trust":0.025,"x":1}}`},
	{"φ other pp key", `"trust":0.025}}`, `"trusT":0.025}}`},
	{"φ repeated pp key", `"trust":0.025}}`, `"trust":0.025,"trust":1}}`},
	{"φ white space", `"phi_log":[{"t":25,`, `"phi_log":[ {"t" :25 ,`},
	{"φ log not a list", `"phi_log":[`, `"phi_log":{"a":[`},
	{"edge meta escaped", `"meta":{}}`, `"meta":{"a\u00e9\n":"\ud83d\ude00"}}`},
	{"edge white space", `{"src":"read",`, `{"src": "read" ,`},
	{"edge extra member", `"meta":{}}`, `"meta":{},"x":[1,2]}`},
	{"edge n an int", `"n":0.1,`, `"n":1,`},
}

// TestRestoreBytesTextEdits: the text edits give the same outcome both
// ways, and so do the end of the document cut anywhere near its ends and
// a few whole documents.
func TestRestoreBytesTextEdits(t *testing.T) {
	m := DefaultManifest()
	v := initState(t)
	compact := pyjson.AppendCompact(nil, v)
	for _, c := range textEdits {
		t.Run(c.name, func(t *testing.T) {
			require.True(t, bytes.Contains(compact, []byte(c.old)))
			doc := bytes.Replace(compact, []byte(c.old), []byte(c.new), 1)
			requireSameRestore(t, stateDoc{c.name, m, Options{}, doc}, nil)
		})
	}
	var docs []string
	for _, tail := range []string{"", " ", "\n", "x", ",", "}", " {}", "\x00"} {
		docs = append(docs, string(compact)+tail)
	}
	for n := range 40 {
		docs = append(docs, string(compact[:n]), string(compact[:len(compact)-n]))
	}
	docs = append(docs, "", " ", "null", "[]", "{}", `"torusfield_kernel.v0.2.1"`, "{\"version\":\"torusfield_kernel.v0.2.1\"}",
		`{"version":"torusfield_kernel.v0.2.1",}`, `{"version":"torusfield_kernel.v0.2.1"`, `{"version":"torusfield_kernel.v0.2.1"}}`,
		`{"version":1}`, `{"ucs":{},"version":"torusfield_kernel.v0.2.1","ucs":[]}`)
	// Many members for visit (the fast path leaves more than 16 to the slow one).
	for _, n := range []int{16, 17} {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, `"k%d":%d,`, i, i)
		}
		docs = append(docs, `{`+b.String()+`"version":"torusfield_kernel.v0.2.1"}`)
	}
	// Nesting at pyjson.Parse's limit of 1000 and one past it.
	for _, depth := range []int{998, 999, 1000} {
		docs = append(docs, `{"ucs":`+strings.Repeat("[", depth)+strings.Repeat("]", depth)+`,"version":"torusfield_kernel.v0.2.1"}`,
			`{"version":"torusfield_kernel.v0.2.1","artifacts":[{"id":"x","kind":"k","payload":{"d":`+
				strings.Repeat("{\"a\":", depth-4)+"1"+strings.Repeat("}", depth-4)+`},"score":1,"created_t":0}]}`)
	}
	for i, doc := range docs {
		requireSameRestore(t, stateDoc{fmt.Sprintf("doc %d %.40q", i, doc), m, Options{}, []byte(doc)}, nil)
	}
}

// TestRestoreBytesVisit: visit sees the members the engine does not own,
// in order, and its error is returned as is, leaving the engine unchanged;
// after a syntax error it is not called.
func TestRestoreBytesVisit(t *testing.T) {
	m := DefaultManifest()
	v := initState(t)
	doc := pyjson.AppendCompact(nil, pyjson.ObjectValue(append([]pyjson.Member{ucsLead}, append(v.Members(),
		pyjson.KV("zz", []string{"x"}))...)))
	require.True(t, fastPathTakes(m, Options{}, doc))

	var keys []string
	e := New(m, Options{})
	require.NoError(t, e.RestoreBytes(doc, func(key string, raw []byte) error {
		keys = append(keys, key)
		if key == "ucs" {
			assert.Equal(t, string(pyjson.AppendCompact(nil, ucsLead.Value)), string(raw), "the raw bytes of the member")
		}
		return nil
	}))
	assert.Equal(t, []string{"ucs", "zz"}, keys)

	lead, ok := pyjson.LeadMember(doc, "ucs")
	require.True(t, ok)
	assert.Equal(t, string(pyjson.AppendCompact(nil, ucsLead.Value)), string(pyjson.AppendCompact(nil, lead)))
	_, ok = pyjson.LeadMember(doc, "version")
	assert.False(t, ok, "not the first member")
	_, ok = pyjson.LeadMember(fixture(t, "init-state.json"), "ucs")
	assert.False(t, ok)

	boom := errors.New("boom")
	// On the fast path and on the slow one (an escaped key sends it there).
	for _, d := range [][]byte{doc, bytes.Replace(doc, []byte(`"state"`), []byte(`"st\u0061te"`), 1)} {
		e := New(m, Options{})
		e.Run(130)
		before := e.MarshalState()
		err := e.RestoreBytes(d, func(key string, raw []byte) error {
			if key == "zz" {
				return boom
			}
			return nil
		})
		require.Same(t, boom, err)
		require.Equal(t, string(before), string(e.MarshalState()))
	}

	// A state error comes after the visits, a syntax error before any.
	called := false
	bad := bytes.Replace(doc, []byte(`"theta_bins":24`), []byte(`"theta_bins":23`), 1)
	err := New(m, Options{}).RestoreBytes(bad, func(string, []byte) error { called = true; return nil })
	requireStateError(t, err, "state.theta_bins", "the grid has 24")
	assert.True(t, called)
	called = false
	err = New(m, Options{}).RestoreBytes(doc[:len(doc)-1], func(string, []byte) error { called = true; return nil })
	var se *pyjson.SyntaxError
	require.True(t, errors.As(err, &se), "%T: %v", err, err)
	assert.False(t, called)
}

// TestAppendStateMatchesAppendCompact: AppendState writes the bytes of
// AppendCompact(State()), with and without lead members, after what dst
// holds.
func TestAppendStateMatchesAppendCompact(t *testing.T) {
	leads := [][]pyjson.Member{nil, {ucsLead}, {ucsLead, pyjson.KV("version", "dup"), pyjson.KV("é\n", nil)}}
	check := func(t *testing.T, e *Engine) {
		t.Helper()
		for _, lead := range leads {
			want := pyjson.AppendCompact([]byte("prefix"), pyjson.ObjectValue(append(append([]pyjson.Member(nil), lead...),
				e.State().Members()...)))
			got := e.AppendState([]byte("prefix"), lead...)
			require.Equal(t, string(want), string(got))
		}
	}
	for _, doc := range stateCorpus(t) {
		t.Run(doc.name, func(t *testing.T) {
			e := New(doc.m, doc.opts)
			require.NoError(t, e.RestoreBytes(doc.data, nil))
			check(t, e)
		})
	}
	t.Run("odd values", func(t *testing.T) {
		e := New(DefaultManifest(), Options{})
		e.Run(600) // a full θ log: the tail is its end
		e.Grid.fields[0][0], e.Grid.fields[0][1], e.Grid.fields[0][2] = -0.0*1, 1e-7, 1e22
		e.Grid.fields[1][0] = negZero()
		e.Graph.Edges[0].W = 5e-324
		e.Trace.Theta[len(e.Trace.Theta)-1].Src = "quote\"\\\x01"
		check(t, e)
	})
}

func negZero() float64 {
	z := 0.0
	return -z
}

// TestLoadStateFastPath: LoadState reads the reference's files on the
// fast path and restores what Restore does.
func TestLoadStateFastPath(t *testing.T) {
	m := DefaultManifest()
	for _, name := range []string{"init-state.json", "workspace/ucs/state/torusfield_state.json"} {
		data := fixture(t, name)
		require.True(t, fastPathTakes(m, Options{}, data), name)
		e, err := LoadState(m, data, Options{})
		require.NoError(t, err)
		ref := New(m, Options{})
		_, err = referenceRestore(ref, data)
		require.NoError(t, err)
		assert.Equal(t, viewOf(ref), viewOf(e))
	}
}

// TestScannerNumbers: the scanner reads every number it accepts as
// pyjson.Parse does, bit for bit and int or float alike, including the
// long decimals pyjson's divPow10 converts, and it accepts those.
func TestScannerNumbers(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	digits := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('0' + rng.IntN(10))
		}
		return string(b)
	}
	var tokens []string
	for range 300000 {
		tok := ""
		if rng.IntN(2) == 0 {
			tok = "-"
		}
		intPart := digits(1 + rng.IntN(21))
		if len(intPart) > 1 && intPart[0] == '0' {
			intPart = intPart[1:]
			if intPart[0] == '0' {
				intPart = "0"
			}
		}
		tok += intPart
		if rng.IntN(4) != 0 {
			tok += "." + digits(1+rng.IntN(22))
		}
		if rng.IntN(8) == 0 {
			tok += []string{"e", "E", "e+", "e-"}[rng.IntN(4)] + digits(1+rng.IntN(3))
		}
		tokens = append(tokens, tok)
	}
	tokens = append(tokens, "0", "-0", "0.0", "-0.0", "1", "0.1", "9007199254740993", "9007199254740993.0",
		"0.30000000000000004", "22.508069460802194", "18446744073709551615.5", "9999999999999999999.0",
		"1.7976931348623157e308", "5e-324", "0.0000000000000000001", "0.9999999999999999999",
		"4.9406564584124654e-324", "2.2250738585072014e-308", "123456789012345678.9",
		"0.0e5", "0.0E-1", "-0.0e0", "0.00", "0.01", "0.0",
		// Exact ties between two floats, which round to the even one.
		"9007199254740995.0", "-9007199254740997.00", "18014398509481986.0", "36028797018963972.0", "1152921504606846977.0")
	tokens = append(tokens, strings.Repeat("9", 300)+".5", strings.Repeat("9", 301)+".5", strings.Repeat("9", 400)+".5",
		"1"+strings.Repeat("0", 308)+".0", "1"+strings.Repeat("0", 309)+".0", "0."+strings.Repeat("0", 400)+"1",
		"999999999999999999", "-999999999999999999", "9223372036854775807", "-9223372036854775808")
	long := 0
	for _, tok := range tokens {
		want, err := pyjson.Parse([]byte(tok))
		skip := scanner{src: []byte(tok)}
		if skip.skipNumber() {
			require.NoError(t, err, "skipNumber accepted %s", tok)
			require.Equal(t, len(tok), skip.pos, tok)
		}
		s := scanner{src: []byte(tok)}
		n, ok := s.number()
		if !ok {
			continue
		}
		require.NoError(t, err, tok)
		require.Equal(t, len(tok), s.pos, tok)
		if n.IsInt {
			i, isInt := want.Int()
			require.True(t, isInt, tok)
			require.Equal(t, i, n.Int, tok)
		}
		f, _ := want.Float()
		require.Equal(t, math.Float64bits(f), math.Float64bits(n.Float), "%s: want %v, got %v", tok, f, n.Float)
		if !n.IsInt && !strings.ContainsAny(tok, "eE") && len(strings.TrimLeft(strings.NewReplacer("-", "", ".", "").Replace(tok), "0")) > 16 {
			long++
		}
	}
	assert.Greater(t, long, 50000, "long decimals tested")
}

// TestAppendStateSizeHint: the hint is near the real size (the bridge
// passes a 96 KB buffer, which the state of the Aegis manifest must fit).
func TestAppendStateSizeHint(t *testing.T) {
	for _, steps := range []int{0, 200, 600} {
		e := New(DefaultManifest(), Options{})
		e.Run(steps)
		size, hint := len(e.AppendState(nil)), e.stateSizeHint()
		t.Logf("t=%d: %d bytes, hint %d", steps, size, hint)
		assert.InDelta(t, size, hint, float64(size)/3, "t=%d", steps)
		assert.Less(t, hint, 96<<10, "t=%d", steps)
	}
}

// TestValueBuilderMatchesParse: what the value builder accepts it builds
// as pyjson.Parse does, on pyjson's round-trip corpus and on random
// documents.
func TestValueBuilderMatchesParse(t *testing.T) {
	var docs []string
	lines := bytes.Split(readFile(t, "../internal/pyjson/testdata/roundtrip.jsonl"), []byte("\n"))
	for _, line := range lines {
		if len(line) == 0 {
			continue
		}
		v, err := pyjson.Parse(line)
		require.NoError(t, err)
		in, _ := v.Get("in")
		docs = append(docs, in.Str())
	}
	rng := rand.New(rand.NewPCG(8, 9))
	for range 2000 {
		docs = append(docs, string(pyjson.AppendCompact(nil, randomValue(rng, 4))), string(pyjson.Indent(randomValue(rng, 4))))
	}
	built := 0
	for _, doc := range docs {
		want, err := pyjson.Parse([]byte(doc))
		s := scanner{src: []byte(doc)}
		b := valueBuilder{s: &s}
		got, ok := b.value()
		if !ok || !s.end() {
			continue
		}
		require.NoError(t, err, doc)
		require.Equal(t, want, got, doc)
		built++
	}
	assert.Greater(t, built, 3000)
}

func readFile(t *testing.T, name string) []byte {
	data, err := os.ReadFile(name)
	require.NoError(t, err)
	return data
}

// randomValue returns a random JSON value nested up to depth levels.
func randomValue(rng *rand.Rand, depth int) pyjson.Value {
	kind := rng.IntN(9)
	if depth == 0 {
		kind %= 6
	}
	switch kind {
	case 0:
		return pyjson.NullValue()
	case 1:
		return pyjson.BoolValue(rng.IntN(2) == 0)
	case 2:
		return pyjson.IntValue(rng.Int64() >> rng.IntN(64))
	case 3:
		return pyjson.FloatValue(math.Float64frombits(rng.Uint64()&^(0x7ff<<52) | uint64(rng.IntN(0x7ff))<<52))
	case 4:
		return pyjson.FloatValue(float64(rng.IntN(1000)) / 8)
	case 5:
		return pyjson.StringValue([]string{"", "a", "é", "😀", "t", "pp", "x y"}[rng.IntN(7)])
	case 6, 7:
		ms := make([]pyjson.Member, rng.IntN(5))
		for i := range ms {
			ms[i] = pyjson.Member{Key: fmt.Sprintf("k%d", i), Value: randomValue(rng, depth-1)}
		}
		return pyjson.ObjectValue(ms)
	}
	items := make([]pyjson.Value, rng.IntN(5))
	for i := range items {
		items[i] = randomValue(rng, depth-1)
	}
	return pyjson.ArrayValue(items)
}

// TestRestoreBytesKeepsNoReference: the engine keeps nothing of the
// document's bytes (the caller may reuse its buffer).
func TestRestoreBytesKeepsNoReference(t *testing.T) {
	for _, doc := range stateCorpus(t)[:6] {
		data := bytes.Clone(doc.data)
		e := New(doc.m, doc.opts)
		require.NoError(t, e.RestoreBytes(data, nil))
		before := e.MarshalState()
		for i := range data {
			data[i] = 'x'
		}
		require.Equal(t, string(before), string(e.MarshalState()), doc.name)
	}
}
