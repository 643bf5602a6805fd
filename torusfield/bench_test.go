package torusfield

import (
	"testing"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// The benchmarks use the embedded Aegis manifest (45 capabilities, 249 edges)
// on the default 24×32 grid.

// BenchmarkBootAegis is the reference's init: New and 200 θ-steps (8
// φ-cycles).
func BenchmarkBootAegis(b *testing.B) {
	m := DefaultManifest()
	for b.Loop() {
		e := New(m, Options{})
		e.Run(200)
	}
}

func BenchmarkLoadState(b *testing.B) {
	m := DefaultManifest()
	data := fixture(b, "init-state.json")
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := LoadState(m, data, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// benchDocs are the state after init as the reference stores it
// (indented) and as the bridge does (compact, its meta first), and a
// mature state (compact): after 2,600 θ-steps the φ log is full (100
// records) and more artifacts are held.
func benchDocs(tb testing.TB) []stateDoc {
	m := DefaultManifest()
	v, err := pyjson.Parse(fixture(tb, "init-state.json"))
	if err != nil {
		tb.Fatal(err)
	}
	forms := docForms("init", m, Options{}, v)
	e := New(m, Options{})
	e.Run(2600)
	mature := docForms("mature", m, Options{}, e.State())
	return []stateDoc{forms[0], forms[2], mature[2]}
}

func visitNothing(string, []byte) error { return nil }

// BenchmarkRestoreBytes restores a state into an existing engine, as a
// call of the bridge does.
func BenchmarkRestoreBytes(b *testing.B) {
	for _, doc := range benchDocs(b) {
		b.Run(doc.name, func(b *testing.B) {
			e := New(doc.m, doc.opts)
			b.SetBytes(int64(len(doc.data)))
			b.ReportAllocs()
			for b.Loop() {
				if err := e.RestoreBytes(doc.data, visitNothing); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRestoreTree is what RestoreBytes replaces: pyjson.Parse, then
// Restore.
func BenchmarkRestoreTree(b *testing.B) {
	for _, doc := range benchDocs(b) {
		b.Run(doc.name, func(b *testing.B) {
			e := New(doc.m, doc.opts)
			b.SetBytes(int64(len(doc.data)))
			b.ReportAllocs()
			for b.Loop() {
				v, err := pyjson.Parse(doc.data)
				if err != nil {
					b.Fatal(err)
				}
				if err := e.Restore(v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkAppendState writes the compact state with the bridge's meta
// first, as every changing call does.
func BenchmarkAppendState(b *testing.B) {
	for _, doc := range benchDocs(b)[1:] {
		b.Run(doc.name, func(b *testing.B) {
			e := restoredFor(b, doc)
			for b.Loop() {
				e.AppendState(nil, ucsLead) // sized by its hint: one allocation
			}
		})
	}
}

// BenchmarkAppendStateTree is what AppendState replaces: State, then
// pyjson.AppendCompact.
func BenchmarkAppendStateTree(b *testing.B) {
	for _, doc := range benchDocs(b)[1:] {
		b.Run(doc.name, func(b *testing.B) {
			e := restoredFor(b, doc)
			for b.Loop() {
				state := pyjson.ObjectValue(append([]pyjson.Member{ucsLead}, e.State().Members()...))
				pyjson.AppendCompact(make([]byte, 0, 96<<10), state)
			}
		})
	}
}

func BenchmarkSaveState(b *testing.B) {
	e := bootAegis(b)
	b.SetBytes(int64(len(e.MarshalState())))
	for b.Loop() {
		e.MarshalState()
	}
}

// BenchmarkThetaStep is one θ-step without its periodic φ-cycle.
func BenchmarkThetaStep(b *testing.B) {
	e := bootAegis(b)
	e.PhiPeriod = 1 << 62
	for b.Loop() {
		e.Step()
	}
}

// BenchmarkPhiCycle harvests a full θ log (500 steps).
func BenchmarkPhiCycle(b *testing.B) {
	e := bootAegis(b)
	e.Run(300)
	for b.Loop() {
		e.PhiCycle()
	}
}

func BenchmarkDigest(b *testing.B) {
	e := bootAegis(b)
	for b.Loop() {
		e.Digest()
	}
}

// restoredFor returns an engine holding doc's state, set up to measure
// writing it: bytes per op are the document's size.
func restoredFor(b *testing.B, doc stateDoc) *Engine {
	b.Helper()
	e := New(doc.m, doc.opts)
	if err := e.RestoreBytes(doc.data, nil); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(doc.data)))
	b.ReportAllocs()
	return e
}

func BenchmarkDiffuse(b *testing.B) {
	e := bootAegis(b)
	b.ReportAllocs()
	for b.Loop() {
		e.Grid.Diffuse(FieldEnergy, e.ThetaMix, e.PhiMix)
	}
}

// BenchmarkClone is what a server's read call pays instead of
// RestoreBytes (and New) when it has the engine kept (bridge.Warm).
func BenchmarkClone(b *testing.B) {
	for _, doc := range benchDocs(b) {
		b.Run(doc.name, func(b *testing.B) {
			e := New(doc.m, doc.opts)
			if err := e.RestoreBytes(doc.data, visitNothing); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				e.Clone()
			}
		})
	}
}
