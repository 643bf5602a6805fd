package torusfield

import "testing"

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
