package phrase

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRunePrefix(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"", 3, ""},
		{"abc", 0, ""},
		{"abc", 2, "ab"},
		{"abc", 3, "abc"},
		{"abc", 9, "abc"},
		{"héllo", 2, "hé"},
		{"→→→", 1, "→"},
	} {
		assert.Equal(t, tc.want, RunePrefix(tc.s, tc.n), "%q %d", tc.s, tc.n)
	}
}
