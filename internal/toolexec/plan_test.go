package toolexec

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/bridge"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// TestPlan: an exec is checked against the workspace before anything
// runs: an uninitialized workspace, an unknown capability or goal are
// refused; without a policy a capability of the manifest may run.
func TestPlan(t *testing.T) {
	b := bridge.New(bridge.Options{Workspace: t.TempDir()})
	kind := func(err error) (fault.Kind, string) {
		var fe *fault.Error
		require.ErrorAs(t, err, &fe)
		return fe.Kind, fe.Code
	}
	_, _, err := Plan(b, Action{Capability: "x"}, 0)
	k, _ := kind(err)
	assert.Equal(t, fault.KindNotInitialized, k)

	_, err = b.Do(bridge.Call{Op: "init"})
	require.NoError(t, err)
	man, err := torusfield.ParseManifest(torusfield.DefaultManifestJSON())
	require.NoError(t, err)
	capability := man.Names()[0]

	_, _, err = Plan(b, Action{Capability: "no such capability"}, 0)
	_, code := kind(err)
	assert.Equal(t, fault.CodeUnknownCapability, code)
	_, _, err = Plan(b, Action{Capability: capability, Goal: "g9"}, 0)
	_, code = kind(err)
	assert.Equal(t, fault.CodeUnknownGoal, code)

	plan, _, err := Plan(b, Action{Capability: capability, Command: []string{"true"}}, 0)
	require.NoError(t, err)
	assert.True(t, plan.Decision.Allowed, plan.Decision.Reason)
}
