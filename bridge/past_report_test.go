package bridge

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// rate and amend name a past report by its seq: one that does not exist,
// an event that is no report, and a report of no capability are bad input
// with a message that says which, and leave the workspace as it was; a
// report is rated.
func TestPastReport(t *testing.T) {
	b := newWorkspace(t)           // seq 1: init
	_, err := report(t, b, "read") // seq 2
	require.NoError(t, err)
	_, err = report(t, b, "no_such_capability") // seq 3
	require.NoError(t, err)
	rate := func(seq int) (pyjson.Value, error) {
		return b.Do(Call{Op: "rate", Args: pyjson.Obj(pyjson.KV("seq", seq), pyjson.KV("success", "failure"))})
	}
	for _, tc := range []struct {
		seq  int
		want string
	}{
		{0, "event 0 does not exist (the journal has 3 events)"},
		{4, "event 4 does not exist (the journal has 3 events)"},
		{1, `event 1 is a "init", not a report`},
		{3, `event 3 reported "no_such_capability", which is no capability: nothing was learned`},
	} {
		_, err := rate(tc.seq)
		var fe *fault.Error
		require.True(t, errors.As(err, &fe), "seq %d: %v", tc.seq, err)
		assert.Equal(t, fault.CodeNotAReport, fe.Code, "seq %d", tc.seq)
		assert.Equal(t, tc.want, fe.Msg, "seq %d", tc.seq)
	}
	out, err := rate(2)
	require.NoError(t, err)
	assert.Equal(t, "rated", out.StrOf("status"))
	assert.Equal(t, "read", out.StrOf("action"))
	assert.Equal(t, "success", out.StrOf("reported"))
	check, err := b.Check(false)
	require.NoError(t, err, "check: %s", pyjson.Indent(check))
}
