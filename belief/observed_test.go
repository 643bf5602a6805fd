package belief

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/outcome"
)

// TestObserveResult: what was observed decides the outcome learned, an
// expectation judges it, and the agent's own verdict is compared, never
// followed.
func TestObserveResult(t *testing.T) {
	for _, tc := range []struct {
		name, result, expect, self string
		learned                    outcome.Status
		disagrees                  bool
		member                     string
	}{
		{"pass agrees", `{"exit_code":0}`, `null`, "success", outcome.Success, false,
			`{"status":"success","confidence":0.95,"rule":"success","detail":"exit code 0","self_report":"success","agrees":true}`},
		{"fail overrides", `{"exit_code":3}`, `null`, "success", outcome.Failure, true,
			`{"status":"failure","confidence":0.95,"rule":"exit_code","detail":"exit code 3","self_report":"success","agrees":false}`},
		{"no verdict of its own", `{"exit_code":3}`, `null`, "neutral", outcome.Failure, false,
			`{"status":"failure","confidence":0.95,"rule":"exit_code","detail":"exit code 3"}`},
		{"expected failure", `{"exit_code":3}`, `{"failure":true}`, "neutral", outcome.Success, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			result, err := pyjson.Parse([]byte(tc.result))
			require.NoError(t, err)
			expect, err := pyjson.Parse([]byte(tc.expect))
			require.NoError(t, err)
			o, err := ObserveResult(result, expect, outcome.Rules{}, tc.self)
			require.NoError(t, err)
			require.Equal(t, tc.learned, o.Learned)
			require.Equal(t, tc.disagrees, o.Disagrees)
			if tc.member != "" {
				require.Equal(t, tc.member, string(pyjson.AppendCompact(nil, o.Member)))
			}
		})
	}
	_, err := ObserveResult(pyjson.Obj(pyjson.KV("exit_code", "x")), pyjson.Value{}, outcome.Rules{}, "neutral")
	require.Error(t, err)
}
