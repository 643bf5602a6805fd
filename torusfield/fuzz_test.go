package torusfield

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// fuzzManifest is parsed once for all fuzz inputs.
var fuzzManifest = sync.OnceValue(DefaultManifest)

func FuzzParseManifest(f *testing.F) {
	f.Add(DefaultManifestJSON())
	f.Add([]byte(`{"capabilities": [{"name": "a", "connects_to": ["b", "lbl"], "u": 0.9, "c": 0.1, "n": 0.3,
		"meta": {"k": 1}}, {"name": "b", "connects_to": ["a"]}], "semantic_map": {"lbl": ["b", "a"]}}`))
	f.Add([]byte(`{"capabilities": [{"name": "é", "connects_to": ["😀"]}, {"name": "😀"}]}`))
	f.Add([]byte(`{"capabilities": []}`))
	f.Add([]byte(`{"capabilities": [{"name": "a"}, {"name": "a"}]}`))
	f.Add([]byte(`{"capabilities": [{"name": "a", "connects_to": ["x"]}], "semantic_map": {"x": ["zz"]}}`))
	f.Add([]byte(`{"capabilities": [{"name": "a", "u": "0.5", "c": true, "n": null}]}`))
	f.Add([]byte(`{"capabilities": [{"name": "a", "u": -0.1, "c": 1.5}]}`))
	f.Add([]byte(`{"capabilities": [{"name": "a\u0001"}]}`))
	f.Add([]byte(`[1, 2]`))
	f.Add([]byte(`{"capabilities": [`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseManifest(data)
		if err != nil {
			if _, ok := err.(*ManifestError); !ok {
				t.Fatalf("error %T is not a *ManifestError: %v", err, err)
			}
			return
		}
		if len(m.Capabilities) == 0 {
			t.Fatal("a manifest without capabilities was accepted")
		}
		g := buildGraph(m)
		seen := map[[2]string]bool{}
		for i, e := range g.Edges {
			if !m.Has(e.Src) || !m.Has(e.Dst) {
				t.Fatalf("edge %d %q→%q: an end is not a capability", i, e.Src, e.Dst)
			}
			if e.Src == e.Dst {
				t.Fatalf("edge %d is a self-loop on %q", i, e.Src)
			}
			if seen[[2]string{e.Src, e.Dst}] {
				t.Fatalf("edge %d %q→%q is a duplicate", i, e.Src, e.Dst)
			}
			seen[[2]string{e.Src, e.Dst}] = true
			for _, x := range []float64{e.U, e.C, e.N} {
				if !(x >= 0 && x <= 1) {
					t.Fatalf("edge %d %q→%q: u, c, n = %v, %v, %v, not all in [0, 1]", i, e.Src, e.Dst, e.U, e.C, e.N)
				}
			}
		}
		// Whatever it accepts boots and runs.
		e := New(m, Options{ThetaBins: 2, PhiBins: 3})
		e.Run(3)
	})
}

func FuzzLoadState(f *testing.F) {
	for _, name := range []string{"init-state.json", "workspace/ucs/state/torusfield_state.json"} {
		data := fixture(f, name)
		f.Add(data)
		f.Add(data[:len(data)/3])
		f.Add(bytes.Replace(data, []byte(`"t": `), []byte(`"t": -`), 1))
		f.Add(bytes.Replace(data, []byte("0.0"), []byte("1e999"), 1))
		f.Add(bytes.Replace(data, []byte(`"node": "`), []byte(`"node": "x`), 1))
		f.Add(bytes.Replace(data, []byte(`"edge_index": `), []byte(`"edge_index": 9`), 1))
	}
	f.Add([]byte(`{"version": "torusfield_kernel.v0.2.1"}`))
	f.Add([]byte(`{"version": "torusfield_kernel.v0.2.1", "cursor": {"node": "read", "theta": -5, "phi": 9223372036854775807},
		"artifacts": [{"id": "x", "kind": "wormhole", "payload": {"edge_index": 3}, "score": 1e308, "created_t": 0}],
		"policy": {"edge_bias": {"3": -1.5}}, "trace": {"phi_log": [1, null, {"a": []}]}}`))
	f.Add([]byte(`{"version": "torusfield_kernel.v0.2.0"}`))
	f.Add([]byte(`[]`))
	m := fuzzManifest()
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := LoadState(m, data, Options{})
		if err != nil {
			if _, ok := err.(*StateError); !ok {
				t.Fatalf("error %T is not a *StateError: %v", err, err)
			}
			return
		}
		saved := e.MarshalState()
		again, err := LoadState(m, saved, Options{})
		if err != nil {
			t.Fatalf("a state LoadState accepted was saved as one it rejects: %v", err)
		}
		if resaved := again.MarshalState(); !bytes.Equal(saved, resaved) {
			t.Fatalf("save → load → save is not the identity:\n%s\n---\n%s", saved, resaved)
		}
		// Whatever it accepts runs.
		e.Run(2)
		e.PhiCycle()
		_ = e.Report()
	})
}

// FuzzRestoreBytes: for any input, RestoreBytes and pyjson.Parse + Restore
// agree on success, on the error (type and text), on the members visit
// sees, and on the engine afterwards, which a failure leaves unchanged.
func FuzzRestoreBytes(f *testing.F) {
	m := fuzzManifest()
	for _, name := range []string{"init-state.json", "workspace/ucs/state/torusfield_state.json"} {
		v, err := pyjson.Parse(fixture(f, name))
		require.NoError(f, err)
		for _, doc := range docForms(name, m, Options{}, v) {
			f.Add(doc.data)
		}
	}
	good, err := pyjson.Parse(fixture(f, "init-state.json"))
	require.NoError(f, err)
	for _, c := range badStates() {
		f.Add(pyjson.AppendCompact(nil, edit(good, c.path, c.fn)))
	}
	for _, c := range acceptedEdits() {
		f.Add(pyjson.AppendCompact(nil, edit(good, c.path, c.fn)))
	}
	compact := pyjson.AppendCompact(nil, good)
	for _, c := range textEdits {
		f.Add(bytes.Replace(compact, []byte(c.old), []byte(c.new), 1))
	}
	// Small documents, which the fuzzer mutates quickly.
	f.Add([]byte(`{"version": "torusfield_kernel.v0.2.1"}`))
	f.Add([]byte(`{"ucs":{"seq":1,"s":"a\"\u00e9"},"version":"torusfield_kernel.v0.2.1","cursor":{"node":"read","theta":-5,"phi":9},` +
		`"pp":{"truth":0.5,"trust":1},"policy":{"edge_bias":{"3":-1.5,"0":2}},"state":{"t":3,"ports":{"p":1e-7,"q":2}},` +
		`"trace":{"theta_tail":[{"t":1,"src":"read","dst":"x","edge_index":0,"reward":1,"cost":0.5,"novelty":0}],"phi_log":[1,null]},` +
		`"artifacts":[{"id":"x","kind":"wormhole","payload":{"edge_index":3},"score":1.5,"created_t":0,"meta":{}}]}`))
	fresh := viewOf(New(m, Options{}))
	f.Fuzz(func(t *testing.T, data []byte) {
		want, got := New(m, Options{}), New(m, Options{})
		wantOthers, wantErr := referenceRestore(want, data)
		gotOthers, gotErr := restoreBytes(got, data)
		if (wantErr == nil) != (gotErr == nil) {
			t.Fatalf("Restore: %v\nRestoreBytes: %v", wantErr, gotErr)
		}
		if wantErr != nil {
			if fmt.Sprintf("%T %v", wantErr, wantErr) != fmt.Sprintf("%T %v", gotErr, gotErr) {
				t.Fatalf("Restore: %T %v\nRestoreBytes: %T %v", wantErr, wantErr, gotErr, gotErr)
			}
			if !reflect.DeepEqual(fresh, viewOf(got)) {
				t.Fatal("a failed RestoreBytes changed the engine")
			}
		}
		if !reflect.DeepEqual(wantOthers, gotOthers) {
			t.Fatalf("visited members differ:\n%v\n%v", wantOthers, gotOthers)
		}
		if wantErr != nil {
			return
		}
		if !reflect.DeepEqual(viewOf(want), viewOf(got)) {
			t.Fatal("the engines differ")
		}
		// The Value MarshalState indents, written compact: the same
		// content, and the fuzzer runs more inputs a second.
		if a, b := pyjson.AppendCompact(nil, want.State()), pyjson.AppendCompact(nil, got.State()); !bytes.Equal(a, b) {
			t.Fatalf("the states differ:\n%s\n%s", a, b)
		}
	})
}

// FuzzCheckKeys: whatever the bytes, CheckKeys returns nil, an
// *UnknownKeyError naming a key the object does not know, or a
// *ManifestError; it never panics.
func FuzzCheckKeys(f *testing.F) {
	f.Add(DefaultManifestJSON())
	f.Add([]byte(`{"capabilities": [{"name": "run_tests", "outcom": {}, "permision": []}], "semantic_mapp": {}}`))
	f.Add([]byte(`{"capabilities": [{"nam": 1}, 2, null], "semantic_map": []}`))
	f.Add([]byte(`{"capabilities": [{"name": "a\u0000", "\u00e9": 1}]}`))
	f.Add([]byte(`[1, {"x": 2}]`))
	f.Add([]byte(`{"capabilities": [`))
	known := []string{"permissions", "outcome"}
	f.Fuzz(func(t *testing.T, data []byte) {
		err := CheckKeys(data, known)
		switch e := err.(type) {
		case nil, *ManifestError:
		case *UnknownKeyError:
			if slices.Contains(e.Known, e.Key) {
				t.Fatalf("refused the known key %q", e.Key)
			}
			if e.Near != "" && !slices.Contains(e.Known, e.Near) {
				t.Fatalf("suggested %q, which is not a known key", e.Near)
			}
			_ = e.Hint()
		default:
			t.Fatalf("error %T: %v", err, err)
		}
	})
}
