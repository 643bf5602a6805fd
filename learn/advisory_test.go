package learn

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestTally(t *testing.T) {
	var tl Tally
	_, ok := tl.Rate()
	assert.False(t, ok, "no outcome, no rate")
	tl.Add(1, 1)
	tl.Add(0.5, 2)
	tl.Add(0, 1)
	assert.Equal(t, Tally{Successes: 2, Outcomes: 4}, tl)
	r, ok := tl.Rate()
	assert.True(t, ok)
	assert.Equal(t, 0.5, r)
}

// Remember keeps the newest AdvisoriesKept, oldest first.
func TestRemember(t *testing.T) {
	s := NewState(New(DefaultParams))
	for i := range AdvisoriesKept + 3 {
		s.Remember(Advisory{ID: strconv.Itoa(i)})
	}
	assert.Len(t, s.Advisories, AdvisoriesKept)
	assert.Equal(t, "3", s.Advisories[0].ID)
	assert.Equal(t, strconv.Itoa(AdvisoriesKept+2), s.Advisories[AdvisoriesKept-1].ID)
}

func TestAdvice(t *testing.T) {
	s := NewState(New(DefaultParams))
	s.Remember(Advisory{ID: "a", Cursor: "read"})
	s.Remember(Advisory{ID: "b", Cursor: "edit"})
	s.Remember(Advisory{ID: "a", Cursor: "test"}) // ids are unique in practice; the newest wins
	for _, tc := range []struct {
		id, cursor string
		want       int
	}{
		{"b", "anywhere", 1}, // named: wherever the report is made
		{"a", "read", 2},     // the newest of that id
		{"zzz", "test", -1},  // a name that is no consult's: nothing, not the newest
		{"", "test", 2},      // unnamed: the newest, made at the cursor
		{"", "edit", -1},     // not the newest's cursor
		{"", "", -1},         // nor the empty one
	} {
		assert.Equal(t, tc.want, s.Advice(tc.id, tc.cursor), "%q at %q", tc.id, tc.cursor)
	}
	assert.Equal(t, -1, NewState(New(DefaultParams)).Advice("", "read"), "no advice")
}

// Attribute counts the outcome with the followed or the not-followed
// reports (a weightless one with neither) and forgets the advice.
func TestAttribute(t *testing.T) {
	for _, tc := range []struct {
		name, action string
		y, w         float64
		followed     bool
		want         [2]Tally // followed, not followed
	}{
		{"followed success", "test", 1, 1, true, [2]Tally{{1, 1}, {}}},
		{"followed partial, weighted", "test", 0.5, 2, true, [2]Tally{{1, 2}, {}}},
		{"not followed failure", "read", 0, 1, false, [2]Tally{{}, {0, 1}}},
		{"neutral", "test", 0, 0, true, [2]Tally{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewState(New(DefaultParams))
			s.Remember(Advisory{ID: "a", Top: "edit"})
			s.Remember(Advisory{ID: "b", Top: "test", Observations: []string{"o1"}})
			s.Remember(Advisory{ID: "c", Top: "read"})
			a, followed := s.Attribute(1, tc.action, tc.y, tc.w)
			assert.Equal(t, "b", a.ID)
			assert.Equal(t, []string{"o1"}, a.Observations)
			assert.Equal(t, tc.followed, followed)
			assert.Equal(t, tc.want, [2]Tally{s.Followed, s.NotFollowed})
			assert.Equal(t, []string{"a", "c"}, []string{s.Advisories[0].ID, s.Advisories[1].ID}, "attributed once")
		})
	}
}
