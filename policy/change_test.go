package policy

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
)

func code(t *testing.T, err error) string {
	t.Helper()
	var fe *fault.Error
	require.True(t, errors.As(err, &fe), "%v", err)
	return fe.Code
}

// TestStateChanges: a grant makes a policy of a workspace without one, and
// a policy that cannot be read is replaced by a change, never amended.
func TestStateChanges(t *testing.T) {
	get := MustParsePermission("net:http:get")
	st := &State{}
	assert.Nil(t, st.Grants(), "no policy: null")
	_, err := st.Revoke(get)
	assert.Equal(t, fault.CodeNoPolicy, code(t, err))
	assert.True(t, st.Grant(get))
	assert.False(t, st.Grant(get), "granted already")
	assert.Equal(t, []string{"net:http:get"}, st.Grants())
	changed, err := st.Revoke(get)
	require.NoError(t, err)
	assert.True(t, changed)
	assert.Equal(t, []string{}, st.Grants(), "a policy of no grants is not no policy")
	assert.True(t, st.Clear())
	assert.False(t, st.Clear())

	broken := &State{Policy: Unreadable(assert.AnError)}
	assert.True(t, broken.Grant(get))
	assert.Equal(t, []string{"net:http:get"}, broken.Grants())
	broken = &State{Policy: Unreadable(assert.AnError)}
	_, err = broken.Revoke(get)
	assert.Equal(t, fault.CodeNoPolicy, code(t, err), "nothing to revoke from a policy that cannot be read")

	_, err = ParseGrant("nope")
	assert.Equal(t, fault.CodeInvalidPermission, code(t, err))
	_, err = ParseSet([]byte(`{"version": 2}`))
	assert.Equal(t, fault.CodeInvalidPolicy, code(t, err))
	p, err := ParseSet([]byte(`{"version": 1, "grants": ["net:http:get"]}`))
	require.NoError(t, err)
	assert.Equal(t, []string{"net:http:get"}, Strings(p.Grants))
}

func TestShow(t *testing.T) {
	decls := map[string]Declaration{"fetch": {Permissions: perms("net:http:get")}}
	caps, grants, domains := Show(Gate{Policy: New(), Decls: decls}, []string{"fetch"})
	require.Len(t, caps, 1)
	allowed, _ := caps[0].Get("allowed")
	assert.False(t, allowed.Bool())
	assert.Equal(t, "fetch", caps[0].StrOf("capability"))
	assert.Equal(t, []string{}, grants)
	assert.Len(t, domains, len(Domains))
	_, grants, _ = Show(Gate{Policy: Unreadable(assert.AnError)}, nil)
	assert.Nil(t, grants, "the grants of a policy that cannot be read are not listed")
}

func TestReadSet(t *testing.T) {
	dir := t.TempDir()
	_, err := ReadSet(filepath.Join(dir, "missing.json"))
	assert.Equal(t, fault.CodeUnreadableFile, code(t, err))
	f := filepath.Join(dir, "policy.json")
	require.NoError(t, os.WriteFile(f, []byte(`{"version": 1, "grants": []}`), 0o600))
	data, err := ReadSet(f)
	require.NoError(t, err)
	assert.Equal(t, `{"version": 1, "grants": []}`, string(data))
}
