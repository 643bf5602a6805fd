package suggest

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"abc", "", 3},
		{"outcom", "outcome", 1},
		{"permision", "permissions", 2},
		{"timeout", "timeout_ms", 3},
		{"kitten", "sitting", 3},
		{"héllo", "hello", 1}, // by rune, not byte
	} {
		assert.Equal(t, tc.want, Distance(tc.a, tc.b), "%q %q", tc.a, tc.b)
		assert.Equal(t, tc.want, Distance(tc.b, tc.a), "%q %q", tc.b, tc.a)
	}
}

func TestClosest(t *testing.T) {
	names := []string{"read", "reed", "write", "ready"}
	assert.Equal(t, []string{"read", "reed"}, Closest("read", names, 2))
	assert.Equal(t, []string{"read", "reed", "ready", "write"}, Closest("rea", names, 10))
	assert.Empty(t, Closest("x", nil, 3))
	assert.Empty(t, Closest("x", names, 0))
	assert.Empty(t, Closest("x", names, -1))
}

func TestNear(t *testing.T) {
	keys := []string{"name", "connects_to", "u", "c", "n", "meta", "permissions", "side_effect", "deterministic", "timeout_ms", "outcome"}
	for _, tc := range []struct{ name, want string }{
		{"permision", "permissions"},
		{"outcom", "outcome"},
		{"timeout", "timeout_ms"},
		{"Outcome", "outcome"},
		{"side_efect", "side_effect"},
		{"sideeffect", "side_effect"},
		{"connects", "connects_to"},
		{"deterministically", "deterministic"},
		{"x", "u"}, // within two edits of a one-letter key
		{"description", ""},
		{"zzzzzz", ""},
	} {
		assert.Equal(t, tc.want, Near(tc.name, keys), tc.name)
	}
	assert.Equal(t, "semantic_map", Near("semantic_mapp", []string{"capabilities", "semantic_map"}))
	assert.Equal(t, "", Near("x", nil))
}

func TestWithin2(t *testing.T) {
	flags := []string{"task", "context", "timeout_ms", "capabilities"}
	for _, tc := range []struct{ name, want string }{
		{"tsk", "task"},
		{"contxt", "context"},
		{"Task", "task"}, // case counts as an edit, unlike Near
		{"timeout", ""},  // three edits: no prefix rule, unlike Near
		{"capabilitiess", "capabilities"},
		{"zzzzzz", ""},
	} {
		assert.Equal(t, tc.want, Within2(tc.name, flags), tc.name)
	}
	assert.Equal(t, "", Within2("x", nil))
	assert.Equal(t, "ab", Within2("a", []string{"ab", "ac"}), "ties in the order of names")
}
