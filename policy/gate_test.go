package policy

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// TestGateDecide: the gate decides by what a capability declares, and a
// replay of an event from before policies denied by default lets a
// capability that declares nothing run.
func TestGateDecide(t *testing.T) {
	decls := map[string]Declaration{"fetch": {Permissions: perms("net:http:get")}, "shell": {}}
	granted := New(perms("net:http:get")...)
	cases := []struct {
		name       string
		gate       Gate
		capability string
		allowed    bool
		reason     string
	}{
		{"no policy", Gate{Decls: decls}, "shell", true, ReasonNoPolicy},
		{"granted", Gate{Policy: granted, Decls: decls}, "fetch", true, ReasonGranted},
		{"not granted", Gate{Policy: New(), Decls: decls}, "fetch", false, "not granted: net:http:get"},
		{"declares nothing", Gate{Policy: granted, Decls: decls}, "shell", false, ReasonUngated},
		{"declares nothing, recorded before", Gate{Policy: granted, Decls: decls, UngatedAllowed: true}, "shell", true, reasonUngatedBefore},
		{"unknown name declares nothing", Gate{Policy: granted, Decls: decls}, "nope", false, ReasonUngated},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := tc.gate.Decide(tc.capability)
			assert.Equal(t, tc.allowed, d.Allowed)
			assert.Equal(t, tc.reason, d.Reason)
		})
	}
}

func TestGateLists(t *testing.T) {
	decls := map[string]Declaration{"fetch": {Permissions: perms("net:http:get")}, "shell": {}, "b": {Permissions: perms("fs:read:*")}}
	g := Gate{Policy: New(perms("net:http:get")...), Decls: decls}
	assert.Equal(t, []string{"b", "fetch"}, Gated(decls))
	assert.Equal(t, []string{"nope", "shell"}, Undeclared([]string{"shell", "fetch", "nope"}, decls))
	names, why := g.Denied([]string{"shell", "fetch", "b"})
	assert.Equal(t, []string{"shell", "b"}, names)
	assert.Len(t, why, 2)
	kept, refused, byDefault := Without(g, []string{"fetch", "shell", "b"}, func(s string) string { return s })
	assert.Equal(t, []string{"fetch"}, kept)
	assert.Len(t, refused, 2)
	assert.True(t, byDefault)
	kept, refused, byDefault = Without(Gate{Decls: decls}, []string{"shell"}, func(s string) string { return s })
	assert.Equal(t, []string{"shell"}, kept)
	assert.Nil(t, refused)
	assert.False(t, byDefault)
	names, why = Gate{Decls: decls}.Denied([]string{"shell"})
	assert.Nil(t, names)
	assert.Nil(t, why)
}

// TestPlanExec: the operator's file decides when there is one; else the
// state's member, and a state that cannot be read refuses (fail closed).
func TestPlanExec(t *testing.T) {
	manifest := []byte(`{"capabilities": [{"name": "ls", "permissions": ["proc:exec:ls"], "outcome": {"expects_output": true}}]}`)
	ls := Program{Name: "ls", Path: "/usr/bin/ls"}
	cases := []struct {
		name    string
		file    *File
		state   string
		allowed bool
		record  bool
	}{
		{"no policy", nil, `{"t": 1}`, true, false},
		{"the state's grants", nil, `{"permissions": {"version": 1, "grants": ["proc:exec:ls"]}}`, true, false},
		{"the state grants nothing", nil, `{"permissions": {"version": 1, "grants": []}}`, false, false},
		{"an unreadable state", nil, `{`, false, false},
		{"the file overrides the state", &File{Path: "/etc/p.json", Policy: New()}, `{"t": 1}`, false, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			plan := PlanExec(manifest, "ls", ls, tc.file, []byte(tc.state))
			assert.Equal(t, tc.allowed, plan.Decision.Allowed, plan.Decision.Reason)
			assert.True(t, plan.Declaration.ExpectsOutput, "the declaration's rules come with the plan")
			assert.Equal(t, ls, plan.Program)
			assert.Equal(t, tc.record, !plan.PolicyFile.IsNull())
		})
	}
	assert.False(t, PlanExec(manifest, "ls", ls, nil, nil).Decision.Allowed, "no state at all fails closed")
}

func TestFileRecord(t *testing.T) {
	f := &File{Path: "/etc/ucs/policy.json", Policy: New(perms("net:http:get", "fs:read:*")...)}
	back, err := FileFromRecord(f.Record())
	assert.NoError(t, err)
	assert.Equal(t, f, back)
	assert.Error(t, f.Locked())
	assert.NoError(t, (*File)(nil).Locked())
	assert.True(t, IsFileError(func() error { _, err := LoadFile("/nonexistent/ucs/policy.json"); return err }()))
}

// A state file with a repeated policy member is judged by the member its
// parser (pyjson) keeps, the last: exec reads the file without it, and
// must refuse what every other call refuses.
func TestPlanExecRepeatedKeyAsTheStateParser(t *testing.T) {
	manifest := []byte(`{"capabilities": [{"name": "ls", "permissions": ["proc:exec:ls"]}]}`)
	ls := Program{Name: "ls", Path: "/usr/bin/ls"}
	state := []byte(`{"permissions": {"version": 1, "grants": ["proc:exec:ls"]}, "t": 1, "permissions": {"version": 1, "grants": []}}`)
	doc, err := pyjson.Parse(state)
	require.NoError(t, err)
	m, _ := doc.Get(StateMember)
	full := DecodeState(pyjson.AppendCompact(nil, m)).Policy
	want := full.CheckExec(perms("proc:exec:ls"), ls)
	got := PlanExec(manifest, "ls", ls, nil, state).Decision
	assert.False(t, want.Allowed)
	assert.Equal(t, want, got)
}
