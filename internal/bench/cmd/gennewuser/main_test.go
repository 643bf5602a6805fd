package main

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/bench/newuser"
)

// The committed script is what the generator writes: a change of the
// plan or of its checks must come with the script it makes.
func TestCommittedScriptIsGenerated(t *testing.T) {
	want, err := generate("../../../../testdata/manifests/coding.json", newuser.DefaultSeed, false)
	require.NoError(t, err)
	got, err := os.ReadFile("../../../../testdata/script/newuser_session.txtar")
	require.NoError(t, err)
	assert.True(t, string(got) == want, "testdata/script/newuser_session.txtar is stale: run go generate ./internal/bench/cmd/gennewuser")
}

// The same seed gives the same bytes.
func TestDeterministic(t *testing.T) {
	a, err := generate("../../../../testdata/manifests/coding.json", 5, false)
	require.NoError(t, err)
	b, err := generate("../../../../testdata/manifests/coding.json", 5, false)
	require.NoError(t, err)
	assert.True(t, a == b)
}
