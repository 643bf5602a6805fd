package initmanifest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// newWorkspace is storage for a directory, with the engine's manifests.
func newWorkspace(dir string) *workspace.Workspace {
	return workspace.New(dir, workspace.Options{Manifests: workspace.Manifests{
		Parse:   func(raw []byte) (workspace.Manifest, error) { return torusfield.ParseManifest(raw) },
		Default: torusfield.DefaultManifestJSON}})
}

// A new workspace's plan: the embedded manifest, the default model and
// the newest format unless told; a model no one knows is bad input.
func TestDecide(t *testing.T) {
	ws := newWorkspace(filepath.Join(t.TempDir(), "ws"))
	p, err := Decide(ws, Request{}, 0, false)
	require.NoError(t, err)
	assert.Equal(t, Embedded, p.Choice.Source)
	assert.Equal(t, advice.DefaultModel, p.Model.Name)
	assert.Equal(t, workspace.Format, p.Format)
	assert.False(t, p.Force)

	p, err = Decide(ws, Request{Model: "v2", Force: true, FleetPrior: true}, 1, false)
	require.NoError(t, err)
	assert.Equal(t, "v2", p.Model.Name)
	assert.Equal(t, 1, p.Format)
	assert.True(t, p.Force && p.FleetPrior)

	_, err = Decide(ws, Request{Model: "v9"}, 0, false)
	require.Error(t, err)
	assert.Equal(t, fault.CodeInvalidValue, fault.AsError(err).Code)
}

// An initialized workspace is left alone without force.
func TestDecideInitialized(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ws")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, filepath.Dir(workspace.RelState)), 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(dir, workspace.RelState), []byte("{}"), 0o600))
	_, err := Decide(newWorkspace(dir), Request{}, 0, false)
	assert.ErrorIs(t, err, workspace.ErrInitialized)
}

// The reference's model warms up; ucs's own start from nothing.
func TestPlanWarmup(t *testing.T) {
	for model, want := range map[string]int{"v2": ReferenceWarmup, "v3": 0, "v4": 0, "v5": 0} {
		assert.Equal(t, want, Plan{Model: advice.LookupModel(model)}.Warmup(), model)
	}
}

// The event records the manifest by its hash; a format-1 init records
// neither model nor agent.
func TestPlanArgs(t *testing.T) {
	p := Plan{Choice: Choice{Raw: []byte("{}")}, Model: advice.LookupModel("v4"), Format: 2, Force: true, FleetPrior: true}
	const sum = "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"
	assert.Equal(t, `{"force":true,"manifest_sha256":"`+sum+`","model":"v4","agent_id":"a","fleet_prior":true}`,
		string(pyjson.AppendCompact(nil, p.Args("a"))))
	p.Format, p.Force, p.FleetPrior = 1, false, false
	assert.Equal(t, `{"force":false,"manifest_sha256":"`+sum+`"}`, string(pyjson.AppendCompact(nil, p.Args("a"))))
}

// init's answer names the manifest only when forced, the fleet prior
// only when asked for, and warns of a fleet prior on v5.
func TestPlanAnswer(t *testing.T) {
	answer := func(p Plan) (string, string) {
		out, warning := p.Answer(pyjson.Obj(pyjson.KV("status", "initialized")), 3)
		return string(pyjson.AppendCompact(nil, out)), warning
	}
	out, warning := answer(Plan{Model: advice.LookupModel("v4")})
	assert.Equal(t, `{"status":"initialized"}`, out)
	assert.Empty(t, warning)
	out, warning = answer(Plan{Model: advice.LookupModel("v4"), Force: true, FleetPrior: true, Choice: Choice{Source: File, Path: "m.json"}, PriorFrom: []string{"b"}})
	assert.Equal(t, `{"status":"initialized","manifest":{"source":"file","path":"m.json"},"fleet_prior":{"from":["b"],"transitions":3}}`, out)
	assert.Empty(t, warning)
	out, warning = answer(Plan{Model: advice.LookupModel("v5"), FleetPrior: true})
	assert.Equal(t, `{"status":"initialized","fleet_prior":{"from":[],"transitions":3}}`, out)
	assert.Contains(t, warning, "v3 and v4 workspaces only")
}

// An init that finds the workspace says so, and how to start over.
func TestAlreadyInitialized(t *testing.T) {
	assert.Equal(t, `{"status":"already_initialized","workspace":"/w","message":"Workspace exists. Use --force to reinitialize."}`,
		string(pyjson.AppendCompact(nil, AlreadyInitialized("/w"))))
}
