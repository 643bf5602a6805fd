package belief

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// randomBook runs steps random operations on a book, with inputs drawn
// from small pools so that keys, claims and sources meet, and calls after
// each one.
func randomBook(t testing.TB, seed uint64, steps int, after func(step int, b *Book)) *Book {
	r := rand.New(rand.NewPCG(seed, 18))
	keys := []Key{
		CanonicalKey(ToolingState, "capability:web_fetch", "pages"),
		CanonicalKey(SelfModel, Agent, "estimates"),
		CanonicalKey(ProjectState, "project:ucs", "release"),
		CanonicalKey(WorldFact, Global, "rate limits"),
	}
	claims := []string{"it holds", "it does not hold", "it holds sometimes"}
	stances := []Stance{Support, Support, Context, Contradict, ""}
	b, now := NewBook(), t0
	pick := func() string {
		all := b.Observations()
		if len(all) == 0 || r.IntN(10) == 0 {
			return "obs:0123456789abcdef"
		}
		return all[r.IntN(len(all))].ID
	}
	evidence := func(s Stance) Evidence {
		by := fmt.Sprint("agent-", r.IntN(2))
		if r.IntN(4) == 0 {
			by = Operator
		}
		kind := SourceKinds[r.IntN(len(SourceKinds))]
		return Evidence{
			Source: fmt.Sprint(kind, ":", r.IntN(12)), SourceKind: kind, Stance: s,
			Weight: []float64{0, 0.5, 1, 2}[r.IntN(4)], At: now.Add(-time.Duration(r.IntN(48)) * time.Hour), By: by,
		}
	}
	for step := range steps {
		now = now.Add(time.Duration(r.IntN(36)) * time.Hour)
		var err error
		switch op := r.IntN(10); {
		case op < 4:
			_, _, err = b.Observe(keys[r.IntN(len(keys))], claims[r.IntN(len(claims))], evidence(stances[r.IntN(len(stances))]), now)
		case op < 6:
			_, _, err = b.Contradict(pick(), evidence(Contradict), now)
		case op < 7:
			_, _, err = b.Confirm(pick(), evidence(Support), now)
		case op < 8:
			_, _, err = b.Supersede(pick(), claims[r.IntN(len(claims))], evidence(Support), now)
		case op < 9:
			_, _, err = b.Retire(pick(), []string{Operator, "agent-0"}[r.IntN(2)], "no longer", now)
		default:
			due := b.Revalidate(now)
			for k, os := range due {
				for _, o := range os {
					assert.Equal(t, k, o.Key.Kind)
					assert.Equal(t, Stale, o.Status)
				}
			}
		}
		if err != nil {
			require.ErrorIs(t, err, anyOf(err, ErrInvalid, ErrNotFound, ErrNotCurrent), "step %d", step)
		}
		after(step, b)
	}
	return b
}

// anyOf returns the one of targets err is, or nil.
func anyOf(err error, targets ...error) error {
	for _, target := range targets {
		if strings.Contains(err.Error(), target.Error()) {
			return target
		}
	}
	return nil
}

// Check passes after every operation of random sequences, and what the
// book answers agrees with what it holds.
func TestInvariantsHoldUnderRandomOperations(t *testing.T) {
	for seed := range uint64(20) {
		var claimsSeen map[string]string
		randomBook(t, seed, 300, func(step int, b *Book) {
			for _, err := range b.Check() {
				t.Fatalf("seed %d, step %d: %v", seed, step, err)
			}
			if claimsSeen == nil {
				claimsSeen = map[string]string{}
			}
			for _, o := range b.Observations() {
				if c, ok := claimsSeen[o.ID]; ok && c != o.Claim {
					t.Fatalf("seed %d, step %d: %s's claim changed", seed, step, o.ID)
				}
				claimsSeen[o.ID] = o.Claim
				assert.True(t, o.Confidence.Value >= 0 && o.Confidence.Value <= 1)
				if o.Status.Current() {
					assert.Same(t, o, b.Active(o.Key))
				} else {
					assert.NotSame(t, o, b.Active(o.Key))
				}
			}
		})
	}
}

// Evidence is only appended: what an observation held before an operation,
// it holds after, in the same order.
func TestEvidenceIsOnlyAppended(t *testing.T) {
	held := map[string][]Evidence{}
	randomBook(t, 7, 500, func(step int, b *Book) {
		for _, o := range b.Observations() {
			prev := held[o.ID]
			require.GreaterOrEqual(t, len(o.Evidence), len(prev))
			require.True(t, slices.Equal(prev, o.Evidence[:len(prev)]), "step %d: %s", step, o.ID)
			held[o.ID] = slices.Clone(o.Evidence)
		}
	})
}

// Check finds each kind of violation made by hand.
func TestCheckFindsViolations(t *testing.T) {
	type book struct {
		b                           *Book
		old, newer, invalid, retire *Observation
	}
	build := func() book {
		b := NewBook()
		k := CanonicalKey(ToolingState, "capability:web_fetch", "pages")
		old, _, err := b.Observe(k, "truncates", ev("r1", FromReflection, Support, "agent-1"), t0)
		require.NoError(t, err)
		newer, _, err := b.Observe(k, "streams", ev("r2", FromReflection, Support, "agent-1"), t0)
		require.NoError(t, err)
		invalid, _, err := b.Observe(CanonicalKey(SelfModel, Agent, "regex"), "good at it", ev("r3", FromReflection, Support, "agent-1"), t0)
		require.NoError(t, err)
		_, _, err = b.Contradict(invalid.ID, ev("x1", FromExec, Contradict, "agent-1"), t0)
		require.NoError(t, err)
		retire, _, err := b.Observe(CanonicalKey(WorldFact, Global, "x"), "x holds", ev("r4", FromReflection, Support, "agent-1"), t0)
		require.NoError(t, err)
		_, _, err = b.Retire(retire.ID, Operator, "wrong", t0)
		require.NoError(t, err)
		require.Empty(t, b.Check())
		return book{b, old, newer, invalid, retire}
	}
	drop := func(o *Observation, s Stance) {
		o.Evidence = slices.DeleteFunc(o.Evidence, func(e Evidence) bool { return e.Stance == s })
	}
	for _, tc := range []struct {
		name  string
		spoil func(x book)
		want  string
	}{
		{"evidence cites an observation", func(x book) { x.newer.Evidence[0].Source = x.old.ID }, "cites an observation"},
		{"evidence without a source", func(x book) { x.newer.Evidence[0].Source = "" }, "no source"},
		{"a one-way supersession", func(x book) { x.old.SupersededBy = "" }, "which is not superseded by it"},
		{"a link to nothing", func(x book) { x.newer.Supersedes = "obs:0000000000000000" }, "which the book does not hold"},
		{"a supersession by something else", func(x book) {
			x.old.SupersededBy = x.invalid.ID
		}, "which does not supersede it"},
		{"superseded without a successor", func(x book) { x.invalid.Status = Superseded }, "superseded is the status of what was superseded"},
		{"two believed under one key", func(x book) {
			x.b.current = map[Key]*Observation{}
			x.old.Status, x.old.SupersededBy, x.newer.Supersedes = Active, "", ""
			x.b.current[x.newer.Key] = x.newer
		}, "at most one observation per key"},
		{"a claim rewritten in place", func(x book) { x.newer.Claim = "streams, mostly" }, "a claim is never rewritten"},
		{"the contradiction that invalidated it dropped", func(x book) { drop(x.invalid, Contradict) }, "does not outweigh its support"},
		{"the evidence that replaced it dropped", func(x book) { drop(x.old, Contradict) }, "superseded without the evidence that replaced it"},
		{"the retirement dropped", func(x book) { drop(x.retire, Contradict) }, "which is none of its contradicting evidence"},
		{"no support", func(x book) { drop(x.newer, Support) }, "no supporting evidence"},
		{"a confidence made up", func(x book) { x.newer.Confidence.Value = 0.99 }, "is not what its evidence gives"},
		{"last supported moved", func(x book) { x.newer.LastSupported = t0.Add(time.Hour) }, "last supported"},
		{"believed though outweighed", func(x book) {
			x.newer.Evidence = append(x.newer.Evidence, ev("x9", FromExec, Contradict, "agent-1"))
			x.newer.Confidence = ComputeConfidence(x.newer.Evidence, x.newer.Confidence.At, ToolingState)
		}, "believed, but contradiction outweighs support"},
		{"an unknown status", func(x book) { x.newer.Status = "doubted" }, "none of active"},
		{"a key not canonical", func(x book) { x.newer.Key.Slot = "Pages" }, "not canonical"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := build()
			tc.spoil(x)
			errs := b2s(x.b.Check())
			assert.Contains(t, errs, tc.want)
			_, err := DecodeBook(x.b.AppendJSON(nil))
			assert.Error(t, err, "a stored book that breaks an invariant is refused")
		})
	}
}

func b2s(errs []error) string {
	var s []string
	for _, err := range errs {
		s = append(s, err.Error())
	}
	return strings.Join(s, "\n")
}
