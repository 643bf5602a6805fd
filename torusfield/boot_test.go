package torusfield

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestLongBootMatchesReference boots the embedded Aegis manifest with seed
// 1337, as the reference's documented boot does (eng.run(1000)), and
// compares the integrity digest (SHA-256 of the stable JSON of the whole
// state) with the reference's after every 25 steps, i.e. after every
// φ-cycle. testdata/formulas/boot.json holds the reference's digests.
func TestLongBootMatchesReference(t *testing.T) {
	var f struct {
		Seed    uint64   `json:"seed"`
		Digests [][2]any `json:"digests"`
	}
	loadFormulas(t, "boot.json", &f)
	require.Len(t, f.Digests, 40)
	e := New(DefaultManifest(), Options{Seed: f.Seed})
	for i, d := range f.Digests {
		e.Run(25)
		require.EqualValues(t, d[0], e.Grid.T)
		if e.Digest() != d[1].(string) {
			t.Fatalf("digest %d (t=%d) differs from the reference's", i, e.Grid.T)
		}
	}
}
