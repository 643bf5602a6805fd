package torusfield

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// declarationKeys stand for policy.DeclarationKeys, which this package
// cannot import; bridge's TestManifestKeysKnown checks a manifest that
// declares each of those loads.
var declarationKeys = []string{"permissions", "side_effect", "deterministic", "timeout_ms", "outcome"}

// Misspelt keys were ignored, so the permissions, outcome rules or timeout
// the user meant to declare were silently absent.
func TestCheckKeysRefusesMisspeltKeys(t *testing.T) {
	for _, tc := range []struct {
		name, manifest   string
		entry, key, near string
		msg              string
	}{
		{"permissions", `{"capabilities": [{"name": "a"}, {"name": "run_tests", "permision": ["proc:exec:go"]}]}`,
			`capabilities[1] "run_tests"`, "permision", "permissions",
			`manifest: capabilities[1] "run_tests": unknown key "permision"; did you mean "permissions"?`},
		{"outcome", `{"capabilities": [{"name": "run_tests", "outcom": {"expects_output": true}}]}`,
			`capabilities[0] "run_tests"`, "outcom", "outcome",
			`manifest: capabilities[0] "run_tests": unknown key "outcom"; did you mean "outcome"?`},
		{"timeout", `{"capabilities": [{"name": "run_tests", "timeout": 3000}]}`,
			`capabilities[0] "run_tests"`, "timeout", "timeout_ms",
			`manifest: capabilities[0] "run_tests": unknown key "timeout"; did you mean "timeout_ms"?`},
		{"semantic map", `{"capabilities": [{"name": "a"}], "semantic_mapp": {"x": ["a"]}}`,
			"", "semantic_mapp", "semantic_map",
			`manifest: unknown key "semantic_mapp"; did you mean "semantic_map"?`},
		{"connects_to", `{"capabilities": [{"name": "a", "connect_to": ["a"]}]}`,
			`capabilities[0] "a"`, "connect_to", "connects_to", ""},
		{"side effect", `{"capabilities": [{"name": "a", "sideeffect": "pure"}]}`,
			`capabilities[0] "a"`, "sideeffect", "side_effect", ""},
		{"capabilities", `{"capabilites": [], "capabilities": [{"name": "a"}]}`,
			"", "capabilites", "capabilities", ""},
		{"nothing near", `{"capabilities": [{"name": "a", "description": "reads"}]}`,
			`capabilities[0] "a"`, "description", "",
			`manifest: capabilities[0] "a": unknown key "description"`},
		{"unnamed entry", `{"capabilities": [{"nam": "a"}]}`,
			`capabilities[0]`, "nam", "name", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckKeys([]byte(tc.manifest), declarationKeys)
			var uk *UnknownKeyError
			require.ErrorAs(t, err, &uk)
			assert.Equal(t, tc.entry, uk.Entry)
			assert.Equal(t, tc.key, uk.Key)
			assert.Equal(t, tc.near, uk.Near)
			if tc.msg != "" {
				assert.Equal(t, tc.msg, err.Error())
			}
			if tc.near != "" {
				assert.Contains(t, uk.Hint(), `did you mean "`+tc.near+`"?`)
			}
			assert.Contains(t, uk.Hint(), "the keys of ")
		})
	}
}

func TestCheckKeysHintListsKeys(t *testing.T) {
	err := CheckKeys([]byte(`{"capabilities": [{"name": "t", "outcom": {}}]}`), declarationKeys)
	var uk *UnknownKeyError
	require.ErrorAs(t, err, &uk)
	assert.Equal(t, `did you mean "outcome"? the keys of capabilities[0] "t" are name, connects_to, u, c, n, meta, permissions, side_effect, deterministic, timeout_ms, outcome`, uk.Hint())
	err = CheckKeys([]byte(`{"capabilities": [{"name": "t"}], "version": 1}`), declarationKeys)
	require.ErrorAs(t, err, &uk)
	assert.Equal(t, `the keys of a manifest are capabilities, semantic_map`, uk.Hint())
}

// The user's own objects (meta, the semantic map's labels) and the
// declared keys pass; what is not an object is left to ParseManifest.
func TestCheckKeysAccepts(t *testing.T) {
	for _, m := range []string{
		`{"capabilities": [{"name": "a", "connects_to": ["x"], "u": 0.5, "c": 0.2, "n": 0, "meta": {"anything": 1, "permision": 2},
			"permissions": ["fs:read:*"], "side_effect": "pure", "deterministic": true, "timeout_ms": 5, "outcome": {"whatever": 1}}],
		  "semantic_map": {"x": ["a"], "outcom": ["a"]}}`,
		`{"capabilities": [{"name": "a"}]}`,
		`{"capabilities": [1, "b", null]}`,
		`{"capabilities": {"name": "a"}}`,
		`[]`,
	} {
		assert.NoError(t, CheckKeys([]byte(m), declarationKeys), m)
	}
	assert.Error(t, CheckKeys([]byte(`{"capabilities": [{"name": "a", "timeout_ms": 1}]}`), nil), "without the declared keys, a declaration is unknown")
	var me *ManifestError
	assert.ErrorAs(t, CheckKeys([]byte(`{`), nil), &me)
}

// Every manifest ucs ships or keeps as a fixture has only known keys: the
// embedded Aegis manifest, the reference's, the workspaces' pinned ones.
func TestCheckKeysFixtures(t *testing.T) {
	require.NoError(t, CheckKeys(DefaultManifestJSON(), nil))
	// A byte more, so CheckKeys reads it instead of knowing it.
	require.NoError(t, CheckKeys(append(DefaultManifestJSON(), '\n'), nil))
	var paths []string
	err := filepath.WalkDir("..", func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && slices.Contains([]string{".git", "node_modules"}, d.Name()) {
			return filepath.SkipDir
		}
		if !d.IsDir() && filepath.Ext(p) == ".json" && (filepath.Base(p) == "manifest.json" || filepath.Base(filepath.Dir(p)) == "manifests" || filepath.Base(p) == "aegis-manifest.json") {
			paths = append(paths, p)
		}
		return nil
	})
	require.NoError(t, err)
	require.NotEmpty(t, paths)
	for _, p := range paths {
		raw, err := os.ReadFile(p)
		require.NoError(t, err)
		if _, err := ParseManifest(raw); err != nil {
			continue // not a manifest (a formulas fixture) or one kept broken on purpose
		}
		assert.NoError(t, CheckKeys(raw, declarationKeys), p)
	}
}
