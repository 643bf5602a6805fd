package policy

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// TestDecisions: the operator's file overrides the workspace's policy and
// is then recorded; a ranking notes what it leaves out; without a policy
// the workspace's member is read but the declarations are not parsed.
func TestDecisions(t *testing.T) {
	manifest := []byte(`{"capabilities": [{"name": "fetch", "permissions": ["net:http:get"]}, {"name": "shell"}]}`)
	names := []string{"fetch", "shell"}
	none := func() *State { return &State{} }
	granted := func() *State { return &State{Policy: New(perms("net:http:get")...)} }

	var d Decisions
	assert.Equal(t, names, Keep(&d, none, manifest, names, func(n string) string { return n }), "no policy keeps everything")
	assert.Nil(t, d.decls, "no policy: the declarations are not parsed")
	assert.Equal(t, []string{}, d.RefusedByDefault(none, manifest, names))
	assert.Equal(t, pyjson.Obj(pyjson.KV("a", 1)), d.Record(pyjson.Obj(pyjson.KV("a", 1))), "nothing to record")

	kept := Keep(&d, granted, manifest, names, func(n string) string { return n })
	assert.Equal(t, []string{"fetch"}, kept)
	assert.Len(t, d.LeftOut, 1)
	assert.True(t, d.DeniedByDefault, "shell declares nothing")
	assert.Equal(t, []string{"fetch"}, d.Gated(manifest))
	assert.Equal(t, []string{"shell"}, d.RefusedByDefault(granted, manifest, names))
	assert.False(t, d.FileUsed)
	assert.Equal(t, `{"policy_default":"deny"}`, string(pyjson.AppendCompact(nil, d.Record(pyjson.Value{}))))

	f := &File{Path: "/etc/ucs/policy.json", Policy: New()}
	d = Decisions{File: f}
	denied, _ := d.Denied(granted, manifest, []string{"fetch"})
	assert.Equal(t, []string{"fetch"}, denied, "the file, which grants nothing, overrides the workspace's grant")
	assert.True(t, d.FileUsed)
	rec := d.Record(pyjson.Obj(pyjson.KV("z", 1)))
	_, ok := rec.Get(FileMember)
	assert.True(t, ok, "the file used is recorded")
	assert.Equal(t, Status(f, nil), d.Status(granted))
}
