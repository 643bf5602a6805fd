package version

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestVersionOf: a release says MAJOR.MINOR.PATCH, any other build says
// more, and the module's release wins over the Makefile's stamp.
func TestVersionOf(t *testing.T) {
	for _, tc := range []struct {
		name, module, stamp, want string
	}{
		{"go install of a release", "v0.2.0", "", "0.2.0"},
		{"a release stamped by the Makefile", "", "v0.2.0", "0.2.0"},
		{"a module release wins over a stamp", "v0.2.0", "v0.2.0-1-gabc1234", "0.2.0"},
		{"go build of a tagged checkout", "(devel)", "v0.2.0", "0.2.0"},
		{"commits after a tag", "(devel)", "v0.1.0-3-gabc1234-dirty", "0.1.0-3-gabc1234-dirty"},
		{"a checkout with no tag", "(devel)", "abc1234-dirty", "0.0.0-devel+abc1234-dirty"},
		{"a stamp wins over a pseudo-version", "v0.0.0-20261127141957-af825c8abcde+dirty", "abc1234", "0.0.0-devel+abc1234"},
		{"go install of a commit", "v0.0.0-20261127141957-af825c8abcde", "", "0.0.0-20261127141957-af825c8abcde"},
		{"nothing known", "(devel)", "", "0.0.0-devel"},
		{"no build information", "", "", "0.0.0-devel"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, versionOf(tc.module, tc.stamp))
		})
	}
}

func TestIsRelease(t *testing.T) {
	for v, want := range map[string]bool{
		"v1.2.3": true, "1.2.3": true, "v10.20.30": true,
		"v1.2": false, "v1.2.3-rc1": false, "v1.2.3+dirty": false, "v1..3": false, "(devel)": false, "": false,
	} {
		assert.Equal(t, want, isRelease(v), v)
	}
}
