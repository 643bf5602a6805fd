package quickjson

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// Member agrees with pyjson's parser on every document of the table: the
// last of a repeated key, nothing on a missing key or a non-object.
func TestMemberAgreesWithPyjson(t *testing.T) {
	for _, doc := range []string{
		`{"a": 1, "b": 2}`,
		`{"a": 1, "a": 2}`,
		`{"a": {"x": 1}, "b": 0, "a": {"x": 2}}`,
		`{"b": 1}`,
		`{}`,
	} {
		v, err := pyjson.Parse([]byte(doc))
		require.NoError(t, err, doc)
		want, ok := v.Get("a")
		got := Member(gjson.Parse(doc), "a")
		require.Equal(t, ok, got.Exists(), doc)
		if ok {
			assert.JSONEq(t, string(pyjson.AppendCompact(nil, want)), got.Raw, doc)
		}
	}
	assert.False(t, Member(gjson.Parse(`[1, 2]`), "a").Exists(), "a list has no member")
}
