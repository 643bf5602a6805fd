package belief

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A book written, read and written again gives the same bytes, and the
// same answers.
func TestCodecRoundTrip(t *testing.T) {
	for seed := range uint64(10) {
		b := randomBook(t, seed, 200, func(int, *Book) {})
		data := b.AppendJSON(nil)
		got, err := DecodeBook(data)
		require.NoError(t, err, "seed %d", seed)
		assert.Equal(t, string(data), string(got.AppendJSON(nil)))
		assert.Equal(t, b.Observations(), got.Observations())
		for _, o := range b.Observations() {
			if o.Status.Current() {
				assert.Equal(t, o.ID, got.Active(o.Key).ID)
			}
		}
		now := t0.Add(1000 * day)
		assert.Equal(t, b.Due(now), got.Due(now))
	}
}

// The format, member by member. The numbers are exact (two sources, age
// 0) so that the bytes are the same on every machine.
func TestCodecFormat(t *testing.T) {
	b := NewBook()
	assert.Equal(t, `{"version":1,"observations":[]}`, string(b.AppendJSON(nil)))
	key := CanonicalKey(ToolingState, "capability:web_fetch", "pages")
	e := ev("r1", FromReflection, Support, "agent-1")
	e.Note = "said \"so\"\n"
	e.At = time.Date(2025, 3, 1, 9, 0, 0, 500, time.FixedZone("CET", 3600)) // written in UTC
	_, _, err := b.Observe(key, "web_fetch truncates pages", e, t0)
	require.NoError(t, err)
	_, _, err = b.Observe(key, "web_fetch truncates pages", ev("r2", FromReflection, Support, "agent-1"), t0)
	require.NoError(t, err)
	want := `{"version":1,"observations":[{"id":"` + b.Observations()[0].ID + `","kind":"tooling_state",` +
		`"subject":"capability:web_fetch","slot":"pag","claim":"web_fetch truncates pages","status":"active",` +
		`"supersedes":"","superseded_by":"","retired":"","created":"2025-03-01T09:00:00Z",` +
		`"last_supported":"2025-03-01T09:00:00Z",` +
		`"confidence":{"value":0.5,"sources":0.5,"diversity":0.5,"support":2,` +
		`"contradiction":0,"recency":1,"operator":0,"at":"2025-03-01T09:00:00Z"},` +
		`"evidence":[{"source":"reflection:r1","source_kind":"reflection","stance":"support","weight":1,` +
		`"at":"2025-03-01T08:00:00.0000005Z","by":"agent-1","note":"said \"so\"\n"},` +
		`{"source":"reflection:r2","source_kind":"reflection","stance":"support","weight":1,` +
		`"at":"2025-03-01T09:00:00Z","by":"agent-1","note":""}]}]}`
	assert.Equal(t, want, string(b.AppendJSON(nil)))
}

func TestDecodeBookRefuses(t *testing.T) {
	b := NewBook()
	_, _, err := b.Observe(CanonicalKey(ToolingState, "capability:web_fetch", "pages"), "claim", ev("r1", FromReflection, Support, "agent-1"), t0)
	require.NoError(t, err)
	good := string(b.AppendJSON(nil))
	for _, tc := range []struct{ name, from, to, want string }{
		{"not JSON", good, good[:len(good)-1], "not valid JSON"},
		{"another version", `"version":1`, `"version":2`, "version must be 1"},
		{"a version as a float", `"version":1`, `"version":1.0`, "version must be 1"},
		{"an unknown member", `"retired":""`, `"retired":"","mood":"sure"`, `unknown member "mood"`},
		{"a member twice", `"retired":""`, `"retired":"","retired":""`, `member "retired" twice`},
		{"a missing member", `"retired":"",`, ``, `no member "retired"`},
		{"a time not in UTC", `"created":"2025-03-01T09:00:00Z"`, `"created":"2025-03-01T10:00:00+01:00"`, "created must be a time in RFC 3339 UTC"},
		{"a time not canonical", `"created":"2025-03-01T09:00:00Z"`, `"created":"2025-03-01T09:00:00.000Z"`, "created must be a time"},
		{"a number out of range", `"weight":1`, `"weight":1e999`, "weight must be a finite number"},
		{"a string of another type", `"claim":"claim"`, `"claim":7`, "claim must be a string"},
		{"invalid UTF-8", `"claim":"claim"`, "\"claim\":\"cl\xffaim\"", "claim must be a string of valid UTF-8"},
		{"observations not an array", good, `{"version":1,"observations":{}}`, "observations must be an array"},
		{"an evidence not an object", `"evidence":[`, `"evidence":[1,`, "evidence[0] must be an object"},
		{"an invariant broken", `"status":"active"`, `"status":"superseded"`, "superseded is the status of what was superseded"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := strings.Replace(good, tc.from, tc.to, 1)
			require.NotEqual(t, good, data)
			_, err := DecodeBook([]byte(data))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// maxFuzzInput bounds what the fuzzer mutates (a few observations).
const maxFuzzInput = 8 << 10

// FuzzDecodeBook: DecodeBook never panics, and a book it accepts is
// written back to bytes it reads again into the same bytes.
func FuzzDecodeBook(f *testing.F) {
	f.Add([]byte(`{"version":1,"observations":[]}`))
	f.Add([]byte(`{}`))
	f.Add([]byte(`[]`))
	small := randomBook(f, 1, 12, func(int, *Book) {})
	f.Add(small.AppendJSON(nil))
	lifecycle := NewBook()
	k := CanonicalKey(ToolingState, "capability:web_fetch", "pages")
	_, _, _ = lifecycle.Observe(k, "truncates", ev("r1", FromReflection, Support, "agent-1"), t0)
	o, _, _ := lifecycle.Observe(k, "streams", ev("r2", FromReflection, Support, Operator), t0)
	_, _, _ = lifecycle.Contradict(o.ID, ev("x1", FromExec, Contradict, "agent-1"), t0)
	_, _, _ = lifecycle.Retire(o.ID, Operator, "no \u00e9\n", t0)
	f.Add(lifecycle.AppendJSON(nil))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > maxFuzzInput {
			return
		}
		b, err := DecodeBook(data)
		if err != nil {
			return
		}
		out := b.AppendJSON(nil)
		b2, err := DecodeBook(out)
		if err != nil {
			t.Fatalf("a decoded book's bytes do not decode: %v\n%s", err, out)
		}
		if out2 := b2.AppendJSON(nil); !bytes.Equal(out, out2) {
			t.Fatalf("not a fixed point:\n%s\n%s", out, out2)
		}
		if errs := b.Check(); len(errs) > 0 {
			t.Fatalf("a decoded book breaks an invariant: %v", errs)
		}
	})
}
