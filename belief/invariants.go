package belief

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// Check verifies the book's invariants and returns every violation, each
// naming the observation (nil when there is none):
//
//   - observations derive from raw records only: every observation has
//     supporting evidence, and no evidence cites an observation (every
//     Source is a raw record's non-empty content id);
//   - the only link between observations is supersession, and it is
//     symmetric: A.SupersededBy = B exactly when B.Supersedes = A, both of
//     the same key, A created first; superseded is the status of exactly
//     the observations something superseded;
//   - truth is never rewritten in place: an observation's id is recomputed
//     from its key, claim and creation, and must match;
//   - at most one observation per key is believed (active or stale);
//   - contradicting evidence is kept: an invalidated observation holds the
//     evidence that invalidated it (contradiction that outweighs support,
//     or the retirement named by Retired), and a superseded one the
//     evidence that replaced it;
//   - its stored confidence is the one its evidence gives, and
//     LastSupported is the time of its latest support.
func (b *Book) Check() []error {
	var errs []error
	seen := map[string]*Observation{}
	believed := map[Key]string{}
	seqs := map[Key]int{} // observations of each key so far
	for i, o := range b.obs {
		fail := func(format string, args ...any) {
			errs = append(errs, fmt.Errorf("belief: observation %d (%s): "+format, append([]any{i, o.ID}, args...)...))
		}
		if _, dup := seen[o.ID]; dup {
			fail("its id is taken by an earlier observation")
		}
		if err := checkKey(o.Key); err != nil {
			fail("%v", err)
		}
		if err := checkClaim(o.Claim); err != nil || o.Claim != strings.TrimSpace(o.Claim) {
			fail("a claim is trimmed valid UTF-8 of 1 to %d bytes", MaxText)
		}
		if id := observationID(o, seqs[o.Key]); o.ID != id {
			fail("its id does not match its key, claim and creation (want %s): a claim is never rewritten", id)
		}
		if b.byID[o.ID] != o {
			fail("the book's index does not hold it")
		}
		if o.Created.IsZero() {
			fail("no creation time")
		}
		b.checkLinks(o, seen, fail)
		if o.Status.Current() {
			if prev, ok := believed[o.Key]; ok {
				fail("%s is believed too: at most one observation per key is", prev)
			}
			believed[o.Key] = o.ID
			if b.current[o.Key] != o {
				fail("the book's index of believed observations does not hold it")
			}
		}
		checkEvidence(o, fail)
		seen[o.ID] = o
		seqs[o.Key]++
	}
	for k, o := range b.current {
		if believed[k] != o.ID {
			errs = append(errs, fmt.Errorf("belief: %s is indexed as believed under %s but is not", o.ID, k))
		}
	}
	return errs
}

// checkLinks checks an observation's supersession links and status; seen
// holds the observations created before it.
func (b *Book) checkLinks(o *Observation, seen map[string]*Observation, fail func(string, ...any)) {
	if !o.Status.Valid() {
		fail("status %q is none of active, stale, superseded, invalidated", o.Status)
	}
	if (o.Status == Superseded) != (o.SupersededBy != "") {
		fail("status %s with superseded_by %q: superseded is the status of what was superseded", o.Status, o.SupersededBy)
	}
	if s := o.Supersedes; s != "" {
		p := b.byID[s]
		switch {
		case p == nil:
			fail("supersedes %s, which the book does not hold", s)
		case p.SupersededBy != o.ID:
			fail("supersedes %s, which is not superseded by it", s)
		case p.Key != o.Key:
			fail("supersedes %s, of another key", s)
		case seen[s] != p:
			fail("supersedes %s, created after it", s)
		}
	}
	if s := o.SupersededBy; s != "" {
		if q := b.byID[s]; q == nil || q.Supersedes != o.ID {
			fail("superseded by %s, which does not supersede it", s)
		}
	}
	if o.Retired != "" && o.Status != Invalidated {
		fail("retired but %s", o.Status)
	}
}

// checkEvidence checks an observation's evidence and what is computed from
// it.
func checkEvidence(o *Observation, fail func(string, ...any)) {
	var last time.Time
	contradicted, retired := false, o.Retired == ""
	for j, e := range o.Evidence {
		if err := e.check(); err != nil {
			fail("evidence %d: %v", j, err)
		}
		switch e.Stance {
		case Support:
			if e.At.After(last) {
				last = e.At
			}
		case Contradict:
			contradicted = true
			retired = retired || e.Source == o.Retired
		}
	}
	switch {
	case last.IsZero():
		fail("no supporting evidence: an observation derives from raw records")
	case !o.LastSupported.Equal(last):
		fail("last supported %s, but its latest support is of %s", o.LastSupported.Format(time.RFC3339Nano), last.Format(time.RFC3339Nano))
	}
	if !retired {
		fail("retired by %s, which is none of its contradicting evidence", o.Retired)
	}
	c := ComputeConfidence(o.Evidence, o.Confidence.At, o.Key.Kind)
	switch {
	case o.Status == Superseded && !contradicted:
		fail("superseded without the evidence that replaced it")
	case o.Status == Invalidated && o.Retired == "" && !c.Outweighed():
		fail("invalidated, but its contradicting evidence does not outweigh its support")
	case o.Status.Current() && c.Outweighed():
		fail("believed, but contradiction outweighs support")
	}
	if !agree(c, o.Confidence) {
		fail("its confidence %+v is not what its evidence gives: %+v", o.Confidence, c)
	}
}

// agree reports whether two confidences agree, allowing for the rounding of
// another machine's floating point.
func agree(a, b Confidence) bool {
	near := func(x, y float64) bool { return math.Abs(x-y) <= 1e-9*max(1, math.Abs(x), math.Abs(y)) }
	return a.At.Equal(b.At) && near(a.Value, b.Value) && near(a.Sources, b.Sources) && near(a.Diversity, b.Diversity) &&
		near(a.Support, b.Support) && near(a.Contradiction, b.Contradiction) && near(a.Recency, b.Recency) && near(a.Operator, b.Operator)
}
