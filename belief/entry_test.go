package belief

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/recall"
)

// entryWitness is a call of a fixed agent at a fixed time.
type entryWitness struct{}

func (entryWitness) Agent() string  { return "agent-a" }
func (entryWitness) Now() time.Time { return time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC) }

// A workspace's entries become observations, methodology first; an entry
// that states nothing is skipped and not counted. The evidence of a
// reflection is named by its content without the request id, so the same
// reflection sent again under another request id is the same evidence.
func TestObserveEntriesAndBelieve(t *testing.T) {
	an := recall.NewAnalyzer(recall.Synonyms{})
	b := NewBook()
	meth := []pyjson.Value{
		pyjson.Obj(pyjson.KV("date", "2026-02-01"), pyjson.KV("text", "retry the fetch with a backoff"), pyjson.KV("capabilities", []string{"web_fetch"})),
		pyjson.Obj(pyjson.KV("date", "2026-02-02")),
	}
	dead := []pyjson.Value{pyjson.Obj(pyjson.KV("date", "2026-02-03"), pyjson.KV("text", "scraping the pricing page"), pyjson.KV("capabilities", []string{"web_fetch"}))}
	n, err := b.ObserveEntries(entryWitness{}, meth, dead, an)
	require.NoError(t, err)
	assert.Equal(t, 2, n, "the empty entry is not read")
	require.Len(t, b.Observations(), 2)
	assert.Equal(t, "retry the fetch with a backoff", b.Observations()[0].Claim, "methodology first")

	r, at, ok := EntryReflection(meth[0], "post_task", entryWitness{}.Now())
	require.True(t, ok)
	o1, _, err := b.Believe(entryWitness{}, r, meth[0].With("request_id", "r-1"), at, an)
	require.NoError(t, err)
	o2, _, err := b.Believe(entryWitness{}, r, meth[0].With("request_id", "r-2"), at, an)
	require.NoError(t, err)
	src := func(o *Observation) string { return o.Evidence[len(o.Evidence)-1].Source }
	assert.Equal(t, src(o1), src(o2))
	assert.Equal(t, o1.Evidence[0].Source, src(o1), "the request id is no part of the source")
}

// An outcome ucs observed is exec evidence, one the agent reported is a
// report's.
func TestOutcomeKind(t *testing.T) {
	assert.Equal(t, FromExec, OutcomeKind(true))
	assert.Equal(t, FromReport, OutcomeKind(false))
}
