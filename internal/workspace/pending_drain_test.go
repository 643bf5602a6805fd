package workspace

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// TestDrainLine: a call applied or refused leaves the queue, one that may
// pass or is the operator's to fix stays; the call awaited gets its answer
// or why it will never apply.
func TestDrainLine(t *testing.T) {
	const call = `{"op": "report", "args": {}, "input": {"request_id": "r1"}}`
	answer := pyjson.Obj(pyjson.KV("status", "recorded"))
	refused := fault.BadInput(fault.CodeInvalidValue, "", "no such action")
	operators := fault.BadInput("policy_file_unreadable", "", "the policy file")
	isOperators := func(err error) bool { return err == error(operators) }
	cases := []struct {
		name    string
		line    string
		await   string
		err     error
		keep    bool
		applied bool
		dropped bool // d.Err set
		notes   []string
	}{
		{"applied, awaited", call, "r1", nil, false, true, false, nil},
		{"applied, another awaited", call, "r2", nil, false, false, false, nil},
		{"not a call", `[1]`, "", nil, false, false, false, []string{"dropped a pending line that is not a call"}},
		{"not a call, awaited", `{"input": {"request_id": "r1"`, "r1", nil, false, false, true, []string{"dropped a pending line that is not a call"}},
		{"refused, awaited", call, "r1", refused, false, false, true, []string{"dropped a pending report the workspace refuses: no such action"}},
		{"corrupt stays", call, "r1", fault.Corrupt(errors.New("bad"), "state.json"), true, false, false, nil},
		{"operator's stays", call, "r1", operators, true, false, false, nil},
		{"internal stays", call, "", errors.New("disk"), true, false, false, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := Drain{Await: tc.await}
			do := func(op string, _, input pyjson.Value) (pyjson.Value, error) {
				assert.Equal(t, "report", op)
				return answer, tc.err
			}
			assert.Equal(t, tc.keep, d.Line([]byte(tc.line), do, isOperators))
			assert.Equal(t, tc.applied, d.Applied)
			assert.Equal(t, tc.dropped, d.Err != nil)
			assert.Equal(t, tc.notes, d.Notes)
		})
	}
	d := Drain{Notes: []string{"dropped"}}
	d.Done(2, errors.New("locked"))
	assert.Equal(t, []string{"applied 2 pending observation(s) first", "dropped", "the pending queue: locked"}, d.Notes)
}
