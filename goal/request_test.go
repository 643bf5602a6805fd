package goal

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

func TestRequestOf(t *testing.T) {
	n, x := int64(2), 0.9
	for _, c := range []struct {
		name string
		args pyjson.Value
		want Request
	}{
		{"content only", pyjson.Obj(pyjson.KV("content", "ship it")), Request{Content: "ship it"}},
		{"count and retries", pyjson.Obj(pyjson.KV("content", "ship it"), pyjson.KV("parent", "g1"), pyjson.KV("count", 2), pyjson.KV("retries", 3)),
			Request{Content: "ship it", Parent: "g1", Count: &n, Retries: 3}},
		{"threshold", pyjson.Obj(pyjson.KV("content", "fetch"), pyjson.KV("threshold", 0.9)), Request{Content: "fetch", Threshold: &x}},
	} {
		t.Run(c.name, func(t *testing.T) { assert.Equal(t, c.want, RequestOf(c.args)) })
	}
}
