package bridge

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/contract"
	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// TestOutputDescribed: every operation describes its answer: at least one
// member, each named once, in snake case, with a one-line doc.
func TestOutputDescribed(t *testing.T) {
	for _, sp := range Specs() {
		if !assert.NotEmpty(t, sp.Output, "%s describes no output", sp.Name) {
			continue
		}
		seen := map[string]bool{}
		for _, f := range sp.Outputs() {
			assert.False(t, seen[f.Name], "%s: %s described twice", sp.Name, f.Name)
			seen[f.Name] = true
			assert.Regexp(t, `^[a-z][a-z0-9_]*$`, f.Name, sp.Name)
			assert.NotEmpty(t, strings.TrimSpace(f.Doc), "%s: %s has no doc", sp.Name, f.Name)
			assert.NotContains(t, f.Doc, "\n", "%s: %s", sp.Name, f.Name)
			assert.NotEmpty(t, f.Type.JSONType(), "%s: %s has no JSON type", sp.Name, f.Name)
		}
		assert.Equal(t, sp.Retries, seen["replayed"], "%s: replayed is an answer's of an operation that Retries", sp.Name)
	}
}

// TestOutputSchema: the schema of an answer, for each shape of member.
func TestOutputSchema(t *testing.T) {
	sp := &Spec{Op: contract.Op{Name: "x", Output: []field.Output{
		{Name: "id", Type: field.String, Always: true, Doc: "an id"},
		{Name: "n", Type: field.Int, Doc: "a count"},
		{Name: "score", Type: field.Number, Null: true, Always: true, Doc: "a score, or null"},
		{Name: "tags", Type: field.Strings, Doc: "tags"},
		{Name: "hits", Type: field.Objects, Doc: "hits"},
		{Name: "any", Type: field.List, Doc: "anything"},
	}, Retries: true}}
	want := `{"$schema":"https://json-schema.org/draft/2020-12/schema","title":"x","description":"the answer of x","type":"object",` +
		`"properties":{"id":{"type":"string","description":"an id"},"n":{"type":"integer","description":"a count"},` +
		`"score":{"anyOf":[{"type":"number"},{"type":"null"}],"description":"a score, or null"},` +
		`"tags":{"type":"array","items":{"type":"string"},"description":"tags"},` +
		`"hits":{"type":"array","items":{"type":"object"},"description":"hits"},` +
		`"any":{"type":"array","description":"anything"},` +
		`"replayed":{"type":"boolean","description":"` + replayedOutput.Doc + `"}},` +
		`"required":["id","score"],"additionalProperties":true}`
	require.Equal(t, want, string(pyjson.AppendCompact(nil, sp.OutputSchema())))
	// No member every answer has: no required.
	_, ok := (&Spec{Op: contract.Op{Name: "y", Output: []field.Output{{Name: "a", Type: field.Bool, Doc: "a"}}}}).OutputSchema().Get("required")
	assert.False(t, ok)
}
