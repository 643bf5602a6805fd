package knowledge

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

func TestWormholeCorrelation(t *testing.T) {
	hits := []Hit{{Entry: pyjson.Obj(pyjson.KV("summary", strings.Repeat("ü", 130)), pyjson.KV("date", "2026-01-02"))}}
	got := WormholeCorrelation("c6b826111c1d656d", "web_fetch", "", hits)
	want := Correlation("c6b826111c1d656d", "c6b82611", "web_fetch", "", []Suggestion{{Summary: strings.Repeat("ü", 120), Date: "2026-01-02"}})
	assert.Equal(t, string(pyjson.Canonical(want)), string(pyjson.Canonical(got)))
	assert.Equal(t, "web_fetch → None", got.StrOf("wormhole"))
}
