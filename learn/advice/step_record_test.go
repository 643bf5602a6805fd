package advice

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// A report's step reads back from its action-log line as it was written;
// a line without one (neutral, or before v5) has none.
func TestStepRecordRoundTrip(t *testing.T) {
	r := StepRecord{State: [3]string{"=t1", "read", "edit"}, Own: true}
	line := pyjson.Obj(pyjson.KV("action", "test"), pyjson.KV("step", r.Value()))
	back, ok := StepRecordOf(line)
	assert.True(t, ok)
	assert.Equal(t, r, back)
	_, ok = StepRecordOf(pyjson.Obj(pyjson.KV("action", "test")))
	assert.False(t, ok)
}
