package policy

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCovers(t *testing.T) {
	cases := []struct {
		grant, need string
		want        bool
	}{
		// Domains and actions.
		{"*:*:*", "fs:write:/etc/passwd", true},
		{"*:*:*", "net:http:*", true},
		{"fs:*:*", "fs:delete:./x", true},
		{"fs:*:*", "net:http:get", false},
		{"*:read:*", "env:read:HOME", true},
		{"*:read:*", "fs:write:./x", false},
		{"fs:read:*", "fs:write:./x", false},
		{"fs:read:*", "fs:read:*", true},
		// Path scopes: the path and what is under it.
		{"fs:write:./src", "fs:write:./src", true},
		{"fs:write:./src", "fs:write:./src/a.go", true},
		{"fs:write:./src", "fs:write:src/deep/a.go", true},
		{"fs:write:./src", "fs:write:./src/", true},
		{"fs:write:./src", "fs:write:./srcx", false},
		{"fs:write:./src", "fs:write:./src/../etc", false},
		{"fs:write:./src", "fs:write:./src/../src/a.go", true},
		{"fs:write:./src", "fs:write:/src", false},
		{"fs:write:./src", "fs:write:*", false},
		{"fs:write:./src", "fs:write:.", false},
		{"fs:write:.", "fs:write:./anything/at/all", true},
		{"fs:write:.", "fs:write:../outside", false},
		{"fs:write:.", "fs:write:./a/../../outside", false},
		{"fs:read:/tmp", "fs:read:/tmp/x/y", true},
		{"fs:read:/tmp", "fs:read:/tmp/../etc/passwd", false},
		{"fs:read:/", "fs:read:/etc/passwd", true},
		{"fs:read:/", "fs:read:./rel", false},
		{"fs:read:/etc", "fs:read:/../etc/passwd", true},
		{"fs:read:~/notes", "fs:read:~/notes/a.md", true},
		{"fs:read:~/notes", "fs:read:~/notes/../.ssh/id_rsa", false},
		{"fs:read:~", "fs:read:~/../other/x", false},
		{"fs:read:~", "fs:read:./x", false},
		{"fs:read:../shared", "fs:read:../shared/x", true},
		// Path prefixes.
		{"fs:read:./src/*", "fs:read:./src/a.go", true},
		{"fs:read:./src/*", "fs:read:./src", false},
		{"fs:read:./src/*", "fs:read:./src/../etc", false},
		{"fs:read:./src/*", "fs:read:./src/*", true},
		{"fs:read:./src/*", "fs:read:./src/sub/*", true},
		{"fs:read:./src", "fs:read:./src/*", true},
		{"fs:read:./src/a*", "fs:read:./src/ab/c", true},
		{"fs:read:./src/a*", "fs:read:./src/b", false},
		{"fs:read:./src/a*", "fs:read:./src/a*", true},
		{"fs:read:./src/a*", "fs:read:./src/ab*", true},
		{"fs:read:./src/a*", "fs:read:./src/*", false},
		{"fs:read:./src/ab", "fs:read:./src/a*", false},
		{"fs:read:/tmp/ucs-*", "fs:read:/tmp/ucs-1/../../etc", false},
		{"fs:read:src*", "fs:read:src/../../etc", false},
		{"fs:read:./src/..*", "fs:read:./src/../etc", false},
		{"fs:read:.*", "fs:read:./.env", true},
		{"fs:read:.*", "fs:read:../x", false},
		{"vcs:write:./repo", "vcs:write:./repo/sub", true},
		// Other scopes: equality and prefixes.
		{"net:http:get", "net:http:get", true},
		{"net:http:get", "net:http:GET", true},
		{"net:http:get", "net:http:post", false},
		{"net:connect:API.example.com", "net:connect:api.example.com", true},
		{"net:dns:api.*", "net:dns:api.example.com", true},
		{"net:dns:api.*", "net:dns:web.example.com", false},
		{"net:dns:api.*", "net:dns:api.x.*", true},
		{"net:dns:api.x.*", "net:dns:api.*", false},
		{"env:read:HOME", "env:read:home", false},
		{"env:read:HOME", "env:read:HOME*", false},
		{"proc:exec:git*", "proc:exec:git-lfs", true},
		{"proc:exec:git*", "proc:exec:git/../../bin/sh", false},
		{"proc:exec:/usr/bin", "proc:exec:/usr/bin/git", true},
		{"secret:read:*", "secret:read:token", true},
		{"msg:send:#ops", "msg:send:#ops-private", false},
	}
	for _, tc := range cases {
		t.Run(tc.grant+" covers "+tc.need, func(t *testing.T) {
			g, n := MustParsePermission(tc.grant), MustParsePermission(tc.need)
			assert.Equal(t, tc.want, g.Covers(n))
			if tc.want {
				// What a grant covers, "*:*:*" covers too.
				assert.True(t, MustParsePermission("*:*:*").Covers(n))
			}
		})
	}
}

// TestCoversItself: every permission a capability may need is covered by a
// grant of itself, whatever its scope.
func TestCoversItself(t *testing.T) {
	for _, s := range []string{"fs:read:*", "fs:read:./a/../b", "fs:read:/", "fs:read:~", "fs:read:a*",
		"net:http:GET", "proc:exec:x/../y", "env:read:*", "fs:read:.*", "fs:read:~x/y*", "proc:exec:git/../x*"} {
		p := MustParsePermission(s)
		assert.True(t, p.Covers(p), s)
	}
}
