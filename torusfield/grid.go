package torusfield

// Field names of the grid, in the reference's order. Decay visits fields in
// this order and the state file lists them in it.
const (
	FieldEnergy        = "energy"
	FieldMemory        = "memory"
	FieldSalience      = "salience"
	FieldContextEnergy = "context_energy"
)

var fieldNames = [...]string{FieldEnergy, FieldMemory, FieldSalience, FieldContextEnergy}

// A Grid is the torus: named fields of ThetaBins×PhiBins cells that wrap
// around in both directions, the ports that record injected energy, and the
// step counter T.
type Grid struct {
	ThetaBins, PhiBins int
	T                  int

	fields  [len(fieldNames)][]float64
	scratch []float64 // diffusion output, swapped with the field it diffuses
	ports   *ordered[string]
}

func newGrid(thetaBins, phiBins int) *Grid {
	g := &Grid{ThetaBins: thetaBins, PhiBins: phiBins, ports: newOrdered[string]()}
	size := thetaBins * phiBins
	for i := range g.fields {
		g.fields[i] = make([]float64, size)
	}
	g.scratch = make([]float64, size)
	return g
}

// Size is the number of cells of each field.
func (g *Grid) Size() int { return g.ThetaBins * g.PhiBins }

// Index maps (θ, φ) to a cell, wrapping negative and overflowing
// coordinates the way Python's % does.
func (g *Grid) Index(theta, phi int) int {
	return floorMod(theta, g.ThetaBins)*g.PhiBins + floorMod(phi, g.PhiBins)
}

func floorMod(a, n int) int {
	m := a % n
	if m < 0 {
		m += n
	}
	return m
}

// Field returns the cells of a field (nil for an unknown name). The slice is
// the grid's own: diffusion replaces it, so do not keep it across calls.
func (g *Grid) Field(name string) []float64 {
	if i := fieldIndex(name); i >= 0 {
		return g.fields[i]
	}
	return nil
}

func fieldIndex(name string) int {
	for i, n := range fieldNames {
		if n == name {
			return i
		}
	}
	return -1
}

// At returns the value of a field at (θ, φ).
func (g *Grid) At(name string, theta, phi int) float64 {
	return g.Field(name)[g.Index(theta, phi)]
}

// Port returns the total magnitude injected through a port.
func (g *Grid) Port(name string) float64 {
	v, _ := g.ports.Get(name)
	return v
}

// Inject adds magnitude to a field at (θ, φ) and records it on the port.
func (g *Grid) Inject(port string, magnitude float64, theta, phi int, field string) {
	g.ports.Add(port, magnitude)
	f := g.Field(field)
	i := g.Index(theta, phi)
	f[i] = f[i] + magnitude
}

// Diffuse mixes every cell of a field with its four neighbours:
//
//	v' = (1-θmix-φmix)·v + θmix/2·(up+down) + φmix/2·(left+right)
//
// evaluated in that order, as the reference does.
func (g *Grid) Diffuse(field string, thetaMix, phiMix float64) {
	fi := fieldIndex(field)
	arr, out := g.fields[fi], g.scratch
	T, P := g.ThetaBins, g.PhiBins
	self := 1 - thetaMix - phiMix
	tm, pm := thetaMix/2, phiMix/2
	for th := 0; th < T; th++ {
		// Whole rows as slices of length P: the loop below needs no bounds
		// checks and no modulo but at the ends of a row.
		cur, dst := arr[th*P:][:P], out[th*P:][:P]
		up := arr[floorMod(th+1, T)*P:][:P]
		down := arr[floorMod(th-1, T)*P:][:P]
		for ph := range P {
			right, left := ph+1, ph-1
			if right == P {
				right = 0
			}
			if left < 0 {
				left = P - 1
			}
			// The float64 conversions keep the compiler from fusing
			// multiply-adds, which would change the last bit.
			dst[ph] = float64(float64(self*cur[ph])+float64(tm*(up[ph]+down[ph]))) +
				float64(pm*(cur[right]+cur[left]))
		}
	}
	g.fields[fi], g.scratch = out, arr
}

// Decay multiplies every field but context_energy by rate. The bridge
// manages context energy itself, so decay leaves it alone.
func (g *Grid) Decay(rate float64) {
	for i, name := range fieldNames {
		if name == FieldContextEnergy {
			continue
		}
		f := g.fields[i]
		for j := range f {
			f[j] = f[j] * rate
		}
	}
}

// Zero resets a field to zeros.
func (g *Grid) Zero(field string) {
	clear(g.Field(field))
}

// Sum returns the sum of a field's cells, added left to right.
func (g *Grid) Sum(field string) float64 {
	s := 0.0
	for _, v := range g.Field(field) {
		s += v
	}
	return s
}
