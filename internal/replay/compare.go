// Package replay runs scripted ucs sessions in process and compares their
// outputs with expected ones: the parity test against the reference's
// recordings, and what `ucs replay` runs in CI.
package replay

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// DefaultRules compare a replay with recorded outputs the way an upgrade
// should be judged: numbers within 1e-4 (outputs are rounded to 4 places),
// everything else exactly, except what depends on the wall clock or on
// hashes over it, which a replay cannot reproduce:
//   - timestamp, annotated_at, exported_at, and a synthesis period's since
//     and until;
//   - judgment_node_id, entry_id, and the id of judgment nodes, methodology
//     and dead-end entries (SHA-256 over entries holding a timestamp);
//   - state_digest, a hash of the whole state;
//   - keywords compare as sets (the Python reference builds them from a set).
//
// Every key the expected output holds must be there with its value; an
// output may hold more only where Added allows it.
var DefaultRules = Rules{
	Tolerance: 1e-4,
	Ignore: []string{"timestamp", "annotated_at", "exported_at", "until", "since",
		"judgment_node_id", "entry_id", "state_digest",
		"judgment_hits.id", "judgment_nodes.id", "methodology.id", "dead_ends.id"},
	Unordered: []string{"keywords"},
	Added:     Added,
}

// Added lists the keys ucs prints that the reference does not: an output
// may hold them where the expected output (the reference's, or an older
// ucs's) has none. Every other key the reference prints keeps its value.
//   - reports_total (status): every report ever taken, beside the
//     reference's report_counter, which counts modulo the φ-cycle period.
var Added = []string{"reports_total"}

// A Diff is one place where an output differs from the expected one.
type Diff struct {
	Path string // JSON path such as suggested_paths[0].score
	Got  string // the value found, as JSON ("(missing)" when absent)
	Want string
}

func (d Diff) String() string { return fmt.Sprintf("%s: got %s, want %s", d.Path, d.Got, d.Want) }

// Rules say how outputs are compared.
type Rules struct {
	// Tolerance is the largest absolute difference between two numbers
	// that still counts as equal (1e-4 for the reference's rounded outputs).
	Tolerance float64
	// Ignore lists member names whose values are not compared wherever
	// they appear (timestamps, time-derived ids), or paths "parent.key"
	// that ignore key only under a member named parent.
	Ignore []string
	// Unordered lists member names whose array values are compared as
	// sets (the reference builds some lists from Python sets).
	Unordered []string
	// Added lists member names (or "parent.key" paths, as in Ignore) an
	// output may hold where the expected output has none; they are
	// compared where both hold them. Any other extra member is a
	// difference.
	Added []string
}

// Compare returns the differences between got and want.
func Compare(got, want pyjson.Value, r Rules) []Diff {
	var diffs []Diff
	r.compare("", "", got, want, &diffs)
	return diffs
}

func (r *Rules) ignored(parentKey, key string) bool { return named(r.Ignore, parentKey, key) }

// named reports whether names holds key, or parentKey.key.
func named(names []string, parentKey, key string) bool {
	return slices.Contains(names, key) || slices.Contains(names, parentKey+"."+key)
}

func (r *Rules) compare(path, key string, got, want pyjson.Value, diffs *[]Diff) {
	gf, gNum := number(got)
	wf, wNum := number(want)
	if gNum && wNum {
		if math.Abs(gf-wf) > r.Tolerance || math.IsNaN(gf) != math.IsNaN(wf) {
			*diffs = append(*diffs, diff(path, got, want))
		}
		return
	}
	if got.Kind() != want.Kind() {
		*diffs = append(*diffs, diff(path, got, want))
		return
	}
	switch want.Kind() {
	case pyjson.Object:
		for _, m := range want.Members() {
			if r.ignored(key, m.Key) {
				continue
			}
			g, ok := got.Get(m.Key)
			if !ok {
				*diffs = append(*diffs, Diff{Path: join(path, m.Key), Got: "(missing)", Want: short(m.Value)})
				continue
			}
			r.compare(join(path, m.Key), m.Key, g, m.Value, diffs)
		}
		for _, m := range got.Members() {
			if _, ok := want.Get(m.Key); !ok && !r.ignored(key, m.Key) && !named(r.Added, key, m.Key) {
				*diffs = append(*diffs, Diff{Path: join(path, m.Key), Got: short(m.Value), Want: "(missing)"})
			}
		}
	case pyjson.Array:
		g, w := got.Items(), want.Items()
		if slices.Contains(r.Unordered, key) {
			g, w = sortedItems(g), sortedItems(w)
		}
		if len(g) != len(w) {
			*diffs = append(*diffs, Diff{Path: path, Got: fmt.Sprintf("%d items", len(g)), Want: fmt.Sprintf("%d items", len(w))})
		}
		for i := range min(len(g), len(w)) {
			r.compare(fmt.Sprintf("%s[%d]", path, i), key, g[i], w[i], diffs)
		}
	default:
		if string(pyjson.Canonical(got)) != string(pyjson.Canonical(want)) {
			*diffs = append(*diffs, diff(path, got, want))
		}
	}
}

func number(v pyjson.Value) (float64, bool) {
	if v.Kind() != pyjson.Int && v.Kind() != pyjson.Float {
		return 0, false
	}
	return v.Float()
}

func sortedItems(items []pyjson.Value) []pyjson.Value {
	out := slices.Clone(items)
	slices.SortFunc(out, func(a, b pyjson.Value) int {
		return strings.Compare(string(pyjson.Canonical(a)), string(pyjson.Canonical(b)))
	})
	return out
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func diff(path string, got, want pyjson.Value) Diff {
	return Diff{Path: path, Got: short(got), Want: short(want)}
}

// short renders a value for a diff line, cut to a readable length.
func short(v pyjson.Value) string {
	s := string(pyjson.Canonical(v))
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return s
}
