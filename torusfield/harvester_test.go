package torusfield

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// logStep is a TraceStep as gen.py writes it: [t, src, dst, edge_index,
// reward, cost, novelty].
type logStep TraceStep

func (s *logStep) UnmarshalJSON(b []byte) error {
	var raw [7]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	var r, c, n hexf
	for i, dst := range []any{&s.T, &s.Src, &s.Dst, &s.EdgeIndex, &r, &c, &n} {
		if err := json.Unmarshal(raw[i], dst); err != nil {
			return err
		}
	}
	s.Reward, s.Cost, s.Novelty = float64(r), float64(c), float64(n)
	return nil
}

type wantArtifact struct {
	ID       string `json:"id"`
	Kind     string `json:"kind"`
	Payload  string `json:"payload"` // json.dumps(payload, ensure_ascii=False)
	Score    hexf   `json:"score"`
	CreatedT int    `json:"created_t"`
}

// harvesterFormulas is testdata/formulas/harvester.json: the reference's
// detectors on hand-made logs at every threshold, and on θ logs of the
// reference engine itself.
type harvesterFormulas struct {
	Cases []struct {
		Name       string         `json:"name"`
		Now        int            `json:"now"`
		Log        []logStep      `json:"log"`
		Wormholes  []wantArtifact `json:"wormholes"`
		Attractors []wantArtifact `json:"attractors"`
		Resonances []wantArtifact `json:"resonances"`
		All        []string       `json:"all"`
		Validated  []string       `json:"validated"`
	} `json:"cases"`
	Validate struct {
		Scores []hexf   `json:"scores"`
		Kept   []string `json:"kept"`
	} `json:"validate"`
	Log1pInt [][2]json.RawMessage `json:"log1p_int"`
}

func compareArtifacts(t *testing.T, what string, want []wantArtifact, got []*Artifact) {
	t.Helper()
	require.Lenf(t, got, len(want), "%s: %v", what, ids(got))
	for i, w := range want {
		a := got[i]
		assert.Equal(t, w.ID, a.ID, "%s[%d] id", what, i)
		assert.Equal(t, w.Kind, a.Kind, "%s[%d] kind", what, i)
		// Payload keys in the reference's order, values rounded as it rounds
		// them: round(mean, 6), round(freq, 4), round(period, 2), round(cv, 4).
		assert.Equal(t, w.Payload, string(pyjson.AppendDumps(nil, a.Payload)), "%s[%d] payload", what, i)
		requireBits(t, float64(w.Score), a.Score, "%s[%d] score", what, i)
		assert.Equal(t, w.CreatedT, a.CreatedT, "%s[%d] created_t", what, i)
		assert.Empty(t, a.Meta, "%s[%d] meta", what, i)
	}
}

func ids(as []*Artifact) []string {
	out := []string{} // the generator writes [] for none
	for _, a := range as {
		out = append(out, a.ID)
	}
	return out
}

// TestHarvester covers each detector at its thresholds:
//
//   - wormholes: 5 vs 6 hits; a mean net exactly 0.35 (kept: >=) and the
//     float just under it (dropped); six nets of exactly 0.35 whose mean
//     rounds just above it; order of first appearance; round(mean, 6);
//   - attractors: frequency exactly 0.15 (dropped: it must be > 0.15) and
//     0.175; 5 vs 6 visits; round(freq, 4) on an exact tie (0.15625 →
//     0.1562); node names that test the ID's JSON escaping;
//   - resonances: 19 vs 20 logged steps; a perfect period (cv 0); cv just
//     under 0.3, exactly 0.3 and just over; 3, 4, 5 and 6 occurrences; a mean
//     interval of 0, 0.2 and exactly 1; round(2.675, 2) = 2.67;
//   - intervals whose variance a fused multiply-add would change;
//   - the empty log, and the θ logs of the reference's ring and Aegis
//     engines (300 and 500 steps).
//   - "bug-log-ulp-13": a count whose ln(1+n) Go's math.Log gets one ulp
//     off (fixed by logTable).
func TestHarvester(t *testing.T) {
	var f harvesterFormulas
	loadFormulas(t, "harvester.json", &f)
	require.NotEmpty(t, f.Cases)
	h := defaultHarvester()
	for _, c := range f.Cases {
		t.Run(c.Name, func(t *testing.T) {
			log := &TraceLog{}
			for _, s := range c.Log {
				log.Theta = append(log.Theta, TraceStep(s))
			}
			compareArtifacts(t, "wormholes", c.Wormholes, h.Wormholes(log, c.Now))
			compareArtifacts(t, "attractors", c.Attractors, h.Attractors(log, c.Now))
			compareArtifacts(t, "resonances", c.Resonances, h.Resonances(log, c.Now))
			all := h.Detect(log, c.Now)
			assert.Equal(t, c.All, ids(all), "detect_all: wormholes, attractors, resonances")
			assert.Equal(t, c.Validated, ids(validate(all)))
		})
	}
}

func TestHarvesterValidate(t *testing.T) {
	var f harvesterFormulas
	loadFormulas(t, "harvester.json", &f)
	require.NotEmpty(t, f.Validate.Scores)
	var arts []*Artifact
	for i, s := range f.Validate.Scores {
		arts = append(arts, &Artifact{ID: "s" + string(rune('0'+i)), Kind: KindWormhole, Score: float64(s)})
	}
	assert.Equal(t, f.Validate.Kept, ids(validate(arts)), "only a positive score passes; NaN does not")
}

// TestArtifactIDs pins the reference's IDs: sha256 of the sorted-key JSON of
// {kind, edge_index | node}, first 16 hex digits.
func TestArtifactIDs(t *testing.T) {
	edge := func(kind string, ei int64) string {
		return artifactID(pyjson.Member{Key: "kind", Value: pyjson.StringValue(kind)},
			pyjson.Member{Key: "edge_index", Value: pyjson.IntValue(ei)})
	}
	// sha256(b'{"edge_index":1,"kind":"wormhole"}')[:16], from the harvester data.
	assert.Equal(t, "4cd70e8957e7ca51", edge(KindWormhole, 1))
	assert.NotEqual(t, edge(KindWormhole, 1), edge(KindResonance, 1))
	assert.Len(t, edge(KindResonance, 248), 16)
}

// TestLog1pMatchesPython compares logCount(n) = ln(1+n), which scores every
// artifact, with the C library's log for every count the θ log can hold
// (0…500), within 1e-15; differing bits are logged. TestLog1pBitsMatchPython
// demands the same bits (math.Log alone is one ulp off for 13 of them).
func TestLog1pMatchesPython(t *testing.T) {
	diff := checkLog1p(t, func(want, got float64) bool { return math.Abs(want-got) <= 1e-15 })
	t.Logf("%d of 501 log values differ in the last bit", diff)
}

func TestLog1pBitsMatchPython(t *testing.T) {
	assert.Zero(t, checkLog1p(t, sameBits))
}

func checkLog1p(t *testing.T, ok func(want, got float64) bool) (diff int) {
	t.Helper()
	var f harvesterFormulas
	loadFormulas(t, "harvester.json", &f)
	require.Len(t, f.Log1pInt, 501)
	for _, c := range f.Log1pInt {
		var n int
		var want hexf
		require.NoError(t, json.Unmarshal(c[0], &n))
		require.NoError(t, json.Unmarshal(c[1], &want))
		got := logCount(n)
		if !sameBits(float64(want), got) {
			diff++
			t.Logf("log(1+%d): Go %x, Python %x", n, got, float64(want))
		}
		assert.Truef(t, ok(float64(want), got), "log(1+%d): Go %x, Python %x", n, got, float64(want))
	}
	return diff
}
