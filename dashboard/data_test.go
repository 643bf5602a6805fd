package dashboard

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// The page lists the believed observations first, the least recently
// supported first (they are due soonest), then the others, newest
// support first; ties go by id. It shows MaxObservations and counts all.
func TestObservationOrder(t *testing.T) {
	obs := func(id string, current bool, last string) Observation {
		return Observation{Current: current, LastSupported: last, ID: id, Summary: pyjson.StringValue(id)}
	}
	d := &Data{History: NewHistory(), Observations: []Observation{
		obs("o1", false, "2026-01-03"),
		obs("o2", true, "2026-01-01"),
		obs("o3", true, "2026-01-02"),
		obs("o4", false, "2026-01-04"),
		obs("o0", true, "2026-01-02"),
	}}
	var got []string
	for _, v := range d.observations() {
		got = append(got, v.Str())
	}
	assert.Equal(t, []string{"o0", "o3", "o2", "o4", "o1"}, got)

	d.Observations = nil
	for range MaxObservations + 3 {
		d.Observations = append(d.Observations, obs("o", true, "2026-01-01"))
	}
	shown := d.Shown()
	n, _ := shown.Get("observations")
	total, _ := shown.Get("observations_total")
	assert.Equal(t, "100 103", string(pyjson.AppendCompact(nil, n))+" "+string(pyjson.AppendCompact(nil, total)))
	assert.Len(t, d.observations(), MaxObservations)
}

// An artifact is listed on its edge or node, the highest score first,
// and marks the edge or node it is on; a learned transition's members
// are added to its edge only when one was learned.
func TestGraphValue(t *testing.T) {
	learned := pyjson.Obj(pyjson.KV("successes", 2), pyjson.KV("of", 3), pyjson.KV("rate", 0.6667),
		pyjson.KV("contexts", []string{"x"}), pyjson.KV("last_seen", "2026-01-01T00:00:00+00:00"), pyjson.KV("discovered", false), pyjson.KV("extra", 1))
	g := Graph{
		Nodes:  []string{"a", "b"},
		Edges:  []Edge{{From: "a", To: "b", W: 0.123456, Prior: 0.5, Learned: learned}},
		Beside: []Edge{{From: "b", To: "b"}},
		Artifacts: []Artifact{
			{ID: "n1", Kind: "attractor", Score: 0.1, Edge: -1, Node: "b", OnNode: true},
			{ID: "e1", Kind: "wormhole", Score: 0.9, Edge: 0, Annotation: "why"},
			{ID: "x1", Kind: "resonance", Score: 0.1, Edge: 7},
		},
	}
	assert.Equal(t, `{"nodes":[{"id":"a","artifacts":[]},{"id":"b","artifacts":["attractor"]}],`+
		`"edges":[{"from":"a","to":"b","w":0.1235,"prior":0.5,"successes":2,"of":3,"rate":0.6667,"contexts":["x"],"last_seen":"2026-01-01T00:00:00+00:00","discovered":false,"artifacts":["wormhole"]},`+
		`{"from":"b","to":"b","w":0.0,"prior":0.0,"artifacts":[]}],`+
		`"artifacts":[{"id":"e1","kind":"wormhole","score":0.9,"from":"a","to":"b","annotation":"why"},`+
		`{"id":"n1","kind":"attractor","score":0.1,"node":"b","annotation":null},`+
		`{"id":"x1","kind":"resonance","score":0.1,"annotation":null}]}`,
		string(pyjson.AppendCompact(nil, g.value())))
	assert.Equal(t, 2, g.edges())
}
