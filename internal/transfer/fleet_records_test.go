package transfer

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
)

// What a journal event records of the fleet is read back whatever its
// bytes: a record the model cannot read is an error, never a panic, and
// every record accepted is one the model reads.
func FuzzRecordedFleet(f *testing.F) {
	f.Add(`{"c\u001f1\u001f":{"m":1,"n":1,"t":1,"to":{"grep":[1,0,1,0,1]},"u":1}}`)
	f.Add(`{"s\u001f1\u001f":{"grep":[0.1,0.05,3,2]}}`)
	f.Add(`{"x":{}}`)
	f.Add(`[]`)
	f.Add(`{"c\u001f1\u001f":{"m":-1,"n":1,"t":1,"to":{},"u":1}}`)
	f.Fuzz(func(t *testing.T, s string) {
		v, err := pyjson.Parse([]byte(s))
		if err != nil {
			return
		}
		st, err := RecordedFleet(v)
		if err != nil {
			return
		}
		for k, raw := range st {
			require.NoError(t, nextstep.CheckRecord(k, raw))
		}
	})
}
