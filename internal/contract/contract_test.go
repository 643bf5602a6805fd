package contract

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/goal"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// ops are the descriptions this package declares, generated ones included.
func ops() []Op {
	all := []Op{Init, Consult, Coverage, Report, Reflect, Import, Flush, Resume, Synthesize, Status, Export,
		Check, Verify, Log, Migrate, Rate, Amend, Show, View, GoalAdd, GoalList, GoalShow,
		PolicyShow, PolicyGrant, PolicyRevoke, PolicySet, PolicyClear, PolicyBlock, Observations}
	for _, m := range goal.Moves {
		all = append(all, GoalMove(m))
	}
	return append(all, ObservationActs()...)
}

// TestOpsDescribed: every operation has what the command line, its help
// and the tools' schemas are made of, and no two share a name or a field.
func TestOpsDescribed(t *testing.T) {
	names := map[string]bool{}
	for _, op := range ops() {
		assert.NotEmpty(t, op.Name)
		assert.False(t, names[op.Name], "%s described twice", op.Name)
		names[op.Name] = true
		assert.NotEmpty(t, op.Summary, op.Name)
		assert.False(t, strings.HasSuffix(op.Summary, "."), "%s: a summary has no final period", op.Name)
		assert.NotEmpty(t, op.Example, op.Name)
		assert.NotEmpty(t, op.Output, "%s: its answer is described", op.Name)
		fields := map[string]bool{}
		for _, f := range op.Fields {
			assert.False(t, fields[f.Name], "%s: field %s twice", op.Name, f.Name)
			fields[f.Name] = true
			assert.NotEmpty(t, f.Doc, "%s: field %s", op.Name, f.Name)
		}
		if op.Destructive || op.Operator {
			assert.True(t, op.Mutating || op.Name == "check", "%s: destructive or the operator's, yet changes nothing", op.Name)
		}
	}
}

// code is the fault code of err, or "".
func code(err error) string {
	var fe *fault.Error
	if errors.As(err, &fe) {
		return fe.Code
	}
	return ""
}

func obj(t *testing.T, js string) pyjson.Value {
	t.Helper()
	v, err := pyjson.Parse([]byte(js))
	require.NoError(t, err)
	return v
}

// TestAcross: the rules across an input's fields, operation by operation.
func TestAcross(t *testing.T) {
	tests := []struct {
		name        string
		op          Op
		args, input string
		code        string // "": accepted
	}{
		{"consult", Consult, `{"context": "x", "task": "t1"}`, `null`, ""},
		{"consult: a task id with a control character", Consult, `{"context": "x", "task": "t\u0001"}`, `null`, fault.CodeInvalidValue},
		{"consult: --from and --task-start", Consult, `{"context": "x", "from": "read", "task_start": true}`, `null`, fault.CodeInvalidValue},
		{"consult: --from alone", Consult, `{"context": "x", "from": "read", "task_start": false}`, `null`, ""},
		{"consult: a part it has", Consult, `{"context": "x", "fields": ["dead_ends", "cursor"]}`, `null`, ""},
		{"consult: a part it lacks", Consult, `{"context": "x", "fields": ["dead_end"]}`, `null`, fault.CodeInvalidValue},
		{"amend: a correction", Amend, `{"seq": 3, "action": "read"}`, `null`, ""},
		{"amend: no correction", Amend, `{"seq": 3}`, `null`, fault.CodeMissingField},
		{"policy set: a file", PolicySet, `{"file": "p.json"}`, `null`, ""},
		{"policy set: neither", PolicySet, `{}`, `null`, fault.CodeMissingField},
		{"policy set: both", PolicySet, `{"file": "p.json", "policy": "{}"}`, `null`, fault.CodeMissingField},
		{"policy set: a replay's recorded policy", PolicySet, `{}`, `{"policy": "{}"}`, ""},
		{"report: a task id with a control character", Report, `{}`, `{"action": "read", "success": "success", "task": "a\nb"}`, fault.CodeInvalidValue},
		{"report", Report, `{}`, `{"action": "read", "success": "success", "task": "ab"}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.NotNil(t, tt.op.Across)
			err := tt.op.Across(obj(t, tt.args), obj(t, tt.input))
			assert.Equal(t, tt.code, code(err), "%v", err)
		})
	}
}

// TestRequestID: a request_id is a non-empty string of at most
// MaxRequestID bytes; none is "".
func TestRequestID(t *testing.T) {
	tests := []struct {
		input string
		id    string
		code  string
	}{
		{`{}`, "", ""},
		{`{"request_id": null}`, "", ""},
		{`{"request_id": "r-1"}`, "r-1", ""},
		{`{"request_id": ""}`, "", fault.CodeWrongType},
		{`{"request_id": 7}`, "", fault.CodeWrongType},
		{`{"request_id": "` + strings.Repeat("x", MaxRequestID) + `"}`, strings.Repeat("x", MaxRequestID), ""},
		{`{"request_id": "` + strings.Repeat("x", MaxRequestID+1) + `"}`, "", fault.CodeWrongType},
	}
	for _, tt := range tests {
		id, err := RequestID(obj(t, tt.input))
		assert.Equal(t, tt.id, id, tt.input)
		assert.Equal(t, tt.code, code(err), tt.input)
	}
}
