package search

import (
	"slices"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
)

// Capabilities runs a capability-only methodology search (no keywords, no
// routing: how the report's correlation and synthesize's misalignments
// ask) from the capabilities' lists instead of the whole file. Its hits
// are those of knowledge.SearchMethodology over every entry: a score there
// is 3 points per capability of q the entry names, scaled by decay, which
// the lists give. Like Candidates, it never writes.
func Capabilities(tx *workspace.Tx, q knowledge.Query) ([]knowledge.Hit, error) {
	search := func() ([]knowledge.Hit, error) {
		all, err := tx.List(workspace.RelMethodology)
		if err != nil {
			return nil, err
		}
		return knowledge.SearchMethodology(all, q), nil
	}
	var caps []int
	for _, c := range q.Capabilities {
		i := tx.Manifest().Index(c)
		if i < 0 {
			return search() // no list for a name the manifest lacks
		}
		if !slices.Contains(caps, i) {
			caps = append(caps, i)
		}
	}
	if len(q.Keywords) > 0 || q.Routing.Kind() == pyjson.Object || !tx.IndexCurrent(workspace.RelMethodology) {
		return search()
	}
	// The lists merged in file order, as the search sees the entries; an
	// entry on k of the lists has k of the capabilities. Each list is in
	// file order already (entries are indexed as they are appended).
	var all []workspace.Posting
	for _, i := range caps {
		ps, err := tx.CapabilityPostings(i)
		if err != nil { // a damaged index: search the file
			tx.IndexDamaged(workspace.RelMethodology)
			return search()
		}
		all = mergeByOffset(all, ps)
	}
	decay := map[string]float64{}
	var hits []knowledge.RawHit
	var at []workspace.Posting
	for i := 0; i < len(all); {
		j := i + 1
		for j < len(all) && all[j].Off == all[i].Off {
			j++
		}
		d, ok := decay[all[i].Date]
		if !ok {
			d = knowledge.Decay(all[i].Date, q.Now, q.DecayRate)
			decay[all[i].Date] = d
		}
		hits = append(hits, knowledge.RawHit{Index: len(at), Score: float64(j-i) * 3 * d})
		at = append(at, all[i])
		i = j
	}
	var entries []pyjson.Value
	r := tx.EntryReader(workspace.RelMethodology)
	defer r.Close()
	for _, i := range knowledge.TopRaw(hits, q.Max) {
		v, err := r.Read(at[i].Off, at[i].N)
		if err != nil {
			return nil, err
		}
		entries = append(entries, v)
	}
	entries = append(entries, tx.Added(workspace.RelMethodology)...)
	return knowledge.SearchMethodology(entries, q), nil
}

// mergeByOffset merges two lists sorted by offset into a new one, a's
// posting first where both name the same entry (a stable sort of a then b
// would give the same).
func mergeByOffset(a, b []workspace.Posting) []workspace.Posting {
	if len(a) == 0 {
		return b
	}
	out := make([]workspace.Posting, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if b[0].Off < a[0].Off {
			out, b = append(out, b[0]), b[1:]
		} else {
			out, a = append(out, a[0]), a[1:]
		}
	}
	return append(append(out, a...), b...)
}
