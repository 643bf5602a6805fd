package realbench

import (
	"math/rand/v2"
	"slices"
)

// An Interval is a figure with its 95% bootstrap percentile interval.
type Interval struct {
	Mean float64 `json:"mean"`
	Lo   float64 `json:"lo"`
	Hi   float64 `json:"hi"`
}

// DefaultResamples and DefaultSeed make the bootstrap: the same stream gives
// the same intervals.
const (
	DefaultResamples = 2000
	DefaultSeed      = 27
)

// A resampler holds B bootstrap resamples of n episodes (each n indexes
// drawn with replacement from a seeded generator), so every method and
// every paired difference is computed on the same resamples.
type resampler struct {
	n    int
	idx  [][]int
	seed uint64
}

func newResampler(n, b int, seed uint64) *resampler {
	r := rand.New(rand.NewPCG(seed, 0x7265616c62656e63)) // "realbenc"
	rs := &resampler{n: n, seed: seed, idx: make([][]int, b)}
	for i := range rs.idx {
		rs.idx[i] = make([]int, n)
		for j := range rs.idx[i] {
			rs.idx[i][j] = r.IntN(n)
		}
	}
	return rs
}

// ratio is Σnum / Σden over the episodes (a micro-average: each step
// weighs the same), with the percentile interval of the same ratio over
// the resamples. A resample with no denominator is left out; with no
// denominator at all the figure is 0 [0, 0].
func (rs *resampler) ratio(num, den []float64) Interval {
	return rs.diff(num, nil, den)
}

// diff is ratio(a, den) − ratio(b, den) (b nil: zero) on the same
// resamples: the paired difference of two methods scored on the same
// steps.
func (rs *resampler) diff(a, b, den []float64) Interval {
	stat := func(pick func(yield func(int) bool)) (float64, bool) {
		var sa, sb, sd float64
		for i := range pick {
			sa += a[i]
			if b != nil {
				sb += b[i]
			}
			sd += den[i]
		}
		if sd == 0 {
			return 0, false
		}
		return (sa - sb) / sd, true
	}
	all := func(yield func(int) bool) {
		for i := range rs.n {
			if !yield(i) {
				return
			}
		}
	}
	mean, ok := stat(all)
	if !ok {
		return Interval{}
	}
	vals := make([]float64, 0, len(rs.idx))
	for _, idx := range rs.idx {
		if v, ok := stat(slices.Values(idx)); ok {
			vals = append(vals, v)
		}
	}
	slices.Sort(vals)
	return Interval{Mean: mean, Lo: quantile(vals, 0.025), Hi: quantile(vals, 0.975)}
}

// quantile is the p-quantile of sorted xs, interpolated between order
// statistics (the default of R and NumPy).
func quantile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	h := p * float64(len(xs)-1)
	i := int(h)
	if i+1 >= len(xs) {
		return xs[len(xs)-1]
	}
	return xs[i] + (h-float64(i))*(xs[i+1]-xs[i])
}
