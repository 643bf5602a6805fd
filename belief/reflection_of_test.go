package belief

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
)

func TestReflectionOf(t *testing.T) {
	in := knowledge.ReflectionInput{Type: "dead_end", Text: "t", Topic: "large pages", WhyClosed: "truncated",
		GeneralizedPattern: "g", ArtifactID: "a", Capabilities: []string{"web_fetch"}, Keywords: []string{"pages"}}
	raw := pyjson.Obj(pyjson.KV("kind", "constraint"), pyjson.KV("subject", "capability:web_fetch"),
		pyjson.KV("slot", "size"), pyjson.KV("contradicts", "obs:1"), pyjson.KV("topic", "ignored: the input's"))
	assert.Equal(t, Reflection{Type: "dead_end", Text: "t", Topic: "large pages", WhyClosed: "truncated",
		GeneralizedPattern: "g", ArtifactID: "a", Capabilities: []string{"web_fetch"}, Keywords: []string{"pages"},
		Kind: "constraint", Subject: "capability:web_fetch", Slot: "size", Contradicts: "obs:1"}, ReflectionOf(in, raw))
}
