package belief

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/recall"
)

// witness is a call of agent-1 at t0.
type witness struct{}

func (witness) Agent() string  { return "agent-1" }
func (witness) Now() time.Time { return t0 }

func TestAboutCapability(t *testing.T) {
	for _, c := range []struct {
		subject, capability string
		want                bool
	}{
		{"capability:web_fetch", "web_fetch", true},
		{"capability:a+web_fetch", "web_fetch", true},
		{"capability:web_fetch_all", "web_fetch", false},
		{"project:web_fetch", "web_fetch", false},
		{"global", "web_fetch", false},
	} {
		assert.Equal(t, c.want, AboutCapability(c.subject, c.capability), "%s %s", c.subject, c.capability)
	}
}

// An outcome supports or contradicts only the current observations about
// its action, weighs OutcomeWeight × confidence, says nothing when
// neutral, and a replay of it is duplicate evidence.
func TestAttribute(t *testing.T) {
	b := NewBook()
	fetch, _, err := b.Observe(DeriveKey("", "", "", "dead_end", []string{"web_fetch"}, nil, "large pages"),
		"web_fetch truncates pages over 1 MB", ev("r1", FromReflection, Support, "agent-1"), t0)
	require.NoError(t, err)
	other, _, err := b.Observe(DeriveKey("", "", "", "dead_end", []string{"shell"}, nil, "quoting"),
		"shell quoting breaks on newlines", ev("r2", FromReflection, Support, "agent-1"), t0)
	require.NoError(t, err)
	ids := []string{fetch.ID, other.ID, "obs:missing"}

	_, ok, err := b.Attribute(witness{}, ids, "web_fetch", 0.5, 1, FromReport, "", 1)
	require.NoError(t, err)
	assert.False(t, ok, "a neutral outcome")

	v, ok, err := b.Attribute(witness{}, ids, "web_fetch", 1, 0.8, FromReport, "", 2)
	require.NoError(t, err)
	require.True(t, ok)
	require.Len(t, v.Items(), 1)
	assert.Equal(t, fetch.ID, strOf(t, v.Items()[0], "id"))
	last := fetch.Evidence[len(fetch.Evidence)-1]
	assert.Equal(t, Support, last.Stance)
	assert.InDelta(t, OutcomeWeight*0.8, last.Weight, 1e-12)
	assert.Equal(t, "agent-1", last.By)
	assert.Len(t, other.Evidence, 1)

	n := len(fetch.Evidence)
	_, _, err = b.Attribute(witness{}, ids, "web_fetch", 1, 0.8, FromReport, "", 2)
	require.NoError(t, err)
	assert.Len(t, fetch.Evidence, n, "a replay is duplicate evidence")

	_, _, err = b.Attribute(witness{}, ids, "web_fetch", 0, 1, FromRating, "operator", 3)
	require.NoError(t, err)
	last = fetch.Evidence[len(fetch.Evidence)-1]
	assert.Equal(t, Contradict, last.Stance)
	assert.Equal(t, Operator, last.By)
}

func strOf(t *testing.T, v pyjson.Value, k string) string {
	t.Helper()
	x, _ := v.Get(k)
	return x.Str()
}

// A reflection's claim and key, and a reflection naming what it
// contradicts: a refusal names that observation.
func TestReflection(t *testing.T) {
	for _, c := range []struct {
		r    Reflection
		want string
	}{
		{Reflection{Type: "post_task", Text: "use --retry"}, "use --retry"},
		{Reflection{Type: "dead_end", Topic: "large pages", WhyClosed: "truncated"}, "Dead end: large pages. truncated"},
		{Reflection{Type: "annotation", Text: "x", GeneralizedPattern: "pattern"}, "pattern"},
		{Reflection{Type: "post_task", Text: strings.Repeat("a", MaxText+5)}, strings.Repeat("a", MaxText)},
	} {
		assert.Equal(t, c.want, c.r.Claim())
	}
	an := recall.NewAnalyzer(recall.Synonyms{})
	b := NewBook()
	_, _, err := b.ObserveReflection(Reflection{Type: "post_task", Text: "x", Contradicts: "obs:missing"}, ev("r1", FromReflection, Support, "agent-1"), t0, an)
	var ae *ActError
	require.True(t, errors.As(err, &ae))
	assert.Equal(t, "obs:missing", ae.ID)
	assert.ErrorIs(t, err, ErrNotFound)
}

func TestBookAbout(t *testing.T) {
	b := NewBook()
	assert.Empty(t, b.About("web_fetch"), "an empty book")
	fetch, _, err := b.Observe(DeriveKey("", "", "", "dead_end", []string{"web_fetch"}, nil, "large pages"),
		"web_fetch truncates pages over 1 MB", ev("r1", FromReflection, Support, "agent-1"), t0)
	require.NoError(t, err)
	both, _, err := b.Observe(DeriveKey("", "", "", "dead_end", []string{"shell", "web_fetch"}, nil, "piping"),
		"piping a fetch into the shell loses the status", ev("r2", FromReflection, Support, "agent-1"), t0)
	require.NoError(t, err)
	_, _, err = b.Observe(DeriveKey("", "", "", "dead_end", []string{"shell"}, nil, "quoting"),
		"shell quoting breaks on newlines", ev("r3", FromReflection, Support, "agent-1"), t0)
	require.NoError(t, err)
	assert.Equal(t, []string{fetch.ID, both.ID}, b.About("web_fetch"), "in the book's order, a joint subject included")
	assert.Len(t, b.About("shell"), 2)
	assert.Empty(t, b.About("web_search"))
}
