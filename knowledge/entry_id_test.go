package knowledge

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// An entry's id is its content's: 12 hex digits of the hash of its stable
// JSON, whatever the order of its members.
func TestEntryID(t *testing.T) {
	a := pyjson.Obj(pyjson.KV("summary", "s"), pyjson.KV("date", "2026-11-21"))
	b := pyjson.Obj(pyjson.KV("date", "2026-11-21"), pyjson.KV("summary", "s"))
	sum := sha256.Sum256(pyjson.Canonical(a))
	assert.Equal(t, hex.EncodeToString(sum[:])[:12], EntryID(a))
	assert.Equal(t, EntryID(a), EntryID(b))
	assert.NotEqual(t, EntryID(a), EntryID(a.With("summary", "t")))
}

// The last annotation line of an artifact wins; a line without an
// artifact or an annotation explains nothing.
func TestAnnotations(t *testing.T) {
	lines := []Entry{
		Annotation("a1", "first", "", "", "t1"),
		Annotation("a2", "other", "", "", "t1"),
		Annotation("a1", "second", "", "", "t2"),
		pyjson.Obj(pyjson.KV("annotation", pyjson.Obj())),
		pyjson.Obj(pyjson.KV("artifact_id", "a3")),
	}
	anns := Annotations(lines)
	assert.Len(t, anns, 2)
	assert.Equal(t, "second", anns["a1"].StrOf("text"))
	assert.Equal(t, "other", anns["a2"].StrOf("text"))
	assert.Empty(t, Annotations(nil))
}
