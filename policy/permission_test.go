package policy

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParsePermission(t *testing.T) {
	good := []struct {
		in   string
		want Permission
	}{
		{"fs:read:*", Permission{"fs", "read", "*"}},
		{"fs:write:./src", Permission{"fs", "write", "./src"}},
		{"fs:delete:/tmp/x", Permission{"fs", "delete", "/tmp/x"}},
		{"fs:read:./src/*", Permission{"fs", "read", "./src/*"}},
		{"fs:read:~/notes", Permission{"fs", "read", "~/notes"}},
		{"net:http:get", Permission{"net", "http", "get"}},
		{"net:connect:api.example.com", Permission{"net", "connect", "api.example.com"}},
		{"net:dns:*.example.com", Permission{"net", "dns", "*.example.com"}},
		{"proc:exec:git", Permission{"proc", "exec", "git"}},
		{"proc:signal:*", Permission{"proc", "signal", "*"}},
		{"env:read:HOME", Permission{"env", "read", "HOME"}},
		{"secret:read:github_token", Permission{"secret", "read", "github_token"}},
		{"msg:send:#ops", Permission{"msg", "send", "#ops"}},
		{"vcs:write:.", Permission{"vcs", "write", "."}},
		{"*:*:*", Permission{"*", "*", "*"}},
		{"fs:*:./src", Permission{"fs", "*", "./src"}},
		{"*:read:*", Permission{"*", "read", "*"}},
		{"fs:read:café/ü", Permission{"fs", "read", "café/ü"}},
		{"fs:read:" + strings.Repeat("a", MaxPermissionLen-len("fs:read:")), Permission{"fs", "read", strings.Repeat("a", MaxPermissionLen-len("fs:read:"))}},
	}
	for _, tc := range good {
		t.Run(tc.in, func(t *testing.T) {
			p, err := ParsePermission(tc.in)
			require.NoError(t, err)
			assert.Equal(t, tc.want, p)
			assert.Equal(t, tc.in, p.String())
		})
	}
	bad := []struct{ in, err string }{
		{"", "got 1 part"},
		{"fs:read", "got 2 part"},
		{"fs:read:a:b", "got 4 part"},
		{"http://example.com", "got 2 part"},
		{":read:*", "domain is empty"},
		{"fs::*", "action is empty"},
		{"fs:read:", "scope is empty"},
		{"FS:read:*", `domain "FS" must be * or a lowercase name`},
		{"fs:Read:*", `action "Read" must be * or a lowercase name`},
		{"1fs:read:*", "lowercase name"},
		{"f-s:read:*", "lowercase name"},
		{"fs*:read:*", "lowercase name"},
		{" fs:read:*", "lowercase name"},
		{"fs:read:a b", "white space"},
		{"fs:read:a\tb", "white space"},
		{"fs:read:a\x00b", "control"},
		{"fs:read:a\u200bb", "unprintable"},
		{"fs:read:a\xffb", "UTF-8"},
		{"fs:read:./x\n", "white space"},
		{"disk:read:*", `unknown domain "disk" (known: *, env, fs, msg, net, proc, secret, vcs)`},
		{"fs:exec:*", `unknown action "exec" for domain "fs" (known: *, read, write, delete)`},
		{"net:get:*", `unknown action "get" for domain "net"`},
		{"*:fly:*", `unknown action "fly" (known: *, connect, delete, dns, exec, http, read, send, signal, write)`},
		{"fs:read:" + strings.Repeat("a", MaxPermissionLen-len("fs:read:")+1), "longer than 256 bytes"},
	}
	for _, tc := range bad {
		t.Run("bad/"+tc.in, func(t *testing.T) {
			_, err := ParsePermission(tc.in)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.err)
		})
	}
}

func TestDomainsSortedAndValid(t *testing.T) {
	for i, d := range Domains {
		if i > 0 {
			assert.Less(t, Domains[i-1].Name, d.Name, "Domains must be sorted by name")
		}
		assert.NotEmpty(t, d.Doc, d.Name)
		for _, a := range d.Actions {
			_, err := ParsePermission(d.Name + ":" + a + ":*")
			assert.NoError(t, err)
		}
	}
}

func TestMustParsePermissionPanics(t *testing.T) {
	assert.Equal(t, Permission{"fs", "read", "*"}, MustParsePermission("fs:read:*"))
	assert.Panics(t, func() { MustParsePermission("fs:read") })
}
