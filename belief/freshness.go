package belief

import (
	"math"
	"time"
)

// StaleBelow is the freshness under which a current observation is stale:
// due for revalidation. Freshness is ½ after one cadence, so an
// observation is due once a cadence of its kind has passed without
// support.
const StaleBelow = 0.5

// Freshness is how recently an observation was supported, relative to its
// kind's cadence, in [0, 1]:
//
//	Freshness = 2^(−age / cadence),  age = now − LastSupported (0 if negative)
//
// It halves every cadence: 1 when just supported, ½ after 3 days for
// tooling state, after 90 for a world fact. It says nothing of how well
// the observation is supported (that is its Confidence): a belief can be
// well supported and stale, or fresh and weak.
func Freshness(o *Observation, now time.Time) float64 {
	return freshness(o.LastSupported, now, o.Key.Kind)
}

func freshness(last, now time.Time, kind Kind) float64 {
	age := max(now.Sub(last), 0)
	return math.Exp2(-float64(age) / float64(kind.Cadence()))
}

// DueAt is when an observation falls stale without new support: one
// cadence after it was last supported.
func DueAt(o *Observation) time.Time { return o.LastSupported.Add(o.Key.Kind.Cadence()) }
