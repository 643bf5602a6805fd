package bridge

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The journal records a call as it was sent, before the registry's
// defaults fill it in (Spec.complete), so a replay completes it with the
// defaults of the ucs that replays it. A default is therefore part of the
// journal's format: changing one changes what every recorded call that
// left the field out meant. This test pins them: a change of default must
// come with a new event version (or the default recorded in the event),
// and then this list is updated on purpose (UCS_UPDATE_DEFAULTS=1).
func TestDefaultsArePinned(t *testing.T) {
	var b strings.Builder
	for _, sp := range Specs() {
		for _, f := range sp.Inputs() {
			if f.Default != nil {
				fmt.Fprintf(&b, "%s %s %#v\n", sp.Name, f.Name, f.Default)
			}
		}
	}
	golden := filepath.Join("..", "testdata", "golden", "spec-defaults.txt")
	if os.Getenv("UCS_UPDATE_DEFAULTS") == "1" {
		require.NoError(t, os.WriteFile(golden, []byte(b.String()), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	require.Equal(t, string(want), b.String(),
		"a field's default changed: what recorded calls that left it out meant changes with it (see the test's comment)")
}
