package policy

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCheckExec: the policy binds to the program a run starts, not to the
// capability's name. Each refusal here was a run before: the check read
// only what the capability declared.
func TestCheckExec(t *testing.T) {
	ls := Program{Name: "ls", Path: "/usr/bin/ls"}
	touch := Program{Name: "touch", Path: "/usr/bin/touch"}
	sh := Program{Name: "sh", Path: "/usr/bin/sh"}
	curl := Program{Name: "curl", Path: "/usr/bin/curl"}
	cases := []struct {
		name     string
		policy   *Policy
		declared []string
		prog     Program
		allowed  bool
		missing  []string
		reason   string
	}{
		{"no policy runs anything", nil, nil, touch, true, nil, ReasonNoPolicy},
		{"ls runs ls", New(perms("proc:exec:ls")...), []string{"proc:exec:ls"}, ls, true, nil,
			`every permission is granted, proc:exec covers the program "ls" ("/usr/bin/ls")`},
		{"proc:exec:ls does not run touch", New(perms("proc:exec:ls")...), []string{"proc:exec:ls"}, touch, false,
			[]string{"proc:exec:touch"}, `the capability declares no proc:exec permission that covers the program "touch" ("/usr/bin/touch")`},
		{"fs:read alone runs no shell", New(perms("fs:read:*", "proc:exec:*")...), []string{"fs:read:*"}, sh, false,
			[]string{"proc:exec:sh"}, `the capability declares no proc:exec permission that covers the program "sh" ("/usr/bin/sh")`},
		{"no declaration runs nothing", New(perms("*:*:*")...), nil, ls, false, nil, ReasonUngated},
		{"a refused curl under another name", New(perms("proc:exec:ls", "net:http:get")...), []string{"proc:exec:ls", "net:http:get"}, curl, false,
			[]string{"proc:exec:curl"}, `the capability declares no proc:exec permission that covers the program "curl" ("/usr/bin/curl")`},
		{"declared but not granted", New(perms("proc:exec:ls", "fs:read:*")...), []string{"proc:exec:*", "fs:read:*"}, ls, false,
			[]string{"proc:exec:*"}, "not granted: proc:exec:*"},
		{"declared *, granted narrower", New(perms("proc:exec:*")...), []string{"proc:exec:*"}, ls, true, nil,
			`every permission is granted, proc:exec covers the program "ls" ("/usr/bin/ls")`},
		{"a path scope covers the resolved path", New(perms("proc:exec:/usr/bin")...), []string{"proc:exec:/usr/bin/*"}, ls, true, nil,
			`every permission is granted, proc:exec covers the program "ls" ("/usr/bin/ls")`},
		{"a name scope is not a path", New(perms("proc:exec:ls")...), []string{"proc:exec:ls"},
			Program{Name: "./ls", Path: "/work/ls"}, false, []string{"proc:exec:/work/ls"},
			`the capability declares no proc:exec permission that covers the program "./ls" ("/work/ls")`},
		{"nor is an absolute path", New(perms("proc:exec:ls")...), []string{"proc:exec:ls"},
			Program{Name: "/tmp/x/ls", Path: "/tmp/x/ls"}, false, []string{"proc:exec:/tmp/x/ls"},
			`the capability declares no proc:exec permission that covers the program "/tmp/x/ls"`},
		{"a relative path scope", New(perms("proc:exec:./scripts")...), []string{"proc:exec:./scripts/*"},
			Program{Name: "scripts/build.sh", Path: "/work/scripts/build.sh"}, true, nil,
			`every permission is granted, proc:exec covers the program "scripts/build.sh" ("/work/scripts/build.sh")`},
		{"climbing out of it", New(perms("proc:exec:./scripts")...), []string{"proc:exec:./scripts/*"},
			Program{Name: "scripts/../x", Path: "/work/x"}, false, []string{"proc:exec:/work/x"},
			`the capability declares no proc:exec permission that covers the program "scripts/../x" ("/work/x")`},
		{"a prefix scope", New(perms("proc:exec:git*")...), []string{"proc:exec:git*"}, Program{Name: "git-lfs", Path: "/usr/bin/git-lfs"}, true, nil,
			`every permission is granted, proc:exec covers the program "git-lfs" ("/usr/bin/git-lfs")`},
		{"not found", New(perms("proc:exec:ls")...), []string{"proc:exec:ls"}, Program{Name: "nosuch"}, false,
			[]string{"proc:exec:nosuch"}, `the capability declares no proc:exec permission that covers the program "nosuch" (not found)`},
		{"not UTF-8", New(perms("proc:exec:ls")...), []string{"proc:exec:ls"}, Program{Name: "./\xff", Path: "/w/\xff"}, false,
			[]string{"proc:exec:/w/\uFFFD"}, `the capability declares no proc:exec permission that covers the program "./\xff" ("/w/\xff")`},
		{"fail closed", Unreadable(assert.AnError), []string{"proc:exec:ls"}, ls, false, []string{"proc:exec:ls"},
			"the policy file cannot be used, so every capability is refused: " + assert.AnError.Error()},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := tc.policy.CheckExec(perms(tc.declared...), tc.prog)
			assert.Equal(t, tc.allowed, d.Allowed)
			var missing []string
			for _, m := range d.Missing {
				missing = append(missing, m.String())
			}
			assert.Equal(t, tc.missing, missing)
			assert.Equal(t, tc.reason, d.Reason)
		})
	}
}
