package torusfield

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// edit returns a copy of v with the value at path replaced by fn(old) (old
// is null when the member is missing; it is then appended). A path element
// is an object key (string) or an array index (int). When fn returns
// removed, the member or element is deleted.
func edit(v pyjson.Value, path []any, fn func(pyjson.Value) pyjson.Value) pyjson.Value {
	if len(path) == 0 {
		return fn(v)
	}
	switch p := path[0].(type) {
	case string:
		ms := slices.Clone(v.Members())
		for i := range ms {
			if ms[i].Key == p {
				nv := edit(ms[i].Value, path[1:], fn)
				if isRemoved(nv) {
					return pyjson.ObjectValue(slices.Delete(ms, i, i+1))
				}
				ms[i].Value = nv
				return pyjson.ObjectValue(ms)
			}
		}
		if nv := edit(pyjson.NullValue(), path[1:], fn); !isRemoved(nv) {
			ms = append(ms, pyjson.Member{Key: p, Value: nv})
		}
		return pyjson.ObjectValue(ms)
	case int:
		items := slices.Clone(v.Items())
		nv := edit(items[p], path[1:], fn)
		if isRemoved(nv) {
			return pyjson.ArrayValue(slices.Delete(items, p, p+1))
		}
		items[p] = nv
		return pyjson.ArrayValue(items)
	}
	panic(fmt.Sprintf("bad path element %v", path[0]))
}

var removed = pyjson.StringValue("\x00removed\x00")

func isRemoved(v pyjson.Value) bool {
	return v.Kind() == pyjson.String && v.Str() == removed.Str()
}

func set(x any) func(pyjson.Value) pyjson.Value {
	return func(pyjson.Value) pyjson.Value { return pyjson.From(x) }
}

func del(pyjson.Value) pyjson.Value { return removed }

// renameKey renames one member of an object, keeping its place.
func renameKey(from, to string) func(pyjson.Value) pyjson.Value {
	return func(v pyjson.Value) pyjson.Value {
		ms := slices.Clone(v.Members())
		for i := range ms {
			if ms[i].Key == from {
				ms[i].Key = to
			}
		}
		return pyjson.ObjectValue(ms)
	}
}

// badState is a corruption of init-state.json and the field LoadState must
// name.
type badState struct {
	name  string
	path  []any
	fn    func(pyjson.Value) pyjson.Value
	field string
	msg   string
}

func badStates() []badState {
	return []badState{
		{"wrong version", []any{"version"}, set("torusfield_kernel.v0.2.0"), "version", "want"},
		{"version missing", []any{"version"}, del, "version", "want"},
		{"version not a string", []any{"version"}, set(2), "version", "want"},
		{"state not an object", []any{"state"}, set([]pyjson.Value{}), "state", "must be an object"},
		{"other theta_bins", []any{"state", "theta_bins"}, set(23), "state.theta_bins", "the grid has 24"},
		{"phi_bins a float", []any{"state", "phi_bins"}, set(32.0), "state.phi_bins", "integer"},
		{"negative t", []any{"state", "t"}, set(-1), "state.t", "negative"},
		{"t a string", []any{"state", "t"}, set("200"), "state.t", "integer"},
		{"energy one cell short", []any{"state", "fields", "energy"}, func(v pyjson.Value) pyjson.Value {
			return pyjson.ArrayValue(v.Items()[:767])
		}, "state.fields.energy", "has 767 cells"},
		{"memory one cell long", []any{"state", "fields", "memory"}, func(v pyjson.Value) pyjson.Value {
			return pyjson.ArrayValue(append(slices.Clone(v.Items()), pyjson.FloatValue(0)))
		}, "state.fields.memory", "has 769 cells"},
		{"context_energy empty", []any{"state", "fields", "context_energy"}, set([]pyjson.Value{}),
			"state.fields.context_energy", "has 0 cells"},
		{"field not a list", []any{"state", "fields", "salience"}, set(0.0), "state.fields.salience", "list of numbers"},
		{"string in a field", []any{"state", "fields", "energy", 5}, set("1.0"), "state.fields.energy[5]", "must be a number"},
		{"null in a field", []any{"state", "fields", "memory", 767}, set(nil), "state.fields.memory[767]", "must be a number"},
		{"bool in a field", []any{"state", "fields", "energy", 0}, set(true), "state.fields.energy[0]", "must be a number"},
		{"string port", []any{"state", "ports", "cap_read"}, set("x"), "state.ports.cap_read", "must be a number"},
		{"one edge too few", []any{"graph", "edges", 248}, del, "graph.edges", "248 edges, the manifest resolves to 249"},
		{"one edge too many", []any{"graph", "edges"}, func(v pyjson.Value) pyjson.Value {
			return pyjson.ArrayValue(append(slices.Clone(v.Items()), v.Items()[0]))
		}, "graph.edges", "250 edges"},
		{"edges not a list", []any{"graph", "edges"}, set(true), "graph.edges", "must be a list"},
		{"other destination", []any{"graph", "edges", 5, "dst"}, set("tts"), "graph.edges[5]", "another manifest"},
		{"other source", []any{"graph", "edges", 0, "src"}, set("write"), "graph.edges[0]", "another manifest"},
		{"source missing", []any{"graph", "edges", 17, "src"}, del, "graph.edges[17]", "another manifest"},
		{"edge not an object", []any{"graph", "edges", 3}, set("read→write"), "graph.edges[3]", "must be an object"},
		{"w a string", []any{"graph", "edges", 3, "w"}, set("0.1"), "graph.edges[3].w", "must be a number"},
		{"bias key not a number", []any{"policy", "edge_bias"}, renameKey("3", "x"), "policy.edge_bias.x", "index of an edge"},
		{"bias key negative", []any{"policy", "edge_bias"}, renameKey("3", "-1"), "policy.edge_bias.-1", "index of an edge"},
		{"bias key past the edges", []any{"policy", "edge_bias"}, renameKey("3", "249"), "policy.edge_bias.249", "index of an edge"},
		{"bias key with a leading zero", []any{"policy", "edge_bias"}, renameKey("3", "03"), "policy.edge_bias.03", "index of an edge"},
		{"bias key a float", []any{"policy", "edge_bias"}, renameKey("3", "3.0"), "policy.edge_bias.3.0", "index of an edge"},
		{"bias a string", []any{"policy", "edge_bias", "2"}, set("1"), "policy.edge_bias.2", "must be a number"},
		{"edge_bias a list", []any{"policy", "edge_bias"}, set([]pyjson.Value{}), "policy.edge_bias", "must be an object"},
		{"cursor node unknown", []any{"cursor", "node"}, set("not_a_capability"), "cursor.node", "not a capability"},
		{"cursor node a number", []any{"cursor", "node"}, set(3), "cursor.node", "not a capability"},
		{"cursor node a semantic label", []any{"cursor", "node"}, set("analysis"), "cursor.node", "not a capability"},
		{"cursor theta a float", []any{"cursor", "theta"}, set(1.5), "cursor.theta", "integer"},
		{"pp a string", []any{"pp", "truth"}, set("high"), "pp.truth", "must be a number"},
		{"artifact edge out of range", []any{"artifacts", 0, "payload", "edge_index"}, set(249),
			"artifacts[0].payload.edge_index", "not an edge"},
		{"artifact score missing", []any{"artifacts", 1, "score"}, del, "artifacts[1].score", "missing"},
		{"artifact id empty", []any{"artifacts", 2, "id"}, set(""), "artifacts[2].id", "non-empty string"},
		{"artifact payload a list", []any{"artifacts", 0, "payload"}, set([]string{"a"}), "artifacts[0].payload", "must be an object"},
		{"artifact meta a list", []any{"artifacts", 0, "meta"}, set([]string{"a"}), "artifacts[0].meta", "must be an object"},
		{"trace edge out of range", []any{"trace", "theta_tail", 3, "edge_index"}, set(-1),
			"trace.theta_tail[3].edge_index", "not an edge"},
		{"trace reward missing", []any{"trace", "theta_tail", 49, "reward"}, del, "trace.theta_tail[49].reward", "missing"},
		{"trace cost a string", []any{"trace", "theta_tail", 0, "cost"}, set("0.2"), "trace.theta_tail[0].cost", "must be a number"},
		{"phi log not a list", []any{"trace", "phi_log"}, set(1), "trace.phi_log", "must be a list"},
	}
}

func initState(t testing.TB) pyjson.Value {
	v, err := pyjson.Parse(fixture(t, "init-state.json"))
	require.NoError(t, err)
	return v
}

func requireStateError(t *testing.T, err error, field, msg string) {
	t.Helper()
	require.Error(t, err)
	var se *StateError
	require.True(t, errors.As(err, &se), "%T is not a *StateError: %v", err, err)
	assert.Equal(t, field, se.Field, "error: %v", err)
	assert.Contains(t, se.Msg, msg)
}

// TestLoadStateRejects: every corruption is refused with a StateError that
// names the field.
func TestLoadStateRejects(t *testing.T) {
	m := DefaultManifest()
	good := initState(t)
	for _, c := range badStates() {
		t.Run(c.name, func(t *testing.T) {
			bad := edit(good, c.path, c.fn)
			e, err := LoadState(m, pyjson.Indent(bad), Options{})
			assert.Nil(t, e)
			requireStateError(t, err, c.field, c.msg)
		})
	}
}

// TestLoadStateRejectsText: documents that are not JSON as the reference
// writes it. 1e999 (json.loads reads inf), NaN and Infinity (which json.dumps
// writes for non-finite floats) are parse errors.
func TestLoadStateRejectsText(t *testing.T) {
	m := DefaultManifest()
	data := fixture(t, "init-state.json")
	first := []byte("22.508069460802194") // energy[0]
	require.True(t, bytes.Contains(data, first))
	for _, c := range []struct{ name, with string }{
		{"1e999", "1e999"},
		{"-1e999", "-1e999"},
		{"NaN", "NaN"},
		{"Infinity", "Infinity"},
		{"-Infinity", "-Infinity"},
		{"int beyond int64", "99999999999999999999"},
		{"truncated", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			doc := bytes.Replace(data, first, []byte(c.with), 1)
			if c.with == "" {
				doc = data[:len(data)/2]
			}
			_, err := LoadState(m, doc, Options{})
			requireStateError(t, err, "", "invalid JSON")
		})
	}
	for _, doc := range []string{"", "null", "[]", `"torusfield_kernel.v0.2.1"`, "{}"} {
		_, err := LoadState(m, []byte(doc), Options{})
		var se *StateError
		require.True(t, errors.As(err, &se), "%q: %v", doc, err)
	}
	// A string where a number belongs, written as text.
	doc := bytes.Replace(data, first, []byte(`"22.5"`), 1)
	_, err := LoadState(m, doc, Options{})
	requireStateError(t, err, "state.fields.energy[0]", "must be a number")
}

// TestRestoreFailureLeavesEngineUnchanged: a Restore that fails, however far
// it got, changes nothing: not the state file, not the random stream.
func TestRestoreFailureLeavesEngineUnchanged(t *testing.T) {
	m := DefaultManifest()
	good := initState(t)
	e, twin := New(m, Options{}), New(m, Options{})
	e.Run(130) // the first artifacts appear at t=125
	twin.Run(130)
	before := e.MarshalState()
	require.Positive(t, e.Artifacts.Len())
	for _, c := range badStates() {
		require.Error(t, e.Restore(edit(good, c.path, c.fn)), c.name)
		require.Equal(t, string(before), string(e.MarshalState()), "after %s", c.name)
	}
	require.Error(t, e.Restore(pyjson.ArrayValue(nil)))
	e.Run(40)
	twin.Run(40)
	assert.Equal(t, string(twin.MarshalState()), string(e.MarshalState()))

	// And a good state does replace everything.
	require.NoError(t, e.Restore(good))
	assert.Equal(t, string(fixture(t, "init-state.json")), string(e.MarshalState()))
}

// TestStateRoundTripOwn: export → import → export is the identity at every
// stage of a run, including before the first φ-cycle and with a full θ log.
func TestStateRoundTripOwn(t *testing.T) {
	m := DefaultManifest()
	e := New(m, Options{})
	for _, steps := range []int{0, 1, 24, 25, 100, 500} {
		e.Run(steps - e.Grid.T)
		data := e.MarshalState()
		back, err := LoadState(m, data, Options{})
		require.NoError(t, err, "t=%d", e.Grid.T)
		assert.Equal(t, string(data), string(back.MarshalState()), "t=%d", e.Grid.T)
		assert.Equal(t, e.Digest(), back.Digest())
	}
	// A smaller grid round-trips too, and a state does not load on a grid of
	// another size.
	small := New(m, Options{ThetaBins: 3, PhiBins: 4})
	small.Run(30)
	back, err := LoadState(m, small.MarshalState(), Options{ThetaBins: 3, PhiBins: 4})
	require.NoError(t, err)
	assert.Equal(t, string(small.MarshalState()), string(back.MarshalState()))
	_, err = LoadState(m, small.MarshalState(), Options{})
	requireStateError(t, err, "state.theta_bins", "the grid has 24")
}

// TestLoadStateOptionalSections: the reference's import_state skips any
// section that is absent, and so does LoadState.
func TestLoadStateOptionalSections(t *testing.T) {
	m := DefaultManifest()
	good := initState(t)
	fresh := New(m, Options{})
	for _, key := range []string{"state", "graph", "artifacts", "policy", "pp", "trace", "cursor", "injection_schedule"} {
		e, err := LoadState(m, pyjson.Indent(edit(good, []any{key}, del)), Options{})
		require.NoError(t, err, key)
		if key == "cursor" {
			assert.Equal(t, fresh.Cursor, e.Cursor)
		}
	}
	e, err := LoadState(m, []byte(`{"version": "torusfield_kernel.v0.2.1"}`), Options{})
	require.NoError(t, err)
	assert.Equal(t, string(fresh.MarshalState()), string(e.MarshalState()))
}

// TestRestoreNegativeCursor: the reference's step computes the next cursor
// with Python's %, which is never negative, so a state file with a negative
// cursor position comes back in range after one step.
func TestRestoreNegativeCursor(t *testing.T) {
	var f struct {
		BootSteps int      `json:"boot_steps"`
		Cursor    [2]int   `json:"cursor"`
		After     [][2]int `json:"after_steps"`
	}
	loadFormulas(t, "cursor.json", &f)
	m := DefaultManifest()
	e := New(m, Options{})
	e.Run(f.BootSteps)
	v := edit(edit(e.State(), []any{"cursor", "theta"}, set(f.Cursor[0])), []any{"cursor", "phi"}, set(f.Cursor[1]))
	again := New(m, Options{})
	require.NoError(t, again.Restore(v))
	for i, want := range f.After {
		again.Step()
		assert.Equal(t, want, [2]int{again.Cursor.Theta, again.Cursor.Phi}, "after step %d", i+1)
	}
}

func TestStateErrorMessage(t *testing.T) {
	assert.Equal(t, "state: cursor.node: x", (&StateError{Field: "cursor.node", Msg: "x"}).Error())
	assert.True(t, strings.HasPrefix((&StateError{Msg: "y"}).Error(), "state: y"))
}
