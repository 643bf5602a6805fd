package initmanifest

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/policy"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// TestManifestKeysKnown: the keys init accepts in a capability entry are
// the graph's and the declarations', each known to one reader only, and a
// manifest declaring every one of them (docs/manifest.md's example) loads.
func TestManifestKeysKnown(t *testing.T) {
	for _, k := range policy.DeclarationKeys {
		assert.False(t, slices.Contains(torusfield.CapabilityKeys, k), "%q is both the graph's and a declaration", k)
	}
	raw := []byte(`{"capabilities": [
		{"name": "read_file", "connects_to": ["edit_file", "testing"], "u": 0.6, "c": 0.2, "n": 0.1, "meta": {"team": "a"}},
		{"name": "edit_file", "connects_to": ["testing"], "u": 0.6, "c": 0.3, "permissions": ["fs:write:./src"], "side_effect": "impure"},
		{"name": "run_tests", "connects_to": ["edit_file", "read_file"], "u": 0.7, "c": 0.4,
		 "permissions": ["proc:exec:go"], "side_effect": "pure", "deterministic": true, "timeout_ms": 600000,
		 "outcome": {"partial_exit_codes": [2], "expects_output": true, "http_status_pattern": "HTTP/\\d\\.\\d (\\d{3})", "partial_pattern": "^PARTIAL"}}],
	  "semantic_map": {"testing": ["run_tests"]}}`)
	_, err := Check(Choice{Raw: raw, Source: File, Path: "m.json"}, false)
	require.NoError(t, err)
	for _, k := range policy.DeclarationKeys {
		assert.Contains(t, string(raw), `"`+k+`"`, "the example declares every key")
	}
}

// A replay pins what an earlier init accepted: a manifest with a key no
// reader knows still verifies, while a new init refuses it.
func TestCheckManifestUnknownKeyReplay(t *testing.T) {
	raw := []byte(`{"capabilities": [{"name": "a", "timeout": 5}]}`)
	_, err := Check(Choice{Raw: raw, Source: File, Path: "m.json"}, false)
	var fe *fault.Error
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, "invalid_manifest", fe.Code)
	assert.Equal(t, `did you mean "timeout_ms"? the keys of capabilities[0] "a" are name, connects_to, u, c, n, meta, permissions, side_effect, deterministic, timeout_ms, outcome; see docs/manifest.md`, fe.Hint)
	_, err = Check(Choice{Raw: raw, Source: File, Path: "m.json"}, true)
	assert.NoError(t, err)
}
