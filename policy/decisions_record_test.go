package policy

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// An event records the policy file a call used and a denial by default,
// in sorted members; a call that used neither records its input as it is.
func TestDecisionsRecord(t *testing.T) {
	Recorded := func(in pyjson.Value, used *File, denied bool) pyjson.Value {
		d := Decisions{File: used, FileUsed: used != nil, DeniedByDefault: denied}
		return d.Record(in)
	}
	compact := func(v pyjson.Value) string { return string(pyjson.AppendCompact(nil, v)) }
	in := pyjson.Obj(pyjson.KV("z", 1), pyjson.KV("a", 2))
	assert.Equal(t, `{"z":1,"a":2}`, compact(Recorded(in, nil, false)))
	assert.Equal(t, `null`, compact(Recorded(pyjson.NullValue(), nil, false)))
	assert.Equal(t, `{"policy_default":"deny"}`, compact(Recorded(pyjson.NullValue(), nil, true)))
	f := &File{Path: "/p.json", Policy: New()}
	assert.Equal(t, `{"a":2,"policy_default":"deny","policy_file":{"grants":[],"path":"/p.json"},"z":1}`, compact(Recorded(in, f, true)))
	assert.Equal(t, `{"a":2,"policy_file":{"grants":[],"path":"/p.json"},"z":1}`, compact(Recorded(in, f, false)))
}
