package dashboard

import (
	"testing"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// FuzzShowTable feeds the table writer any JSON document in place of
// show's answer: it must never panic (a member missing, of another kind
// or absurdly long gives a cell, never a crash).
func FuzzShowTable(f *testing.F) {
	for _, seed := range []string{
		`{}`, `[]`, `null`,
		`{"model":"v5","t":3,"cursor":"read","tasks":[{"context":"fix","chain":[{"at":null,"to":"read","evidence":{"outcomes":{"successes":1,"failures":0},"next_step":{"times":1,"of":2,"term":"fix"}},"alternatives":[{"to":"a"},{"to":"b"},{"to":"c"},{"to":"d"}]}]}],"transitions":[{"from":"a","to":"b","successes":1.5,"of":2,"rate":0.75,"discovered":true,"contexts":["x"],"last_seen":"2026-01-01T00:00:00+00:00"}],"transitions_total":1,"context":"fix","suggestions":[{"to":"b","score":1,"components":{"utility":1}}],"goals":[{"id":"g1","progress":{"successes":1,"of":2,"met":true},"content":"c"}],"advisory_precision":{"followed":{"successes":1,"reports":2,"rate":0.5},"not_followed":{"successes":0,"reports":0,"rate":null}},"observations_due":[{"id":"o1","confidence":0.5,"freshness":0.2,"claim":"c"}],"observations_due_count":1}`,
		`{"tasks":[{"chain":[{"at":5,"evidence":{"all_contexts":{"successes":"x","of":[]}}}]}],"transitions":[1,"a",null],"goals":{"id":1}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := pyjson.Parse(data)
		if err != nil {
			return
		}
		_ = ShowTable(v)
	})
}
