package pgstore

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// nameRule is the rule validName implements, as the regular expression it
// replaced.
var nameRule = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`)

func TestValidName(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"agent-a", true},
		{"A.b_c-9", true},
		{"0", true},
		{strings.Repeat("a", 128), true},
		{strings.Repeat("a", 129), false},
		{"", false},
		{"-a", false},
		{".a", false},
		{"_a", false},
		{"a b", false},
		{"a/b", false},
		{"../a", false},
		{"é", false},
		{"a\n", false},
		{"a\x00", false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, validName(tt.name), "%q", tt.name)
		assert.Equal(t, nameRule.MatchString(tt.name), validName(tt.name), "%q", tt.name)
	}
}

// FuzzValidName: validName accepts exactly the names the regular
// expression did.
func FuzzValidName(f *testing.F) {
	for _, s := range []string{"agent-a", "", "-a", strings.Repeat("z", 128), strings.Repeat("z", 129), "a\n", "ü"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if got, want := validName(name), nameRule.MatchString(name); got != want {
			t.Fatalf("validName(%q) = %v, the rule says %v", name, got, want)
		}
	})
}
