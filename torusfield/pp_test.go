package torusfield

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// ppFormulas is testdata/formulas/pp.json: the reference's PPEngine.evaluate
// over sequences of φ-cycles, with the vector and health_score after each.
type ppFormulas struct {
	Cases []struct {
		Name  string         `json:"name"`
		Init  []pair[string] `json:"init"`
		Evals []struct {
			Steps     int            `json:"steps"`
			Artifacts []pair[string] `json:"artifacts"` // [kind, score]
		} `json:"evals"`
		After []struct {
			Vector []pair[string] `json:"vector"`
			Health hexf           `json:"health"`
		} `json:"after"`
	} `json:"cases"`
}

func ppIndex(t *testing.T, name string) int {
	t.Helper()
	for i, d := range PPDimensions {
		if d == name {
			return i
		}
	}
	t.Fatalf("unknown PP dimension %q", name)
	return -1
}

// TestPPEvaluate covers saturation (more than 50 steps, a mass over 5, four
// kinds), a negative mass, empty cycles, and a vector loaded from a state.
func TestPPEvaluate(t *testing.T) {
	var f ppFormulas
	loadFormulas(t, "pp.json", &f)
	require.NotEmpty(t, f.Cases)
	for _, c := range f.Cases {
		t.Run(c.Name, func(t *testing.T) {
			var pp PP
			for _, kv := range c.Init {
				pp[ppIndex(t, kv.Key)] = kv.Val
			}
			require.Len(t, c.After, len(c.Evals))
			for i, ev := range c.Evals {
				log := &TraceLog{Theta: make([]TraceStep, ev.Steps)}
				var arts []*Artifact
				for _, a := range ev.Artifacts {
					arts = append(arts, &Artifact{Kind: a.Key, Score: a.Val})
				}
				pp.evaluate(arts, log)
				want := c.After[i]
				// The reference's dict order is the order health sums in.
				require.Len(t, want.Vector, len(PPDimensions))
				for j, kv := range want.Vector {
					require.Equal(t, PPDimensions[j], kv.Key)
					requireBits(t, kv.Val, pp[j], "eval %d: %s", i+1, kv.Key)
				}
				requireBits(t, float64(want.Health), pp.Health(), "eval %d: health", i+1)
			}
		})
	}
}

// TestPPHealth: health is the plain mean of the six dimensions, summed in
// dimension order.
func TestPPHealth(t *testing.T) {
	for i, c := range []struct {
		pp   PP
		want float64
	}{
		{PP{}, 0},
		{PP{1, 1, 1, 1, 1, 1}, 1},
		// Python: sum([0.1, 0.2, 0.3, 0.4, 0.5, 0.6]) / 6 (a Go constant
		// expression would be evaluated exactly, so the bits are spelled out).
		{PP{0.1, 0.2, 0.3, 0.4, 0.5, 0.6}, 0x1.6666666666667p-02},
	} {
		requireBits(t, c.want, c.pp.Health(), "case %d", i)
	}
}
