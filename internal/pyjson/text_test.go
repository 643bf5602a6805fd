package pyjson

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestPrefix(t *testing.T) {
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
		{"日本語", 1, "日"},
	} {
		assert.Equal(t, tc.want, Prefix(tc.s, tc.n), "Prefix(%q, %d)", tc.s, tc.n)
	}
}

func TestQuote(t *testing.T) {
	assert.Equal(t, `"a\"b\n"`, Quote("a\"b\n"))
	assert.Equal(t, `"é"`, Quote("é"))
}
