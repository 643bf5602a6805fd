package policy

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func perms(ss ...string) []Permission {
	out := make([]Permission, len(ss))
	for i, s := range ss {
		out[i] = MustParsePermission(s)
	}
	return out
}

func TestParsePolicy(t *testing.T) {
	good := []struct {
		name, in string
		want     *Policy
	}{
		{"empty", `{"version": 1, "grants": []}`, &Policy{}},
		{"grants", `{"version": 1, "grants": ["fs:read:*", "net:http:get"], "note": "ci"}`,
			&Policy{Grants: perms("fs:read:*", "net:http:get"), Note: "ci"}},
		{"duplicates kept once, first place", `{"grants": ["fs:read:*", "*:*:*", "fs:read:*"], "version": 1}`,
			&Policy{Grants: perms("fs:read:*", "*:*:*")}},
		{"escaped member name", `{"\u0076ersion": 1, "grants": ["env:read:HOME"]}`, &Policy{Grants: perms("env:read:HOME")}},
	}
	for _, tc := range good {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ParsePolicy([]byte(tc.in))
			require.NoError(t, err)
			assert.Equal(t, tc.want, p)
		})
	}
	bad := []struct{ name, in, err string }{
		{"not json", `{"version": 1,`, "policy: "},
		{"not an object", `["fs:read:*"]`, "policy: the document must be a JSON object, got an array"},
		{"unknown member", `{"version": 1, "grants": [], "grant": []}`, `policy: "grant": unknown member (known: version, grants, note)`},
		{"repeated member", `{"version": 1, "grants": ["*:*:*"], "grants": []}`, `policy: "grants": appears more than once`},
		{"no version", `{"grants": []}`, "policy: version: missing: it must be 1"},
		{"version 2", `{"version": 2, "grants": []}`, "policy: version: must be 1, got 2"},
		{"version float", `{"version": 1.0, "grants": []}`, "policy: version: must be 1, got 1.0"},
		{"version string", `{"version": "1", "grants": []}`, `policy: version: must be 1, got "1"`},
		{"no grants", `{"version": 1}`, "policy: grants: must be a list of permission strings"},
		{"grants object", `{"version": 1, "grants": {}}`, "policy: grants: must be a list of permission strings"},
		{"grant not a string", `{"version": 1, "grants": ["fs:read:*", 3]}`, "policy: grants[1]: must be a string, got an int"},
		{"bad grant", `{"version": 1, "grants": ["fs:read:*", "net:http:get", "fs:run:*"]}`,
			`policy: grants[2]: permission "fs:run:*": unknown action "run" for domain "fs"`},
		{"note not a string", `{"version": 1, "grants": [], "note": 1}`, "policy: note: must be a string, got an int"},
	}
	for _, tc := range bad {
		t.Run("bad/"+tc.name, func(t *testing.T) {
			_, err := ParsePolicy([]byte(tc.in))
			require.Error(t, err)
			var pe *PolicyError
			require.ErrorAs(t, err, &pe)
			assert.Contains(t, err.Error(), tc.err)
		})
	}
}

func TestCheck(t *testing.T) {
	p := New(perms("fs:read:*", "fs:write:./src", "net:http:get")...)
	cases := []struct {
		name   string
		policy *Policy
		need   []string
		want   Decision
	}{
		{"no policy file", nil, []string{"fs:delete:/", "net:connect:x"},
			Decision{Allowed: true, Reason: "no policy file: everything is granted"}},
		{"no policy file, ungated", nil, nil, Decision{Allowed: true, Reason: ReasonNoPolicy}},
		// Deny by default: a capability that declares nothing is refused
		// under a policy (it ran before: the policy bound to nothing).
		{"ungated", p, nil, Decision{Reason: ReasonUngated}},
		{"granted", p, []string{"fs:read:/etc/hosts", "fs:write:./src/a.go", "net:http:GET"},
			Decision{Allowed: true, Reason: ReasonGranted}},
		{"missing in order, once", p, []string{"net:http:post", "fs:write:./docs", "fs:read:x", "net:http:post", "proc:exec:git"},
			Decision{Missing: perms("net:http:post", "fs:write:./docs", "proc:exec:git"),
				Reason: "not granted: net:http:post, fs:write:./docs, proc:exec:git"}},
		{"escape", p, []string{"fs:write:./src/../etc"},
			Decision{Missing: perms("fs:write:./src/../etc"), Reason: "not granted: fs:write:./src/../etc"}},
		{"empty policy", New(), []string{"env:read:HOME"},
			Decision{Missing: perms("env:read:HOME"), Reason: "not granted: env:read:HOME"}},
		{"fail closed", Unreadable(errors.New("policy: version: must be 1, got 2")), []string{"fs:read:x", "fs:read:x", "env:read:HOME"},
			Decision{Missing: perms("fs:read:x", "env:read:HOME"), Reason: "the policy file cannot be used, so every capability " +
				"is refused: policy: version: must be 1, got 2"}},
		{"fail closed, ungated", Unreadable(errors.New("x")), nil, Decision{Reason: "the policy file cannot be used, so every capability is refused: x"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.policy.Check(perms(tc.need...)))
		})
	}
}

func TestFromFile(t *testing.T) {
	dir := t.TempDir()
	read := func(name string) *Policy { return FromFile(os.ReadFile(filepath.Join(dir, name))) }
	need := perms("fs:read:./a")

	assert.Nil(t, read("missing.json"), "no file: nil, everything granted")
	assert.True(t, read("missing.json").Check(need).Allowed)

	require.NoError(t, os.WriteFile(filepath.Join(dir, "ok.json"), []byte(`{"version": 1, "grants": ["fs:read:."]}`), 0o600))
	p := read("ok.json")
	require.NoError(t, p.Err())
	assert.True(t, p.Check(need).Allowed)

	require.NoError(t, os.WriteFile(filepath.Join(dir, "bad.json"), []byte(`{"version": 1, "grants": ["*:*:*"`), 0o600))
	p = read("bad.json")
	require.Error(t, p.Err())
	d := p.Check(need)
	assert.False(t, d.Allowed, "a file that does not parse fails closed")
	assert.Equal(t, need, d.Missing)
	assert.Contains(t, d.Reason, p.Err().Error())

	require.NoError(t, os.Mkdir(filepath.Join(dir, "dir.json"), 0o700))
	p = read("dir.json")
	require.Error(t, p.Err(), "a file that cannot be read fails closed")
	assert.False(t, p.Check(need).Allowed)

	wrapped := FromFile(nil, fmt.Errorf("open policy.json: %w", fs.ErrNotExist))
	assert.Nil(t, wrapped)
	assert.Error(t, Unreadable(nil).Err(), "Unreadable never fails open")
	assert.False(t, Unreadable(nil).Check(need).Allowed)
}

func TestGrantRevoke(t *testing.T) {
	p := New()
	assert.True(t, p.Grant(perms("fs:read:*", "net:http:get")...))
	assert.False(t, p.Grant(perms("fs:read:*")...), "granting again changes nothing")
	assert.True(t, p.Grant(perms("net:http:get", "fs:read:./src")...), "one of two is new")
	assert.Equal(t, perms("fs:read:*", "net:http:get", "fs:read:./src"), p.Grants)
	assert.False(t, p.Grant(), "nothing to grant")

	assert.True(t, p.Revoke(perms("fs:read:*")...))
	assert.False(t, p.Revoke(perms("fs:read:*")...), "revoking again changes nothing")
	assert.False(t, p.Revoke(perms("fs:read:./src/a")...), "only whole grants are revoked")
	assert.Equal(t, perms("net:http:get", "fs:read:./src"), p.Grants)
	assert.True(t, p.Revoke(perms("fs:read:./src", "net:http:get")...))
	assert.Empty(t, p.Grants)

	u := Unreadable(errors.New("broken"))
	assert.False(t, u.Grant(perms("*:*:*")...), "an unreadable policy stays unreadable")
	assert.False(t, u.Check(perms("fs:read:x")).Allowed)
}

func TestAppendJSONGolden(t *testing.T) {
	p := &Policy{
		Grants: perms("fs:read:*", "fs:write:./src", "net:http:get", "fs:read:*", "msg:send:#ops", "fs:read:café"),
		Note:   "granted by \"ops\"\nfor CI",
	}
	cases := []struct {
		name   string
		policy *Policy
	}{
		{"policy_grants.json", p},
		{"policy_empty.json", New()},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.policy.AppendJSON([]byte("prefix:"))
			require.Equal(t, "prefix:", string(got[:7]), "AppendJSON appends")
			got = got[7:]
			golden := filepath.Join("testdata", tc.name)
			if *update {
				require.NoError(t, os.WriteFile(golden, got, 0o644))
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err)
			assert.Equal(t, string(want), string(got))

			back, err := ParsePolicy(got)
			require.NoError(t, err)
			assert.Equal(t, New(tc.policy.Grants...).Grants, back.Grants)
			assert.Equal(t, tc.policy.Note, back.Note)
		})
	}
	assert.Equal(t, "x", string((*Policy)(nil).AppendJSON([]byte("x"))), "no policy file, no bytes")
	assert.Equal(t, "x", string(Unreadable(errors.New("e")).AppendJSON([]byte("x"))), "an unreadable policy has no bytes")
}

func TestCovering(t *testing.T) {
	p := New(perms("fs:write:./src", "fs:*:*")...)
	g, ok := p.Covering(MustParsePermission("fs:write:./src/a"))
	assert.True(t, ok)
	assert.Equal(t, "fs:write:./src", g.String(), "the first grant that covers")
	g, ok = p.Covering(MustParsePermission("fs:delete:/x"))
	assert.True(t, ok)
	assert.Equal(t, "fs:*:*", g.String())
	_, ok = p.Covering(MustParsePermission("net:dns:x"))
	assert.False(t, ok)
	_, ok = (*Policy)(nil).Covering(MustParsePermission("net:dns:x"))
	assert.False(t, ok)
}
