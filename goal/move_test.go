package goal

import (
	"errors"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

func move(verb string) Move {
	for _, m := range Moves {
		if m.Verb == verb {
			return m
		}
	}
	panic(verb)
}

func TestMove(t *testing.T) {
	const now = "2026-01-02T03:04:05Z"
	cases := []struct {
		verb, from, to, closed string
		code                   string // the refusal's, or ""
	}{
		{"done", Active, Completed, now, ""},
		{"done", Suspended, Completed, now, ""},
		{"done", Failed, Failed, "then", fault.CodeInvalidState},
		{"fail", Active, Failed, now, ""},
		{"suspend", Active, Suspended, "", ""},
		{"suspend", Suspended, Suspended, "", fault.CodeInvalidState},
		{"resume", Suspended, Active, "", ""},
		{"retry", Failed, Active, "", ""},
		{"retry", Active, Active, "", fault.CodeInvalidState},
	}
	for _, tc := range cases {
		t.Run(tc.verb+" "+tc.from, func(t *testing.T) {
			closed := ""
			if tc.from == Failed {
				closed = "then"
			}
			g := &Goal{ID: "g1", State: tc.from, RetryBudget: 2, Closed: closed}
			gb := &Book{Open: []*Goal{g}}
			got, from, err := gb.Move("g1", move(tc.verb), "why", now)
			if tc.code != "" {
				var fe *fault.Error
				require.True(t, errors.As(err, &fe))
				assert.Equal(t, tc.code, fe.Code)
				assert.Equal(t, tc.from, g.State, "a refused move leaves the goal")
				return
			}
			require.NoError(t, err)
			assert.Same(t, g, got)
			assert.Equal(t, tc.from, from)
			assert.Equal(t, tc.to, g.State)
			assert.Equal(t, tc.closed, g.Closed)
			assert.Equal(t, "why", g.Note)
			assert.Equal(t, tc.to == Completed, len(gb.Closed) == 1, "a completed goal is settled")
			if tc.verb == "retry" {
				assert.Equal(t, int64(1), g.Retries)
				assert.Equal(t, int64(2), g.RetriesLeft)
			}
		})
	}
	_, _, err := (&Book{}).Move("g9", move("done"), "", now)
	var fe *fault.Error
	require.True(t, errors.As(err, &fe))
	assert.Equal(t, fault.CodeUnknownGoal, fe.Code)
	assert.Equal(t, "a or b", joinOr([]string{"a", "b"}))
	assert.Equal(t, "a, b or c", joinOr([]string{"a", "b", "c"}))
}

func TestAttribute(t *testing.T) {
	gb := &Book{Open: []*Goal{{ID: "g1", State: Active, Criterion: CriterionCount, Target: 1}, {ID: "g2", State: Suspended}}}
	out, warning, err := gb.Attribute("g1", 4, "run", "success", 0.9, "now")
	require.NoError(t, err)
	assert.Empty(t, warning)
	assert.Equal(t, "completed", out.StrOf("changed"))
	assert.Len(t, gb.Closed, 1, "the completed goal is settled")
	_, warning, err = gb.Attribute("g2", 5, "run", "failure", 1, "now")
	require.NoError(t, err)
	assert.Contains(t, warning, "is suspended")
	_, _, err = gb.Attribute("g3", 5, "run", "failure", 1, "now")
	assert.Error(t, err)
	assert.Equal(t, "g7", (&Book{}).Replayed("", 7), "an event from before ids were recorded")
	replayed := &Book{}
	assert.Equal(t, "g3", replayed.Replayed("g3", 9))
	assert.Equal(t, "g4", replayed.NextID())
}

func TestListed(t *testing.T) {
	state := []byte(`{"t": 1, "goals": {"closed": [{"id": "g1"}], "open": [{"id": "g2"}]}}`)
	assert.True(t, Listed(state, "g1"))
	assert.True(t, Listed(state, "g2"))
	assert.False(t, Listed(state, "g3"))
}

func TestRequest(t *testing.T) {
	one, zero, half, over := int64(1), int64(0), 0.5, 1.5
	cases := []struct {
		name string
		r    Request
		ok   bool
	}{
		{"by default", Request{Retries: 2}, true},
		{"a count", Request{Count: &one}, true},
		{"a threshold", Request{Threshold: &half}, true},
		{"both", Request{Count: &one, Threshold: &half}, false},
		{"a count of 0", Request{Count: &zero}, false},
		{"a threshold above 1", Request{Threshold: &over}, false},
		{"negative retries", Request{Retries: -1}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.r.Check()
			if tc.ok {
				assert.NoError(t, err)
				return
			}
			var fe *fault.Error
			require.True(t, errors.As(err, &fe))
			assert.Equal(t, fault.CodeInvalidValue, fe.Code)
		})
	}
	gb := &Book{}
	g, err := gb.New("g1", Request{Content: "x", Threshold: &half, Retries: 2}, "now")
	require.NoError(t, err)
	assert.Equal(t, &Goal{ID: "g1", Content: "x", Criterion: CriterionThreshold, Target: 1, Confidence: 0.5,
		RetryBudget: 2, RetriesLeft: 2, State: Active, Created: "now"}, g)
	_, err = gb.New("g2", Request{Parent: "g9"}, "now")
	assert.Error(t, err, "a parent that is no goal")
	assert.Len(t, gb.Open, 1)
}

func TestList(t *testing.T) {
	gb := &Book{Open: []*Goal{{ID: "g1", State: Active}, {ID: "g2", State: Failed}}, Closed: []*Goal{{ID: "g3", State: Completed}}}
	ids := func(state string) []string {
		var out []string
		for _, v := range gb.List(state) {
			out = append(out, v.StrOf("id"))
		}
		return out
	}
	assert.Equal(t, []string{"g1", "g2"}, ids("open"))
	assert.Equal(t, []string{"g1", "g2", "g3"}, ids("all"))
	assert.Equal(t, []string{"g3"}, ids(Completed))
	assert.Equal(t, []string{"g2"}, ids(Failed))
	assert.Empty(t, gb.List(Suspended))
}

// A state file with a repeated member lists the goals its parser (pyjson)
// reads: the last member counts, at every level.
func TestListedRepeatedKeyAsTheStateParser(t *testing.T) {
	state := []byte(`{"goals": {"open": [{"id": "g1"}]}, "t": 1, "goals": {"open": [{"id": "g2"}], "closed": [{"id": "g8", "id": "g9"}], "open": [{"id": "g3"}]}}`)
	doc, err := pyjson.Parse(state)
	require.NoError(t, err)
	goals, _ := doc.Get(Member)
	var want []string
	for _, part := range []string{"open", "closed"} {
		list, _ := goals.Get(part)
		for _, g := range list.Items() {
			want = append(want, g.StrOf("id"))
		}
	}
	assert.Equal(t, []string{"g3", "g9"}, want)
	for _, id := range []string{"g1", "g2", "g3", "g8", "g9"} {
		assert.Equal(t, slices.Contains(want, id), Listed(state, id), id)
	}
}

// TestCreate: a goal add numbers its goal on from the book's highest id; a
// replay gives the id its event recorded, or, for an event from before ids
// were recorded, the event's number.
func TestCreate(t *testing.T) {
	cases := []struct {
		name     string
		replay   bool
		recorded string
		want     string
	}{
		{"new", false, "g40", "g3"},
		{"replay", true, "g40", "g40"},
		{"replay of an event without an id", true, "", "g9"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			gb := &Book{Open: []*Goal{{ID: "g2", State: Active}}}
			g, err := gb.Create(Request{Content: "ship it", Retries: 2}, tc.replay, tc.recorded, 9, "now")
			require.NoError(t, err)
			assert.Equal(t, tc.want, g.ID)
			assert.Same(t, g, gb.Find(tc.want))
		})
	}
	_, err := (&Book{}).Create(Request{Content: "x", Parent: "g1"}, false, "", 1, "now")
	assert.Error(t, err, "its parent must be a goal")
}
