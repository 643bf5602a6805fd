package torusfield

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gridFormulas is testdata/formulas/grid.json: the reference's TorusState
// on small grids.
type gridFormulas struct {
	Index []struct {
		ThetaBins int `json:"theta_bins"`
		PhiBins   int `json:"phi_bins"`
		Theta     int `json:"theta"`
		Phi       int `json:"phi"`
		Index     int `json:"index"`
	} `json:"index"`
	Diffuse []struct {
		Name      string   `json:"name"`
		ThetaBins int      `json:"theta_bins"`
		PhiBins   int      `json:"phi_bins"`
		Field     string   `json:"field"`
		ThetaMix  hexf     `json:"theta_mix"`
		PhiMix    hexf     `json:"phi_mix"`
		Init      []hexf   `json:"init"`
		Steps     [][]hexf `json:"steps"`
	} `json:"diffuse"`
	Decay []struct {
		Name      string            `json:"name"`
		ThetaBins int               `json:"theta_bins"`
		PhiBins   int               `json:"phi_bins"`
		Rate      hexf              `json:"rate"`
		Times     int               `json:"times"`
		Init      map[string][]hexf `json:"init"`
		Want      map[string][]hexf `json:"want"`
	} `json:"decay"`
	Inject []struct {
		Name       string `json:"name"`
		ThetaBins  int    `json:"theta_bins"`
		PhiBins    int    `json:"phi_bins"`
		Injections []struct {
			Port      string `json:"port"`
			Magnitude hexf   `json:"magnitude"`
			Theta     int    `json:"theta"`
			Phi       int    `json:"phi"`
			Field     string `json:"field"`
		} `json:"injections"`
		Ports  []pair[string]    `json:"ports"`
		Fields map[string][]hexf `json:"fields"`
	} `json:"inject"`
}

func TestGridIndex(t *testing.T) {
	var f gridFormulas
	loadFormulas(t, "grid.json", &f)
	require.NotEmpty(t, f.Index)
	for _, c := range f.Index {
		g := newGrid(c.ThetaBins, c.PhiBins)
		got := g.Index(c.Theta, c.Phi)
		assert.Equalf(t, c.Index, got, "%d×%d grid, (%d, %d)", c.ThetaBins, c.PhiBins, c.Theta, c.Phi)
		assert.True(t, got >= 0 && got < g.Size())
	}
}

func TestGridDiffuse(t *testing.T) {
	var f gridFormulas
	loadFormulas(t, "grid.json", &f)
	require.NotEmpty(t, f.Diffuse)
	for _, c := range f.Diffuse {
		t.Run(c.Name, func(t *testing.T) {
			g := newGrid(c.ThetaBins, c.PhiBins)
			copy(g.Field(c.Field), floatsOf(c.Init))
			for i, want := range c.Steps {
				g.Diffuse(c.Field, float64(c.ThetaMix), float64(c.PhiMix))
				requireAllBits(t, floatsOf(want), g.Field(c.Field), "%s after %d diffusions", c.Field, i+1)
			}
			for _, other := range fieldNames {
				if other != c.Field {
					assert.Zerof(t, g.Sum(other), "diffusing %s touched %s", c.Field, other)
				}
			}
		})
	}
}

// TestGridDiffuseConserves: diffusion moves energy and creates none (up to
// rounding), whatever the grid's shape.
func TestGridDiffuseConserves(t *testing.T) {
	for _, dims := range [][2]int{{3, 4}, {1, 7}, {6, 1}, {24, 32}} {
		g := newGrid(dims[0], dims[1])
		g.Inject("p", 10, 1, 2, FieldEnergy)
		g.Inject("q", -3.5, 0, 0, FieldEnergy)
		for range 50 {
			g.Diffuse(FieldEnergy, 0.06, 0.04)
		}
		assert.InDelta(t, 6.5, g.Sum(FieldEnergy), 1e-12, "%v", dims)
	}
}

func TestGridDecay(t *testing.T) {
	var f gridFormulas
	loadFormulas(t, "grid.json", &f)
	require.NotEmpty(t, f.Decay)
	for _, c := range f.Decay {
		t.Run(c.Name, func(t *testing.T) {
			g := newGrid(c.ThetaBins, c.PhiBins)
			for _, name := range fieldNames {
				require.Contains(t, c.Init, name)
				copy(g.Field(name), floatsOf(c.Init[name]))
			}
			for range c.Times {
				g.Decay(float64(c.Rate))
			}
			for _, name := range fieldNames {
				requireAllBits(t, floatsOf(c.Want[name]), g.Field(name), "%s", name)
			}
			// The bridge owns context energy: decay leaves it untouched.
			requireAllBits(t, floatsOf(c.Init[FieldContextEnergy]), g.Field(FieldContextEnergy), "context_energy")
		})
	}
}

func TestGridInject(t *testing.T) {
	var f gridFormulas
	loadFormulas(t, "grid.json", &f)
	require.NotEmpty(t, f.Inject)
	for _, c := range f.Inject {
		t.Run(c.Name, func(t *testing.T) {
			g := newGrid(c.ThetaBins, c.PhiBins)
			for _, inj := range c.Injections {
				g.Inject(inj.Port, float64(inj.Magnitude), inj.Theta, inj.Phi, inj.Field)
			}
			// Ports accumulate, in order of first injection.
			var keys []string
			for _, p := range c.Ports {
				keys = append(keys, p.Key)
				requireBits(t, p.Val, g.Port(p.Key), "port %q", p.Key)
			}
			assert.Equal(t, keys, g.ports.keys)
			for _, name := range fieldNames {
				requireAllBits(t, floatsOf(c.Fields[name]), g.Field(name), "%s", name)
			}
		})
	}
}

func TestGridZeroAndAt(t *testing.T) {
	g := newGrid(3, 4)
	g.Inject("a", 2, -1, 5, FieldContextEnergy)
	assert.Equal(t, 2.0, g.At(FieldContextEnergy, 2, 1))
	assert.Equal(t, 2.0, g.At(FieldContextEnergy, -4, -7))
	g.Zero(FieldContextEnergy)
	assert.Zero(t, g.Sum(FieldContextEnergy))
	assert.Equal(t, 2.0, g.Port("a"), "zeroing a field keeps the ports")
	assert.Nil(t, g.Field("nope"))
}

// executorFormulas is testdata/formulas/executor.json: Executor.run's
// coherence-based reward on small grids.
type executorFormulas struct {
	Cases []struct {
		ThetaBins       int    `json:"theta_bins"`
		PhiBins         int    `json:"phi_bins"`
		Energy          []hexf `json:"energy"`
		Theta           int    `json:"theta"`
		Phi             int    `json:"phi"`
		U               hexf   `json:"u"`
		C               hexf   `json:"c"`
		RewardScale     hexf   `json:"reward_scale"`
		CoherenceWeight hexf   `json:"coherence_weight"`
		UtilityWeight   hexf   `json:"utility_weight"`
		Reward          hexf   `json:"reward"`
		Cost            hexf   `json:"cost"`
	} `json:"cases"`
}

func TestExecutorReward(t *testing.T) {
	var f executorFormulas
	loadFormulas(t, "executor.json", &f)
	require.NotEmpty(t, f.Cases)
	for i, c := range f.Cases {
		t.Run(fmt.Sprintf("%d/%dx%d@%d,%d", i, c.ThetaBins, c.PhiBins, c.Theta, c.Phi), func(t *testing.T) {
			g := newGrid(c.ThetaBins, c.PhiBins)
			copy(g.Field(FieldEnergy), floatsOf(c.Energy))
			before := slices.Clone(g.Field(FieldEnergy))
			x := Executor{RewardScale: float64(c.RewardScale), CoherenceWeight: float64(c.CoherenceWeight),
				UtilityWeight: float64(c.UtilityWeight)}
			e := &Edge{Src: "a", Dst: "b", U: float64(c.U), C: float64(c.C)}
			reward, cost := x.run(g, e, c.Theta, c.Phi)
			requireBits(t, float64(c.Reward), reward, "reward")
			requireBits(t, float64(c.Cost), cost, "cost")
			assert.Equal(t, before, g.Field(FieldEnergy), "the executor only reads the grid")
		})
	}
	assert.Equal(t, Executor{RewardScale: 1.0, CoherenceWeight: 0.35, UtilityWeight: 0.65}, defaultExecutor())
}
