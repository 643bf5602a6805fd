package dashboard

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn"
)

func tr(from, to string, s, n float64) *learn.Transition {
	return &learn.Transition{From: from, To: to, S: s, N: n}
}

// NewFleet joins the shared workspaces' evidence fleet by fleet: sums,
// each workspace's share, the most evidence first; a private or unreadable
// workspace's evidence is no fleet's, and an unlearned transition counts
// for nothing.
func TestNewFleet(t *testing.T) {
	type want struct {
		fleet, from, to string
		s, n            float64
		sources         []Evidence
	}
	tests := []struct {
		name  string
		ws    []FleetWorkspace
		order []string // the workspaces' names, as shown
		want  []want
		total int
	}{
		{
			name: "two agents of one fleet",
			ws: []FleetWorkspace{
				{Name: "b", Fleet: "f", Learned: []*learn.Transition{tr("read", "exec", 1, 2)}},
				{Name: "a", Fleet: "f", Learned: []*learn.Transition{tr("read", "exec", 4, 4), tr("exec", "read", 0, 0)}},
			},
			order: []string{"a", "b"},
			want:  []want{{"f", "read", "exec", 5, 6, []Evidence{{"a", 4, 4}, {"b", 1, 2}}}},
			total: 1,
		},
		{
			name: "private and unreadable workspaces share no evidence",
			ws: []FleetWorkspace{
				{Name: "a", Fleet: "f", Learned: []*learn.Transition{tr("read", "exec", 1, 1)}},
				{Name: "p", Fleet: "f", Private: true, Learned: []*learn.Transition{tr("read", "exec", 0, 9)}},
				{Name: "x", Fleet: "f", Error: "damaged", Code: "workspace_corrupt", Learned: []*learn.Transition{tr("read", "exec", 9, 9)}},
			},
			order: []string{"a", "p", "x"},
			want:  []want{{"f", "read", "exec", 1, 1, []Evidence{{"a", 1, 1}}}},
			total: 1,
		},
		{
			name: "fleets apart, the most evidence first, ties by fleet then step",
			ws: []FleetWorkspace{
				{Name: "z", Fleet: "g", Learned: []*learn.Transition{tr("read", "exec", 2, 3)}},
				{Name: "a", Fleet: "f", Learned: []*learn.Transition{tr("read", "exec", 1, 3), tr("a", "b", 7, 8)}},
			},
			order: []string{"a", "z"},
			want: []want{
				{"f", "a", "b", 7, 8, []Evidence{{"a", 7, 8}}},
				{"f", "read", "exec", 1, 3, []Evidence{{"a", 1, 3}}},
				{"g", "read", "exec", 2, 3, []Evidence{{"z", 2, 3}}},
			},
			total: 3,
		},
		{name: "nothing learned", ws: []FleetWorkspace{{Name: "a"}}, order: []string{"a"}},
	}
	for _, tt := range tests {
		f := NewFleet(tt.ws)
		var names []string
		for _, w := range f.Workspaces {
			names = append(names, w.Name)
		}
		assert.Equal(t, tt.order, names, tt.name)
		assert.Equal(t, tt.total, f.TransitionsTotal, tt.name)
		require.Len(t, f.Transitions, len(tt.want), tt.name)
		for i, w := range tt.want {
			got := f.Transitions[i]
			assert.Equal(t, w, want{got.Fleet, got.From, got.To, got.S, got.N, got.Sources}, tt.name)
		}
	}
}

// The fleet's transitions are cut at FleetTransitions and counted whole;
// the answer is the same whatever order the workspaces come in.
func TestNewFleetBounded(t *testing.T) {
	var ws []FleetWorkspace
	for i := range 3 {
		w := FleetWorkspace{Name: string(rune('a' + i)), Fleet: "f"}
		for j := range 60 {
			w.Learned = append(w.Learned, tr("s", string(rune('A'+j)), 1, float64(1+j%7)))
		}
		ws = append(ws, w)
	}
	f := NewFleet(ws)
	assert.Len(t, f.Transitions, FleetTransitions)
	assert.Equal(t, 60, f.TransitionsTotal)
	reversed := []FleetWorkspace{ws[2], ws[1], ws[0]}
	g := NewFleet(reversed)
	assert.Equal(t, string(pyjson.AppendCompact(nil, f.Value())), string(pyjson.AppendCompact(nil, g.Value())))
}

// The table says what the answer says, in 80 columns: each workspace,
// private marked, an unreadable one with its code, and each transition
// with whose evidence it is.
func TestFleetTable(t *testing.T) {
	f := NewFleet([]FleetWorkspace{
		{Name: "agent-a", Fleet: "team", Model: "v4", Reports: 12, Methodology: 2, DeadEnds: 1, Observations: 3,
			Precision: pyjson.Obj(pyjson.KV("followed", pyjson.Obj(pyjson.KV("rate", 0.75))), pyjson.KV("not_followed", pyjson.Obj(pyjson.KV("rate", nil)))),
			Learned:   []*learn.Transition{tr("read", "exec", 4, 4)}},
		{Name: "agent-b", Fleet: "team", Model: "v4", Learned: []*learn.Transition{tr("read", "exec", 1.5, 2)}},
		{Name: "agent-c", Fleet: "team", Private: true, Model: "v5", Learned: []*learn.Transition{tr("read", "exec", 0, 3)}},
		{Name: "broken", Fleet: "team", Error: "the state does not parse", Code: "workspace_corrupt"},
	})
	table := FleetTable(f.Value())
	for _, l := range strings.Split(strings.TrimSuffix(table, "\n"), "\n") {
		assert.LessOrEqual(t, utf8.RuneCountInString(l), showWidth, l)
	}
	assert.Contains(t, table, "4 workspaces")
	assert.Regexp(t, `(?m)^agent-a +team +shared +v4 +12 +75%/- +2/1/0/3$`, table)
	assert.Regexp(t, `(?m)^agent-c +team +private +v5 `, table)
	assert.Regexp(t, `(?m)^broken +team +shared +unreadable \(workspace_corrupt\): the state`, table)
	assert.Regexp(t, `(?m)^team +read → exec +w 5\.5/6 92% +agent-a 4/4, agent-b w 1\.5/2$`, table)
	assert.NotContains(t, table, "agent-c 0/3", "a private workspace's evidence is its own")
	none := NewFleet(nil)
	empty := FleetTable(none.Value())
	assert.Contains(t, empty, "  none\n")
	assert.Contains(t, empty, "none yet")
}

// FuzzFleetTable feeds the fleet's table writer any JSON document in
// place of show --fleet's answer: it must never panic.
func FuzzFleetTable(f *testing.F) {
	fl := NewFleet([]FleetWorkspace{{Name: "a", Fleet: "f", Learned: []*learn.Transition{tr("read", "exec", 1, 2)}},
		{Name: "x", Error: "e", Code: "c"}})
	for _, seed := range []string{`{}`, `[]`, `null`, string(pyjson.AppendCompact(nil, fl.Value())),
		`{"workspaces":[{"name":1,"knowledge":[],"advisory_precision":{"followed":"x"}}],"fleet_transitions":[{"evidence":{"a":1}},3]}`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := pyjson.Parse(data)
		if err != nil {
			return
		}
		_ = FleetTable(v)
	})
}
