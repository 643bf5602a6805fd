package learnbench

import (
	"math"
)

// An Interval is a mean over seeds with its 95% confidence interval from
// Student's t distribution (n−1 degrees of freedom). With fewer than two
// values Lo and Hi are NaN.
type Interval struct {
	Mean, Lo, Hi float64
	N            int
}

// MeanCI returns the mean of xs and its 95% t interval, ignoring NaNs.
func MeanCI(xs []float64) Interval {
	var vals []float64
	for _, x := range xs {
		if !math.IsNaN(x) {
			vals = append(vals, x)
		}
	}
	n := len(vals)
	iv := Interval{Mean: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), N: n}
	if n == 0 {
		return iv
	}
	sum := 0.0
	for _, x := range vals {
		sum += x
	}
	iv.Mean = sum / float64(n)
	if n < 2 {
		return iv
	}
	ss := 0.0
	for _, x := range vals {
		ss += (x - iv.Mean) * (x - iv.Mean)
	}
	half := TQuantile(0.975, float64(n-1)) * math.Sqrt(ss/float64(n-1)) / math.Sqrt(float64(n))
	iv.Lo, iv.Hi = iv.Mean-half, iv.Mean+half
	return iv
}

// PairedDiff is the mean of a[i] − b[i] with its 95% t interval: the paired
// difference of two policies over the same seeds. Pairs with a NaN are
// left out.
func PairedDiff(a, b []float64) Interval {
	n := min(len(a), len(b))
	d := make([]float64, n)
	for i := range n {
		d[i] = a[i] - b[i]
	}
	return MeanCI(d)
}

// TQuantile is the p-quantile of Student's t distribution with df degrees
// of freedom (p in (0, 1)), by bisection on the distribution function.
func TQuantile(p, df float64) float64 {
	if p == 0.5 {
		return 0
	}
	if p < 0.5 {
		return -TQuantile(1-p, df)
	}
	lo, hi := 0.0, 1.0
	for tCDF(hi, df) < p {
		hi *= 2
	}
	for range 200 {
		mid := (lo + hi) / 2
		if tCDF(mid, df) < p {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// tCDF is P(T ≤ t) for t ≥ 0: 1 − I_{df/(df+t²)}(df/2, 1/2) / 2.
func tCDF(t, df float64) float64 {
	return 1 - 0.5*regIncBeta(df/2, 0.5, df/(df+t*t))
}

// regIncBeta is the regularized incomplete beta function I_x(a, b), by its
// continued fraction (Numerical Recipes, betacf).
func regIncBeta(a, b, x float64) float64 {
	if x <= 0 {
		return 0
	}
	if x >= 1 {
		return 1
	}
	la, _ := math.Lgamma(a)
	lb, _ := math.Lgamma(b)
	lab, _ := math.Lgamma(a + b)
	front := math.Exp(lab - la - lb + a*math.Log(x) + b*math.Log(1-x))
	if x < (a+1)/(a+b+2) {
		return front * betaCF(a, b, x) / a
	}
	return 1 - front*betaCF(b, a, 1-x)/b
}

func betaCF(a, b, x float64) float64 {
	const tiny = 1e-300
	qab, qap, qam := a+b, a+1, a-1
	c, d := 1.0, 1-qab*x/qap
	if math.Abs(d) < tiny {
		d = tiny
	}
	d = 1 / d
	h := d
	for m := 1; m <= 300; m++ {
		fm := float64(m)
		aa := fm * (b - fm) * x / ((qam + 2*fm) * (a + 2*fm))
		d = 1 + aa*d
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = 1 + aa/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		h *= d * c
		aa = -(a + fm) * (qab + fm) * x / ((a + 2*fm) * (qap + 2*fm))
		d = 1 + aa*d
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = 1 + aa/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		del := d * c
		h *= del
		if math.Abs(del-1) < 1e-15 {
			break
		}
	}
	return h
}
