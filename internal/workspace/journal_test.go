package workspace

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

func TestParseEventFormats(t *testing.T) {
	for _, tc := range []struct {
		name, line string
		format     int
		model      string
		agent      string
		err        string
	}{
		{"format 1 (0.1.0)", `{"seq":1,"op":"init","hash":"x"}`, 1, LegacyModel, "", ""},
		{"format 2", `{"seq":2,"op":"report","format":2,"model":"v2","agent_id":"a"}`, 2, LegacyModel, "a", ""},
		{"a newer format", `{"seq":3,"op":"report","format":3,"model":"v4"}`, 0, "", "", "event format 3"},
		{"a bad format", `{"seq":3,"op":"report","format":"two"}`, 0, "", "", "format must be an integer"},
		{"not an object", `[1]`, 0, "", "", "must be a JSON object"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := pyjson.Parse([]byte(tc.line))
			require.NoError(t, err)
			ev, err := parseEventValue(v)
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.format, ev.Format)
			assert.Equal(t, tc.model, ev.Model)
			assert.Equal(t, tc.agent, ev.Agent)
		})
	}
}

// An event written by this version hashes and reads back as it was.
func TestEventSealRoundTrip(t *testing.T) {
	ev := Event{Seq: 7, Parent: "p", Op: "report", Args: pyjson.Obj(), Input: pyjson.Obj(pyjson.KV("action", "read")),
		Now: "2026-11-21T21:01:00Z", TBefore: 3, TAfter: 4, StateBefore: "a", StateAfter: "b",
		Files: pyjson.Obj(pyjson.KV("ucs/state/action_log.jsonl", 10)), Format: 2, Model: LegacyModel, Agent: "x"}
	line := ev.seal()
	v, err := pyjson.Parse(line[:len(line)-1])
	require.NoError(t, err)
	back, err := parseEventValue(v)
	require.NoError(t, err)
	assert.Equal(t, ev.Hash, back.contentHash())
	assert.Equal(t, ev.Hash, back.Hash)
	back.raw, ev.raw = pyjson.Value{}, pyjson.Value{}
	assert.Equal(t, string(pyjson.Canonical(ev.value())), string(pyjson.Canonical(back.value())))
}
