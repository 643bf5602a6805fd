package replay_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/replay"
)

func parse(t *testing.T, s string) pyjson.Value {
	t.Helper()
	v, err := pyjson.Parse([]byte(s))
	require.NoError(t, err)
	return v
}

func TestCompare(t *testing.T) {
	rules := replay.Rules{Tolerance: 1e-4, Ignore: []string{"timestamp", "hits.id"}, Unordered: []string{"keywords"},
		Added: []string{"total", "status.since"}}
	cases := []struct {
		name, got, want string
		paths           []string
	}{
		{"equal", `{"a": 1, "b": [1.0, "x"]}`, `{"b": [1, "x"], "a": 1.0}`, nil},
		{"within tolerance", `{"a": 0.50004}`, `{"a": 0.5}`, nil},
		{"beyond tolerance", `{"a": 0.5002}`, `{"a": 0.5}`, []string{"a"}},
		{"nested number", `{"p": [{"s": 1.0}, {"s": 2.0}]}`, `{"p": [{"s": 1.0}, {"s": 2.1}]}`, []string{"p[1].s"}},
		{"order matters", `{"p": ["a", "b"]}`, `{"p": ["b", "a"]}`, []string{"p[0]", "p[1]"}},
		{"unordered keywords", `{"keywords": ["a", "b"]}`, `{"keywords": ["b", "a"]}`, nil},
		{"missing key", `{}`, `{"a": 1}`, []string{"a"}},
		{"extra key", `{"a": 1, "b": 2}`, `{"a": 1}`, []string{"b"}},
		{"added key", `{"a": 1, "total": 33}`, `{"a": 1}`, nil},
		{"added key and an unlisted one", `{"a": 1, "total": 33, "totals": 2}`, `{"a": 1}`, []string{"totals"}},
		{"added key compared where expected", `{"total": 33}`, `{"total": 34}`, []string{"total"}},
		{"added under parent only", `{"status": {"since": 1}, "x": {"since": 1}}`, `{"status": {}, "x": {}}`, []string{"x.since"}},
		{"ignored everywhere", `{"x": {"timestamp": "1"}}`, `{"x": {"timestamp": "2"}}`, nil},
		{"ignored under parent only", `{"hits": [{"id": "a"}], "art": [{"id": "a"}]}`, `{"hits": [{"id": "b"}], "art": [{"id": "b"}]}`, []string{"art[0].id"}},
		{"length", `{"p": [1]}`, `{"p": [1, 2]}`, []string{"p"}},
		{"type", `{"a": "1"}`, `{"a": 1}`, []string{"a"}},
		{"null vs value", `{"a": null}`, `{"a": "text"}`, []string{"a"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var paths []string
			for _, d := range replay.Compare(parse(t, c.got), parse(t, c.want), rules) {
				paths = append(paths, d.Path)
			}
			assert.Equal(t, c.paths, paths)
		})
	}
}

// TestAddedKeysAreListed: the default rules let an output hold the keys ucs
// adds to the reference's, and no other.
func TestAddedKeysAreListed(t *testing.T) {
	want := `{"status": "ok", "report_counter": 3}`
	assert.Empty(t, replay.Compare(parse(t, `{"status": "ok", "report_counter": 3, "reports_total": 33}`), parse(t, want), replay.DefaultRules))
	assert.Equal(t, []replay.Diff{{Path: "reports_count", Got: "33", Want: "(missing)"}},
		replay.Compare(parse(t, `{"status": "ok", "report_counter": 3, "reports_count": 33}`), parse(t, want), replay.DefaultRules))
	assert.Equal(t, []replay.Diff{{Path: "report_counter", Got: "(missing)", Want: "3"}},
		replay.Compare(parse(t, `{"status": "ok", "reports_total": 33}`), parse(t, want), replay.DefaultRules))
}
