package policy

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/outcome"
)

func TestParseDeclarations(t *testing.T) {
	manifest := `{"capabilities": [
		{"name": "read_file", "connects_to": ["edit"], "u": 0.9, "c": 0.1,
		 "permissions": ["fs:read:.", "fs:read:.", "env:read:HOME"], "side_effect": "pure", "deterministic": true, "timeout_ms": 5000},
		{"name": "edit", "connects_to": ["read_file"], "meta": {"permissions": "not ours"},
		 "permissions": ["fs:write:./src"], "side_effect": "impure", "deterministic": false,
		 "outcome": {"partial_exit_codes": [1, 255], "expects_output": true, "partial_pattern": "(?i)warning"}},
		{"name": "fetch", "permissions": ["net:http:get"], "future_member": {"x": 1},
		 "outcome": {"http_status_pattern": "HTTP/\\d\\.\\d (\\d{3})"}},
		{"name": "think", "n": 0, "permissions": [], "side_effect": null, "outcome": {}},
		{"name": "plain"}
	], "semantic_map": {}}`
	got, err := ParseDeclarations([]byte(manifest))
	require.NoError(t, err)
	yes, no := true, false
	assert.Equal(t, map[string]Declaration{
		"read_file": {Permissions: perms("fs:read:.", "env:read:HOME"), SideEffect: Pure, Deterministic: &yes, TimeoutMS: 5000},
		"edit": {Permissions: perms("fs:write:./src"), SideEffect: Impure, Deterministic: &no,
			Rules: outcome.Rules{PartialExitCodes: []int{1, 255}, ExpectsOutput: true, PartialPattern: "(?i)warning"}},
		"fetch": {Permissions: perms("net:http:get"), Rules: outcome.Rules{HTTPStatusPattern: `HTTP/\d\.\d (\d{3})`}},
		"think": {},
		"plain": {},
	}, got)
}

func TestParseDeclarationsErrors(t *testing.T) {
	cases := []struct{ name, cap, err string }{
		{"bad permission", `"permissions": ["fs:read:*", "fs:read"]`,
			`manifest: capabilities[1] "tool": permissions[1]: permission "fs:read": want domain:action:scope`},
		{"unknown domain", `"permissions": ["disk:read:*"]`, `permissions[0]: permission "disk:read:*": unknown domain "disk"`},
		{"wildcard need", `"permissions": ["fs:*:./x"]`, `permissions[0]: permission "fs:*:./x": a capability must name the domain and the action`},
		{"permissions not a list", `"permissions": "fs:read:*"`, `capabilities[1] "tool": permissions: must be a list of permission strings, got a string`},
		{"permission not a string", `"permissions": [1]`, `permissions[0]: must be a string, got an int`},
		{"side effect", `"side_effect": "maybe"`, `capabilities[1] "tool": side_effect: must be "pure" or "impure", got "maybe"`},
		{"side effect type", `"side_effect": true`, `side_effect: must be "pure" or "impure", got true`},
		{"deterministic", `"deterministic": "yes"`, `capabilities[1] "tool": deterministic: must be true or false, got a string`},
		{"timeout zero", `"timeout_ms": 0`, `capabilities[1] "tool": timeout_ms: must be a positive integer (milliseconds), got 0`},
		{"timeout float", `"timeout_ms": 1.5`, `timeout_ms: must be a positive integer (milliseconds), got 1.5`},
		{"timeout negative", `"timeout_ms": -1`, `timeout_ms: must be a positive integer`},
		{"outcome type", `"outcome": []`, `capabilities[1] "tool": outcome: must be an object, got an array`},
		{"outcome unknown", `"outcome": {"partial_codes": [1]}`, `outcome["partial_codes"]: unknown member (known: partial_exit_codes, http_status_pattern, expects_output, partial_pattern)`},
		{"outcome misspelt", `"outcome": {"expect_output": true}`, `outcome["expect_output"]: unknown member; did you mean "expects_output"? (known: partial_exit_codes`},
		{"outcome abbreviated", `"outcome": {"partial_exit": [2]}`, `outcome["partial_exit"]: unknown member; did you mean "partial_exit_codes"?`},
		{"exit codes type", `"outcome": {"partial_exit_codes": 1}`, `outcome.partial_exit_codes: must be a list of exit codes, got an int`},
		{"exit code 0", `"outcome": {"partial_exit_codes": [2, 0]}`, `capabilities[1] "tool": outcome.partial_exit_codes[1]: must be an integer from 1 to 255, got 0`},
		{"exit code 256", `"outcome": {"partial_exit_codes": [256]}`, `outcome.partial_exit_codes[0]: must be an integer from 1 to 255, got 256`},
		{"exit code float", `"outcome": {"partial_exit_codes": [1.0]}`, `outcome.partial_exit_codes[0]: must be an integer from 1 to 255, got 1.0`},
		{"http pattern no group", `"outcome": {"http_status_pattern": "HTTP \\d+"}`,
			`capabilities[1] "tool": outcome.http_status_pattern: must have exactly 1 capturing group (the status code), "HTTP \\d+" has 0`},
		{"http pattern two groups", `"outcome": {"http_status_pattern": "(HTTP) (\\d+)"}`, `has 2`},
		{"http pattern broken", `"outcome": {"http_status_pattern": "(\\d+"}`, `outcome.http_status_pattern: error parsing regexp: missing closing )`},
		{"partial pattern broken", `"outcome": {"partial_pattern": "a**"}`, `capabilities[1] "tool": outcome.partial_pattern: error parsing regexp`},
		{"partial pattern empty", `"outcome": {"partial_pattern": ""}`, `outcome.partial_pattern: must be a non-empty regular expression string, got ""`},
		{"partial pattern type", `"outcome": {"partial_pattern": 3}`, `outcome.partial_pattern: must be a non-empty regular expression string, got 3`},
		{"expects output", `"outcome": {"expects_output": 1}`, `outcome.expects_output: must be true or false, got an int`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			manifest := `{"capabilities": [{"name": "ok", "permissions": ["fs:read:*"]}, {"name": "tool", ` + tc.cap + `}]}`
			_, err := ParseDeclarations([]byte(manifest))
			require.Error(t, err)
			var de *DeclarationError
			require.ErrorAs(t, err, &de)
			assert.Equal(t, `capabilities[1] "tool"`, de.Entry)
			assert.Contains(t, err.Error(), tc.err)
		})
	}
}

func TestParseDeclarationsManifestErrors(t *testing.T) {
	cases := []struct{ in, err string }{
		{`{"capabilities": [`, "manifest: "},
		{`[]`, "manifest: the document must be a JSON object"},
		{`{}`, "manifest: capabilities: must be a list"},
		{`{"capabilities": [1]}`, "manifest: capabilities[0]: must be an object"},
		{`{"capabilities": [{"name": "a"}, {"connects_to": []}]}`, "manifest: capabilities[1]: name must be a string"},
		{`{"capabilities": [{"name": "a"}, {"name": "a"}]}`, `manifest: capabilities[1] "a": duplicate capability name`},
	}
	for _, tc := range cases {
		_, err := ParseDeclarations([]byte(tc.in))
		require.Error(t, err, tc.in)
		assert.IsType(t, &DeclarationError{}, err, tc.in)
		assert.Contains(t, err.Error(), tc.err, tc.in)
	}
}

// TestParseDeclarationsAegisManifest: torusfield's embedded manifest
// declares nothing, and every one of its capabilities is in the map.
func TestParseDeclarationsAegisManifest(t *testing.T) {
	data, err := os.ReadFile("../torusfield/aegis-manifest.json")
	require.NoError(t, err)
	got, err := ParseDeclarations(data)
	require.NoError(t, err)
	assert.Len(t, got, 45)
	for name, d := range got {
		assert.Equal(t, Declaration{}, d, name)
	}
}
