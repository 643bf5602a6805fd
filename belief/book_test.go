package belief

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// checked fails the test when the book breaks an invariant.
func checked(t *testing.T, b *Book) {
	t.Helper()
	for _, err := range b.Check() {
		t.Error(err)
	}
}

// The scripted session, step by step: a supported observation
// superseded by a contradicting one, contradiction that invalidates,
// freshness that decays with the clock, and an operator's confirmation
// that outweighs two weak contradictions.
func TestLifecycle(t *testing.T) {
	b := NewBook()
	now := t0

	// A dead end about web_fetch: its tooling state, believed on one
	// reflection, then on a report too.
	fetchKey := DeriveKey("", "", "", "dead_end", []string{"web_fetch"}, nil, "fetching large pages")
	old, ch, err := b.Observe(fetchKey, "web_fetch truncates pages over 1 MB", ev("r1", FromReflection, Support, "agent-1"), now)
	require.NoError(t, err)
	assert.Equal(t, Change{ID: old.ID, Created: true, After: Active}, ch)
	assert.InDelta(t, 0.38, old.Confidence.Value, 0.01)
	checked(t, b)

	now = now.Add(time.Hour)
	_, ch, err = b.Observe(fetchKey, "web_fetch truncates pages over 1 MB", at(ev("p1", FromReport, Support, "agent-1"), now), now)
	require.NoError(t, err)
	assert.Equal(t, Change{ID: old.ID, Before: Active, After: Active}, ch)
	assert.InDelta(t, 0.6, old.Confidence.Value, 0.01) // two sources of two kinds
	assert.Equal(t, now, old.LastSupported)
	checked(t, b)

	// A retry of the same call changes nothing.
	_, ch, err = b.Observe(fetchKey, "web_fetch truncates pages over 1 MB", at(ev("p1", FromReport, Support, "agent-1"), now), now)
	require.NoError(t, err)
	assert.True(t, ch.Duplicate)
	assert.Len(t, old.Evidence, 2)

	// A later reflection says otherwise: a material change. The new claim
	// supersedes the old, which is kept, linked, and never believed again.
	now = now.Add(24 * time.Hour)
	newer, ch, err := b.Observe(fetchKey, "web_fetch streams pages of any size", at(ev("r2", FromReflection, Support, "agent-1"), now), now)
	require.NoError(t, err)
	assert.Equal(t, Change{ID: newer.ID, Created: true, Superseded: old.ID, After: Active}, ch)
	assert.Equal(t, Superseded, old.Status)
	assert.Equal(t, newer.ID, old.SupersededBy)
	assert.Equal(t, old.ID, newer.Supersedes)
	assert.Same(t, newer, b.Active(fetchKey))
	assert.Same(t, old, b.Get(old.ID))
	assert.Equal(t, "web_fetch truncates pages over 1 MB", old.Claim, "a claim is never rewritten")
	require.Len(t, old.Evidence, 3, "the old observation keeps its evidence and the one that replaced it")
	assert.Equal(t, Evidence{Source: "reflection:r2", SourceKind: FromReflection, Stance: Contradict, Weight: 1, At: now, By: "agent-1"}, old.Evidence[2])
	_, _, err = b.Confirm(old.ID, ev("c0", FromOperator, Support, Operator), now)
	assert.ErrorIs(t, err, ErrNotCurrent)
	checked(t, b)

	// Enough contradiction invalidates: a self model supported twice
	// survives one failed outcome, not a second.
	selfKey := DeriveKey("", "", "", "post_task", nil, []string{"regular expressions"}, "")
	self, _, err := b.Observe(selfKey, "I write correct regular expressions first time", at(ev("r3", FromReflection, Support, "agent-1"), now), now)
	require.NoError(t, err)
	_, _, err = b.Observe(selfKey, "I write correct regular expressions first time", at(ev("g1", FromRating, Support, "agent-1"), now), now)
	require.NoError(t, err)
	_, ch, err = b.Contradict(self.ID, at(ev("x1", FromExec, Contradict, "agent-1"), now), now)
	require.NoError(t, err)
	assert.Equal(t, Active, ch.After)
	weakened := self.Confidence.Value
	assert.Less(t, weakened, 0.5)
	_, ch, err = b.Contradict(self.ID, at(ev("x2", FromExec, Contradict, "agent-1"), now), now)
	require.NoError(t, err)
	assert.Equal(t, Change{ID: self.ID, Before: Active, After: Invalidated}, ch)
	assert.Nil(t, b.Active(selfKey))
	assert.Len(t, self.Evidence, 4, "contradicting evidence is kept")
	checked(t, b)

	// An operator's confirmation outweighs two weak contradictions; the
	// same contradictions invalidate an unconfirmed twin.
	prefKey := CanonicalKey(OperatorPreference, Global, "answer length")
	pref, _, err := b.Observe(prefKey, "the operator wants short answers", at(ev("r4", FromReflection, Support, "agent-1"), now), now)
	require.NoError(t, err)
	_, _, err = b.Confirm(pref.ID, Evidence{Source: "operator:c1", By: Operator, Note: "yes, short"}, now)
	require.NoError(t, err)
	assert.Equal(t, 1.0, pref.Confidence.Operator)
	for _, x := range []string{"x3", "x4"} {
		_, _, err = b.Contradict(pref.ID, at(ev(x, FromReport, Contradict, "agent-1"), now), now)
		require.NoError(t, err)
	}
	assert.Equal(t, Active, pref.Status)
	assert.InDelta(t, 0.4, pref.Confidence.Value, 1e-9)
	twinKey := CanonicalKey(OperatorPreference, Global, "tone")
	twin, _, err := b.Observe(twinKey, "the operator wants a formal tone", at(ev("r5", FromReflection, Support, "agent-1"), now), now)
	require.NoError(t, err)
	for _, x := range []string{"x5", "x6"} {
		_, _, _ = b.Contradict(twin.ID, at(ev(x, FromReport, Contradict, "agent-1"), now), now)
	}
	assert.Equal(t, Invalidated, twin.Status)
	checked(t, b)

	// Freshness decays with the clock. The tooling state (3 days) falls
	// due first, then the operator preference (30).
	assert.Equal(t, 1.0, Freshness(newer, now))
	assert.Empty(t, b.Due(now.Add(2*day)))
	assert.InDelta(t, 0.5, Freshness(newer, now.Add(3*day)), 1e-12)
	due := b.Revalidate(now.Add(4 * day))
	assert.Equal(t, map[Kind][]*Observation{ToolingState: {newer}}, due)
	assert.Equal(t, Stale, newer.Status)
	assert.Same(t, newer, b.Active(fetchKey), "a stale observation is still believed")
	assert.Equal(t, Active, pref.Status)
	assert.Equal(t, []*Observation{newer, pref}, b.Due(now.Add(31*day)))
	checked(t, b)

	// New support makes a stale observation active again.
	later := now.Add(5 * day)
	_, ch, err = b.Observe(fetchKey, "web_fetch streams pages of any size", at(ev("x7", FromExec, Support, "agent-1"), later), later)
	require.NoError(t, err)
	assert.Equal(t, Change{ID: newer.ID, Before: Stale, After: Active}, ch)
	assert.Empty(t, b.Due(later))
	checked(t, b)

	// The operator retires a belief, recorded as such.
	_, ch, err = b.Retire(pref.ID, Operator, "I changed my mind", later)
	require.NoError(t, err)
	assert.Equal(t, Change{ID: pref.ID, Before: Active, After: Invalidated}, ch)
	last := pref.Evidence[len(pref.Evidence)-1]
	assert.Equal(t, pref.Retired, last.Source)
	assert.Regexp(t, `^retire:[0-9a-f]{16}$`, last.Source)
	assert.Equal(t, Evidence{Source: last.Source, SourceKind: FromOperator, Stance: Contradict, Weight: 1, At: later, By: Operator, Note: "I changed my mind"}, last)
	assert.Nil(t, b.Active(prefKey))
	_, _, err = b.Retire(pref.ID, Operator, "again", later)
	assert.ErrorIs(t, err, ErrNotCurrent)
	checked(t, b)

	// A new claim under a retired key starts afresh, without a link.
	again, ch, err := b.Observe(prefKey, "the operator wants answers with examples", at(ev("r6", FromReflection, Support, "agent-1"), later), later)
	require.NoError(t, err)
	assert.Equal(t, Change{ID: again.ID, Created: true, After: Active}, ch)
	assert.Empty(t, again.Supersedes)
	checked(t, b)

	// Supersede says the same as Observe with a new claim.
	third, ch, err := b.Supersede(newer.ID, "web_fetch streams pages up to 50 MB", at(ev("p2", FromReport, Support, "agent-1"), later), later)
	require.NoError(t, err)
	assert.Equal(t, Change{ID: third.ID, Created: true, Superseded: newer.ID, After: Active}, ch)
	assert.Same(t, third, b.Active(fetchKey))
	assert.Len(t, b.Observations(), 7)
	checked(t, b)
}

// Bad input is refused with ErrInvalid (or ErrNotFound, ErrNotCurrent),
// and the book is left as it was.
func TestBookRefuses(t *testing.T) {
	key := CanonicalKey(ToolingState, "capability:web_fetch", "pages")
	good := ev("r1", FromReflection, Support, "agent-1")
	with := func(f func(*Evidence)) Evidence { e := good; f(&e); return e }
	setup := func() (*Book, *Observation, *Observation) {
		b := NewBook()
		o, _, err := b.Observe(key, "claim", good, t0)
		require.NoError(t, err)
		gone, _, err := b.Observe(CanonicalKey(SelfModel, Agent, "x"), "gone", good, t0)
		require.NoError(t, err)
		_, _, err = b.Retire(gone.ID, Operator, "", t0)
		require.NoError(t, err)
		return b, o, gone
	}
	for _, tc := range []struct {
		name string
		op   func(b *Book, o, gone *Observation) error
		want error
	}{
		{"an invalid kind", func(b *Book, _, _ *Observation) error {
			_, _, err := b.Observe(Key{"opinion", Global, "x"}, "c", good, t0)
			return err
		}, ErrInvalid},
		{"a key not canonical", func(b *Book, _, _ *Observation) error {
			_, _, err := b.Observe(Key{ToolingState, "Web Fetch", "pages"}, "c", good, t0)
			return err
		}, ErrInvalid},
		{"an empty claim", func(b *Book, _, _ *Observation) error { _, _, err := b.Observe(key, "  ", good, t0); return err }, ErrInvalid},
		{"evidence citing an observation", func(b *Book, o, _ *Observation) error {
			_, _, err := b.Observe(key, "claim", with(func(e *Evidence) { e.Source = o.ID }), t0)
			return err
		}, ErrInvalid},
		{"evidence without a source", func(b *Book, _, _ *Observation) error {
			_, _, err := b.Observe(key, "claim", with(func(e *Evidence) { e.Source = " " }), t0)
			return err
		}, ErrInvalid},
		{"an unknown source kind", func(b *Book, _, _ *Observation) error {
			_, _, err := b.Observe(key, "claim", with(func(e *Evidence) { e.SourceKind = "observation" }), t0)
			return err
		}, ErrInvalid},
		{"a negative weight", func(b *Book, _, _ *Observation) error {
			_, _, err := b.Observe(key, "claim", with(func(e *Evidence) { e.Weight = -1 }), t0)
			return err
		}, ErrInvalid},
		{"a weight over the maximum", func(b *Book, _, _ *Observation) error {
			_, _, err := b.Observe(key, "claim", with(func(e *Evidence) { e.Weight = MaxWeight + 1 }), t0)
			return err
		}, ErrInvalid},
		{"evidence from the future", func(b *Book, _, _ *Observation) error {
			_, _, err := b.Observe(key, "claim", with(func(e *Evidence) { e.At = t0.Add(time.Second) }), t0)
			return err
		}, ErrInvalid},
		{"evidence by no one", func(b *Book, _, _ *Observation) error {
			_, _, err := b.Observe(key, "claim", with(func(e *Evidence) { e.By = "" }), t0)
			return err
		}, ErrInvalid},
		{"a contradiction that names nothing", func(b *Book, _, _ *Observation) error {
			_, _, err := b.Observe(key, "claim", with(func(e *Evidence) { e.Stance = Contradict }), t0)
			return err
		}, ErrInvalid},
		{"context for a claim not believed", func(b *Book, _, _ *Observation) error {
			_, _, err := b.Observe(key, "another", with(func(e *Evidence) { e.Stance = Context; e.Source = "rating:n" }), t0)
			return err
		}, ErrInvalid},
		{"a confirmation that contradicts", func(b *Book, o, _ *Observation) error {
			_, _, err := b.Confirm(o.ID, with(func(e *Evidence) { e.Stance = Contradict }), t0)
			return err
		}, ErrInvalid},
		{"a supersession by the same claim", func(b *Book, o, _ *Observation) error {
			_, _, err := b.Supersede(o.ID, " claim ", with(func(e *Evidence) { e.Source = "report:p" }), t0)
			return err
		}, ErrInvalid},
		{"a supersession on contradicting evidence", func(b *Book, o, _ *Observation) error {
			_, _, err := b.Supersede(o.ID, "other", with(func(e *Evidence) { e.Stance = Contradict }), t0)
			return err
		}, ErrInvalid},
		{"a retirement by no one", func(b *Book, o, _ *Observation) error { _, _, err := b.Retire(o.ID, "", "", t0); return err }, ErrInvalid},
		{"an unknown id", func(b *Book, _, _ *Observation) error { _, _, err := b.Contradict("obs:0", good, t0); return err }, ErrNotFound},
		{"contradicting an invalidated observation", func(b *Book, _, gone *Observation) error {
			_, _, err := b.Contradict(gone.ID, with(func(e *Evidence) { e.Source = "exec:z" }), t0)
			return err
		}, ErrNotCurrent},
		{"superseding an invalidated observation", func(b *Book, _, gone *Observation) error {
			_, _, err := b.Supersede(gone.ID, "new", good, t0)
			return err
		}, ErrNotCurrent},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, o, gone := setup()
			before := b.AppendJSON(nil)
			assert.ErrorIs(t, tc.op(b, o, gone), tc.want)
			assert.Equal(t, string(before), string(b.AppendJSON(nil)), "the book is unchanged")
		})
	}
}

// The zero Book is ready to use.
func TestZeroBook(t *testing.T) {
	var b Book
	assert.Nil(t, b.Get("obs:0"))
	assert.Empty(t, b.Due(t0))
	assert.Empty(t, b.Revalidate(t0))
	_, _, err := b.Observe(CanonicalKey(WorldFact, "", "x"), "c", ev("r", FromReflection, Support, "a"), t0)
	require.NoError(t, err)
	checked(t, &b)
}
