package bridge

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
)

// TestToolError: a tool's error names arguments where the command line's
// names flags, whole words only, and leaves everything else as it was.
func TestToolError(t *testing.T) {
	for _, c := range []struct{ op, msg, hint, wantMsg, wantHint string }{
		{"consult", "--context is required", "give --context: the task or situation",
			`argument "context" is required`, `give argument "context": the task or situation`},
		{"verify", "--from and --from-snapshot are exclusive", "give --from-snapshot alone",
			`argument "from" and argument "from_snapshot" are exclusive`, `give argument "from_snapshot" alone`},
		{"consult", "--contexts is no flag; run `ucs --help`", "x--context",
			"--contexts is no flag; run `ucs --help`", "x--context"},
		{"amend", "amend needs a correction", "give --success, --action or both",
			"amend needs a correction", `give argument "success", argument "action" or both`},
		{"report", `required field "action" is missing`, `add "action" to the input`,
			`required field "action" is missing`, `add "action" to the input`},
	} {
		err := Lookup(c.op).ToolError(fault.BadInput("missing_field", c.hint, "%s", c.msg))
		e := err.(*fault.Error)
		assert.Equal(t, c.wantMsg, e.Msg, c.op)
		assert.Equal(t, c.wantHint, e.Hint, c.op)
		assert.Equal(t, "missing_field", e.Code)
	}
	assert.Nil(t, Lookup("status").ToolError(nil))
}
