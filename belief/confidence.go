package belief

import (
	"math"
	"time"
)

// A Confidence is how much an observation is believed, with the components
// it is computed from (see the package doc for the formula), so that it can
// be explained.
type Confidence struct {
	Value         float64   // in [0, 1]
	Sources       float64   // 1 − 2^(−n/2) for n distinct supporting sources
	Diversity     float64   // 1 − 2^(−k) for k distinct kinds of supporting source
	Support       float64   // the supporting evidence's effective weight
	Contradiction float64   // the contradicting evidence's effective weight
	Recency       float64   // (1 + freshness of the last support) / 2
	Operator      float64   // 1 when the operator's latest word on it is support, else 0
	At            time.Time // when it was computed
}

// ComputeConfidence computes the confidence of an observation of a kind
// from its evidence, as of now:
//
//	Value = clamp(backed · balance · Recency, 0, 1)
//	backed  = base + (1 − base) · Operator / 2
//	base    = 0.6 · Sources + 0.4 · Diversity
//	balance = max(0, 1 − Contradiction / Support)   (0 without support)
//
// It changes nothing and reads no clock.
func ComputeConfidence(ev []Evidence, now time.Time, kind Kind) Confidence {
	c := Confidence{At: now.UTC()}
	sources, kinds := map[string]bool{}, map[string]bool{}
	var last, operatorAt time.Time
	for _, e := range ev {
		switch e.Stance {
		case Support:
			c.Support += e.effective()
			sources[e.Source], kinds[e.SourceKind] = true, true
			if e.At.After(last) {
				last = e.At
			}
		case Contradict:
			c.Contradiction += e.effective()
		default:
			continue
		}
		if e.By == Operator && !e.At.Before(operatorAt) {
			operatorAt, c.Operator = e.At, 0
			if e.Stance == Support {
				c.Operator = 1
			}
		}
	}
	if len(sources) > 0 {
		c.Sources = 1 - math.Exp2(-float64(len(sources))/2)
		c.Diversity = 1 - math.Exp2(-float64(len(kinds)))
		c.Recency = (1 + freshness(last, now, kind)) / 2
	}
	base := 0.6*c.Sources + 0.4*c.Diversity
	backed := base + (1-base)*c.Operator/2
	balance := 0.0
	if c.Support > 0 {
		balance = max(0, 1-c.Contradiction/c.Support)
	}
	c.Value = min(max(backed*balance*c.Recency, 0), 1)
	return c
}

// Outweighed reports whether contradiction outweighs support: there is
// contradicting evidence and it weighs at least as much as the support.
// An observation it holds for is invalidated.
func (c Confidence) Outweighed() bool { return c.Contradiction > 0 && c.Contradiction >= c.Support }
