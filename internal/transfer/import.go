package transfer

import (
	"strconv"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/belief"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// A Target is the workspace an import merges a package's knowledge into,
// as the importing call reaches it: its transaction's lists and files,
// its engine's edges and its manifest.
type Target struct {
	// Governs says the workspace's model governs its knowledge (v4 and
	// later): observations and Markdown are merged, and the answer says
	// what was not imported.
	Governs bool
	// Again says the package was imported before (Remember): its edges
	// are not blended twice.
	Again       bool
	Has         func(capability string) bool
	Edges       []torusfield.Edge // blended in place
	List        func(rel string) ([]pyjson.Value, error)
	Add         func(rel string, entry pyjson.Value) error
	Annotations func() (map[string]pyjson.Value, error)
	EntryID     func(pyjson.Value) string // an id for an entry without one
	ReadFile    func(rel string) ([]byte, error)
	AppendText  func(rel, text string)
	Book        func() (*belief.Book, error)
	Warn        func(string)
}

// Merge merges a package's knowledge into t and returns the import's
// answer without its model member: entries whose id is new are appended
// (an entry without an id gets one), annotations fill in artifacts that
// have none, every edge both graphs share takes the mean of the two
// weights, and for a governed workspace the Markdown blocks and believed
// observations it lacks are added.
func Merge(pkg pyjson.Value, t Target) (pyjson.Value, error) {
	counts := map[string]int{}
	var missing []string
	if t.Governs {
		if missing = unknownCapabilities(pkg, t.Has); len(missing) > 0 {
			t.Warn("the package comes from another manifest: " + strconv.Itoa(len(missing)) + " of its capabilities are not in this workspace's (" +
				strings.Join(missing[:min(5, len(missing))], ", ") + "); their edges are dropped")
		}
	}
	for _, k := range lists {
		x, _ := pkg.Get(k.key)
		if x.Kind() != pyjson.Array {
			continue
		}
		existing, err := t.List(k.rel)
		if err != nil {
			return pyjson.Value{}, err
		}
		if err := t.addAll(k.rel, newEntries(existing, x, t.EntryID), k.key, counts); err != nil {
			return pyjson.Value{}, err
		}
	}
	if arts, _ := pkg.Get("artifacts"); arts.Kind() == pyjson.Object {
		anns, err := t.Annotations()
		if err != nil {
			return pyjson.Value{}, err
		}
		if err := t.addAll(workspace.RelAnnotations, newAnnotations(arts, anns), "artifacts", counts); err != nil {
			return pyjson.Value{}, err
		}
	}
	if g, _ := pkg.Get("routing_graph"); g.Kind() == pyjson.Object && !t.Again {
		var err error
		if counts["edges_blended"], counts["edges_dropped"], err = blendEdges(g, t.Edges, t.Has); err != nil {
			return pyjson.Value{}, err
		}
	}
	if t.Governs {
		md, _ := pkg.Get("markdown")
		for _, f := range MarkdownFiles {
			if x, ok := md.Get(f.Key); ok && x.Kind() == pyjson.String {
				have, _ := t.ReadFile(f.Rel)
				for _, block := range markdownBlocks(have, x.Str()) {
					t.AppendText(f.Rel, block)
					counts["markdown_blocks"]++
				}
			}
		}
		var err error
		if counts["observations"], counts["observations_conflicting"], err = importObservations(t.Book, pkg); err != nil {
			return pyjson.Value{}, err
		}
	}
	return t.answer(pkg, counts, missing), nil
}

// addAll appends entries to a knowledge list, counting them under key.
func (t Target) addAll(rel string, entries []pyjson.Value, key string, counts map[string]int) error {
	for _, e := range entries {
		if err := t.Add(rel, e); err != nil {
			return err
		}
		counts[key]++
	}
	return nil
}

// answer is import's answer: what was imported, and for a governed
// workspace what was not.
func (t Target) answer(pkg pyjson.Value, counts map[string]int, missing []string) pyjson.Value {
	agent := pkg.StrOf("agent_id")
	if _, ok := pkg.Get("agent_id"); !ok {
		agent = "unknown"
	}
	imported := pyjson.Obj(
		pyjson.KV("methodology", counts["methodology"]),
		pyjson.KV("dead_ends", counts["dead_ends"]),
		pyjson.KV("judgment_nodes", counts["judgment_nodes"]),
		pyjson.KV("artifacts", counts["artifacts"]),
		pyjson.KV("edges_blended", counts["edges_blended"]),
	)
	out := pyjson.Obj(
		pyjson.KV("status", "imported"),
		pyjson.KV("source_agent", agent),
		pyjson.KV("source_format", pkg.StrOf("format")),
		pyjson.KV("imported", imported),
	)
	if !t.Governs {
		return out
	}
	if missing == nil {
		missing = []string{}
	}
	return out.With("imported", imported.With("observations", counts["observations"]).With("markdown_blocks", counts["markdown_blocks"])).
		With("already_imported", t.Again).With("not_imported", pyjson.Obj(
		pyjson.KV("capabilities_unknown_here", missing),
		pyjson.KV("edges_to_unknown_capabilities", counts["edges_dropped"]),
		pyjson.KV("observations_conflicting_with_a_belief_here", counts["observations_conflicting"]),
	))
}
