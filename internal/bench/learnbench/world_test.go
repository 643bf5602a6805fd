package learnbench

import (
	"encoding/json"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

type manifestDoc struct {
	Capabilities []struct {
		Name       string   `json:"name"`
		ConnectsTo []string `json:"connects_to"`
		U          float64  `json:"u"`
		C          float64  `json:"c"`
	} `json:"capabilities"`
	SemanticMap map[string][]string `json:"semantic_map"`
}

func parseManifestDoc(t *testing.T, w *World) manifestDoc {
	t.Helper()
	var m manifestDoc
	if err := json.Unmarshal(w.ManifestJSON(), &m); err != nil {
		t.Fatalf("manifest is not JSON: %v", err)
	}
	return m
}

func TestWorldSize(t *testing.T) {
	w := NewWorld()
	if len(w.Tools) < 24 {
		t.Errorf("%d tools, want at least 24", len(w.Tools))
	}
	if len(w.Families) < 8 {
		t.Errorf("%d families, want at least 8", len(w.Families))
	}
	late, drifts, repeats := 0, 0, 0
	for _, f := range w.Families {
		if n := len(f.Steps); n < 3 || n > 6 {
			t.Errorf("%s: best chain of %d steps, want 3 to 6", f.Name, n)
		}
		if f.Late {
			late++
		}
		if f.Drifts() {
			drifts++
		}
		for k := 1; k < len(f.Steps); k++ {
			if f.Steps[k].Best == f.Steps[k-1].Best {
				repeats++
			}
		}
		alts := 0
		for _, s := range f.Steps {
			alts += len(s.Alts)
		}
		if alts == 0 {
			t.Errorf("%s has no acceptable alternative", f.Name)
		}
	}
	if late < 1 || drifts < 1 || repeats < 1 {
		t.Errorf("late families %d, drifting families %d, repeated steps %d: want each at least 1", late, drifts, repeats)
	}
	if len(w.SharedStarts()) < 2 {
		t.Errorf("shared start tools: %v, want at least 2", w.SharedStarts())
	}
}

// Every chain step, before and after the drift, and every alternative is
// an edge of the manifest, a repeated tool by an edge to itself; the
// manifest is valid for ucs.
func TestChainStepsAreEdges(t *testing.T) {
	w := NewWorld()
	m := parseManifestDoc(t, w)
	edges := map[[2]string]bool{}
	for _, c := range m.Capabilities {
		for _, d := range c.ConnectsTo {
			edges[[2]string{c.Name, d}] = true
		}
	}
	for _, f := range w.Families {
		for _, drifted := range []bool{false, true} {
			chain := f.Chain(drifted)
			for k := 1; k < len(chain); k++ {
				if !edges[[2]string{chain[k-1], chain[k]}] {
					t.Errorf("%s (drifted %v): step %s → %s is not an edge", f.Name, drifted, chain[k-1], chain[k])
				}
			}
		}
		for k, s := range f.Steps {
			from := f.Start
			if k > 0 {
				from = f.Steps[k-1].Best
			}
			for _, a := range s.Alts {
				if !edges[[2]string{from, a}] {
					t.Errorf("%s: alternative %s → %s is not an edge", f.Name, from, a)
				}
				if k+1 < len(f.Steps) && !edges[[2]string{a, f.Steps[k+1].Best}] {
					t.Errorf("%s: an alternative cannot go on: %s → %s", f.Name, a, f.Steps[k+1].Best)
				}
			}
		}
	}
	parsed, err := torusfield.ParseManifest(w.ManifestJSON())
	if err != nil {
		t.Fatalf("ucs rejects the manifest: %v", err)
	}
	if len(parsed.Capabilities) != len(w.Tools) {
		t.Errorf("manifest has %d capabilities, want %d", len(parsed.Capabilities), len(w.Tools))
	}
}

// The manifest inits a ucs workspace.
func TestManifestInits(t *testing.T) {
	w := NewWorld()
	dir := t.TempDir()
	manifest := filepath.Join(dir, "manifest.json")
	writeFile(t, manifest, w.ManifestJSON())
	l, err := InProcess{}.Init(filepath.Join(dir, "ws"), manifest)
	if err != nil {
		t.Fatal(err)
	}
	cursor, err := l.Cursor()
	if err != nil || !slices.ContainsFunc(w.Tools, func(tl Tool) bool { return tl.Name == cursor }) {
		t.Fatalf("cursor %q, %v", cursor, err)
	}
}

// A step's tools have one role each; an alternative or the drifted best
// never is the next step's best (it would need an edge to itself); within a
// family each chain position is told apart by (previous tool, tool).
func TestStepRoles(t *testing.T) {
	w := NewWorld()
	for _, f := range w.Families {
		positions := map[[2]string]bool{}
		for _, drifted := range []bool{false, true} {
			chain := f.Chain(drifted)
			clear(positions)
			for k := 0; k+1 < len(chain); k++ {
				prev := ""
				if k > 0 {
					prev = chain[k-1]
				}
				p := [2]string{prev, chain[k]}
				if positions[p] {
					t.Errorf("%s: position %d (%s after %q) is not unique", f.Name, k, chain[k], prev)
				}
				positions[p] = true
			}
		}
		for k, s := range f.Steps {
			roles := map[string]int{}
			for _, l := range [][]string{{s.Best}, s.Alts, s.Distractors, s.Traps} {
				for _, tool := range l {
					roles[tool]++
				}
			}
			for tool, n := range roles {
				if n > 1 {
					t.Errorf("%s step %d: %s has %d roles", f.Name, k, tool, n)
				}
			}
			if s.DriftTo != "" && !slices.Contains(s.Alts, s.DriftTo) {
				t.Errorf("%s step %d: drifts to %s, not an alternative", f.Name, k, s.DriftTo)
			}
			if k+1 < len(f.Steps) && slices.Contains(s.Alts, f.Steps[k+1].Best) {
				t.Errorf("%s step %d: an alternative is the next step's best", f.Name, k)
			}
		}
	}
}

// Traps have the best prior utility and cost; distractors' names share
// words with their family's sentences, best-chain tools mostly do not.
func TestTrapsAndDistractors(t *testing.T) {
	w := NewWorld()
	bestPrior := 0.0
	for _, tl := range w.Tools {
		if tl.Kind != "trap" {
			bestPrior = max(bestPrior, tl.U-tl.C)
		}
	}
	for _, tl := range w.Tools {
		if tl.Kind == "trap" && tl.U-tl.C <= bestPrior {
			t.Errorf("trap %s: u−c %.2f does not beat every other tool (%.2f)", tl.Name, tl.U-tl.C, bestPrior)
		}
	}
	for _, f := range w.Families {
		vocab := Words(strings.Join(slices.Concat(f.Verbs, f.Objects, f.Qualifiers), " "))
		if len(f.Distractors) == 0 {
			t.Errorf("%s has no distractor", f.Name)
		}
		for _, d := range f.Distractors {
			shared := false
			for _, part := range Words(d) {
				shared = shared || slices.Contains(vocab, part)
			}
			if !shared {
				t.Errorf("%s: distractor %s shares no word with the family's sentences", f.Name, d)
			}
		}
	}
}

// Sentences: many per family, every one holding a word that only its
// family uses, while families share some words.
func TestParaphrases(t *testing.T) {
	w := NewWorld()
	owners := map[string]map[int]bool{}
	for i, f := range w.Families {
		for _, word := range Words(strings.Join(slices.Concat(f.Verbs, f.Objects, f.Qualifiers), " ")) {
			if owners[word] == nil {
				owners[word] = map[int]bool{}
			}
			owners[word][i] = true
		}
	}
	sharedWords := 0
	for _, o := range owners {
		if len(o) > 1 {
			sharedWords++
		}
	}
	if sharedWords < 3 {
		t.Errorf("%d words shared between families, want several", sharedWords)
	}
	// The templates' and fillers' words belong to every family.
	for _, word := range Words(strings.Join(slices.Concat(templates, prefixes, suffixes), " ")) {
		owners[word] = map[int]bool{-1: true, -2: true}
	}
	ownWord := func(i int, s string) bool {
		for _, word := range Words(s) {
			if o := owners[word]; len(o) == 1 && o[i] {
				return true
			}
		}
		return false
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i, f := range w.Families {
		if n := w.ParaphraseCount(i); n < 1000 {
			t.Errorf("%s: %d distinct sentences", f.Name, n)
		}
		for _, v := range f.Verbs {
			for _, o := range f.Objects {
				for _, q := range f.Qualifiers {
					if s := v + " " + o + " " + q; !ownWord(i, s) {
						t.Errorf("%s: %q has no word of its own family", f.Name, s)
					}
				}
			}
		}
		distinct := map[string]bool{}
		for range 200 {
			distinct[w.Paraphrase(i, r)] = true
		}
		if len(distinct) < 150 {
			t.Errorf("%s: %d distinct paraphrases in 200 draws", f.Name, len(distinct))
		}
	}
	plan := NewPlan(w, 7, 30, 10, 3)
	for f, cs := range plan.ProbeContexts {
		if len(cs) != 3 {
			t.Errorf("family %d: %d probe sentences", f, len(cs))
		}
	}
}

// Success probabilities follow the roles, and the oracle takes the best.
func TestProbabilities(t *testing.T) {
	w := NewWorld()
	f := slices.IndexFunc(w.Families, func(f Family) bool { return f.Drifts() })
	fam := &w.Families[f]
	k := slices.IndexFunc(fam.Steps, func(s Step) bool { return s.DriftTo != "" })
	cur := fam.Chain(false)[k]
	s := fam.Steps[k]
	if p := w.P(f, k, false, cur, s.Best); p != PBest {
		t.Errorf("best before the drift: %v", p)
	}
	if p := w.P(f, k, true, cur, s.Best); p != PDrifted {
		t.Errorf("old best after the drift: %v", p)
	}
	if p := w.P(f, k, true, cur, s.DriftTo); p != PBest {
		t.Errorf("new best after the drift: %v", p)
	}
	if p := w.P(f, k, false, cur, s.DriftTo); p != PAlt {
		t.Errorf("alternative: %v", p)
	}
	if p := w.P(f, k, false, cur, s.Traps[0]); p != PTrap {
		t.Errorf("trap: %v", p)
	}
	if p := w.P(f, k, false, cur, s.Distractors[0]); p != PDistractor {
		t.Errorf("distractor: %v", p)
	}
	if p := w.P(f, k, false, cur, "no_such_tool"); p != 0 {
		t.Errorf("not an out-neighbour: %v", p)
	}
	if best, p := w.BestP(f, k, true, cur); best != s.DriftTo || p != PBest {
		t.Errorf("oracle after the drift: %s %v", best, p)
	}
}
