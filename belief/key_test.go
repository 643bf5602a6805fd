package belief

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNormalizeSlot(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Always fetch full pages", "alway-fetch-full-pag"},
		{"fetching the full page", "fetch-full-pag"},
		{"Full pages: fetch!", "fetch-full-pag"},
		{"full-page fetches", "fetch-full-pag"},
		{"", DefaultSlot},
		{"a to of", DefaultSlot},
		{"uses", DefaultSlot}, // "use" is a stop word once stemmed: normalised to a fixed point
		{"general", "general"},
		{"Überprüfe die Größe", "die-größ-überprüf"},
	} {
		assert.Equal(t, tc.want, NormalizeSlot(tc.in), tc.in)
	}
}

// A slot never exceeds MaxSlot, keeps whole terms, and normalises to
// itself: a slot an agent copies back from a listing lands on the same
// key.
func TestNormalizeSlotIsAFixedPoint(t *testing.T) {
	for _, in := range []string{
		"Always fetch full pages", "uses", "classes of queries running quickly",
		strings.Repeat("pneumonoultramicroscopicsilicovolcanoconiosis", 3),
		"alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa",
		"naïve café résumé façade", "\xff\xfe invalid bytes",
	} {
		s := NormalizeSlot(in)
		assert.LessOrEqual(t, len(s), MaxSlot, in)
		assert.Equal(t, s, NormalizeSlot(s), in)
		assert.Equal(t, s, CanonicalKey(WorldFact, "", s).Slot, in)
	}
	long := NormalizeSlot("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa")
	assert.Equal(t, "alpha-bravo-charli-delta-echo-foxtrot-golf-hotel-india-juliet", long) // whole terms, sorted
}

func TestNormalizeSubject(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", Global},
		{"  ", Global},
		{"Agent", Agent},
		{"project:UCS  Website", "project:ucs-website"},
		{strings.Repeat("é", 100), strings.Repeat("é", 64)}, // 128 bytes, whole characters
	} {
		assert.Equal(t, tc.want, NormalizeSubject(tc.in), tc.in)
	}
}

func TestDeriveKey(t *testing.T) {
	type in struct {
		kind, subject, slot, typ string
		caps, keywords           []string
		topic                    string
	}
	for _, tc := range []struct {
		name string
		in   in
		want Key
	}{
		{"a dead end about capabilities is their tooling state, slotted by its topic",
			in{typ: "dead_end", caps: []string{"web_fetch", "Browser"}, topic: "fetching pages larger than 1 MB"},
			Key{ToolingState, "capability:browser+web_fetch", "fetch-larger-pag"}},
		{"a methodology about capabilities is their tooling state, slotted by its keywords",
			in{typ: "post_task", caps: []string{"web_fetch"}, keywords: []string{"pricing", "full pages"}},
			Key{ToolingState, "capability:web_fetch", "full-pag-pric"}},
		{"the default reflection type is post_task",
			in{caps: []string{"web_fetch"}, keywords: []string{"pricing"}},
			Key{ToolingState, "capability:web_fetch", "pric"}},
		{"a post-task lesson about no capability is a self model of the agent",
			in{typ: "post_task", keywords: []string{"estimates", "too optimistic"}},
			Key{SelfModel, Agent, "estimat-optimistic"}},
		{"an annotation is a self model even with capabilities",
			in{typ: "annotation", caps: []string{"web_fetch"}, keywords: []string{"shortcut"}},
			Key{SelfModel, Agent, "shortcut"}},
		{"hints win",
			in{kind: "Project_State", subject: "project:UCS", slot: "release date", typ: "dead_end", caps: []string{"web_fetch"}, topic: "x"},
			Key{ProjectState, "project:ucs", "dat-relea"}}, // "releas" stems again to "relea": normalised to a fixed point,
		{"a kind hint alone keeps the derived subject",
			in{kind: "world_fact", caps: []string{"web_fetch"}, topic: "rate limits"},
			Key{WorldFact, "capability:web_fetch", "limit-rat"}},
		{"a kind hint without capabilities is global",
			in{kind: "operator_preference", topic: "short answers"},
			Key{OperatorPreference, Global, "answer-short"}},
		{"an unknown kind hint is ignored",
			in{kind: "opinion", typ: "dead_end", caps: []string{"web_fetch"}},
			Key{ToolingState, "capability:web_fetch", DefaultSlot}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := DeriveKey(tc.in.kind, tc.in.subject, tc.in.slot, tc.in.typ, tc.in.caps, tc.in.keywords, tc.in.topic)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, got, CanonicalKey(got.Kind, got.Subject, got.Slot), "a derived key is canonical")
		})
	}
}

// The order and spelling of capabilities and keywords do not move a key;
// paraphrased topics that share their terms land on the same one.
func TestDeriveKeyIsStable(t *testing.T) {
	want := DeriveKey("", "", "", "dead_end", []string{"browser", "web_fetch"}, nil, "fetching full pages")
	for _, k := range []Key{
		DeriveKey("", "", "", "dead_end", []string{"web_fetch", "browser"}, nil, "fetching full pages"),
		DeriveKey("", "", "", "dead_end", []string{" Web_Fetch", "browser", "web_fetch"}, nil, "Full page fetch"),
		DeriveKey("", "", "", "dead_end", []string{"browser", "web_fetch"}, []string{"ignored"}, "the full pages, fetched"),
		DeriveKey("", "", "", "dead_end", []string{"browser", "web_fetch"}, []string{"pages", "full", "fetching"}, ""),
		DeriveKey("", "", "full page fetches", "dead_end", []string{"browser", "web_fetch"}, nil, "something else"),
	} {
		assert.Equal(t, want, k)
	}
	assert.Equal(t, Key{ToolingState, "capability:browser+web_fetch", "fetch-full-pag"}, want)
	assert.Equal(t, "tooling_state/capability:browser+web_fetch/fetch-full-pag", want.String())
}

func TestKinds(t *testing.T) {
	days := map[Kind]int{ToolingState: 3, ProjectState: 7, SelfModel: 14, OperatorPreference: 30, RelationshipFact: 60, WorldFact: 90}
	for _, k := range Kinds {
		assert.Equal(t, float64(days[k]), k.Cadence().Hours()/24, k)
		got, err := ParseKind(" " + strings.ToUpper(string(k)) + " ")
		assert.NoError(t, err)
		assert.Equal(t, k, got)
	}
	_, err := ParseKind("opinion")
	assert.ErrorIs(t, err, ErrInvalid)
}

func TestContentID(t *testing.T) {
	id := ContentID("reflection", []byte(`{"text":"x"}`))
	assert.Regexp(t, `^reflection:[0-9a-f]{16}$`, id)
	assert.Equal(t, id, ContentID("reflection", []byte(`{"text":"x"}`)))
	assert.NotEqual(t, id, ContentID("reflection", []byte(`{"text":"y"}`)))
}
