package torusfield

import (
	"bytes"
	_ "embed"
)

// aegisBoot is the state of an engine on the embedded Aegis manifest after
// AegisBootSteps θ-steps from the default seed, in compact JSON: what every
// default init computes. TestAegisBootState proves it is exactly what the
// steps produce, and rewrites it with -update-boot.
//
//go:embed aegis-boot-state.json
var aegisBoot []byte

// AegisBootSteps is the number of θ-steps the stored Aegis boot state holds:
// the bridge's init warm-up.
const AegisBootSteps = 200

// Boot returns an engine on m, with default options, after n θ-steps from
// a fresh start. For the embedded Aegis manifest and AegisBootSteps, the
// most common boot by far (every default init), it restores the state those
// steps produce, stored at build time, instead of running them: a tenth of
// the time. The engine is then the one a later call loads from the state
// file (same state; its random generator and θ log start afresh, as a
// loaded engine's do), which is all an init keeps of it. In that case Boot
// also returns the stored state, the compact JSON AppendState would write
// for the engine, so an init can save it without encoding it (see
// AppendStoredState); otherwise stored is nil. The caller must not change
// stored: it is the binary's own copy.
func Boot(m *Manifest, n int) (e *Engine, stored []byte) {
	if n == AegisBootSteps && bytes.Equal(m.raw, aegisManifest) {
		if e, err := LoadState(m, aegisBoot, Options{}); err == nil {
			return e, aegisBoot
		}
		// Unreachable while TestAegisBootState passes; boot the slow way.
	}
	e = New(m, Options{})
	e.Run(n)
	return e, nil
}
