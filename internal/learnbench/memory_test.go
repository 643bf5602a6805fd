package learnbench

import (
	"github.com/unified-cognitive-substrate/ucs/learn"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestMemoryMatchesBridge drives the in-memory v3 learner and the bridge
// (in process, --model v3) with the same calls and wants the same advice.
func TestMemoryMatchesBridge(t *testing.T) {
	w := NewWorld()
	dir := t.TempDir()
	manifest := filepath.Join(dir, "manifest.json")
	if err := os.WriteFile(manifest, w.ManifestJSON(), 0o644); err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(dir, "ws")
	os.MkdirAll(ws, 0o755)
	b, err := InProcess{InitArgs: []string{"--model", "v3"}}.Init(ws, manifest)
	if err != nil {
		t.Fatal(err)
	}
	m, err := newMemory(w, learnDefault())
	if err != nil {
		t.Fatal(err)
	}
	cb, _ := b.Cursor()
	m.cursor = cb
	plan := NewPlan(w, 1, 40, -1, 1)
	pb := &ucsPolicy{w: w, l: b, compliance: 1, cursor: cb, scratch: dir}
	pm := &ucsPolicy{w: w, l: m, compliance: 1, cursor: cb, scratch: dir}
	for e := range plan.Episodes {
		rb, err := playEpisode(w, plan, e, &twin{t: t, a: pb, b: pm, la: b, lb: m})
		if err != nil {
			t.Fatal(err)
		}
		_ = rb
	}
}

func learnDefault() learn.Params { return (&Config{}).learnParams() }

// twin plays a and checks b chooses the same.
type twin struct {
	t      *testing.T
	a, b   *ucsPolicy
	la, lb Learner
}

func (p *twin) Begin(st *State) error { return nil }
func (p *twin) Choose(st *State) (string, error) {
	x, err := p.a.Choose(st)
	if err != nil {
		return "", err
	}
	y, err := p.b.Choose(st)
	if err != nil {
		return "", err
	}
	if x != y {
		ab, _ := p.la.Consult(st.Context)
		am, _ := p.lb.Consult(st.Context)
		p.t.Fatalf("episode %d step %d at %s: bridge %s %v, memory %s %v", st.Episode, st.Step, st.Cur, x, ab.Next, y, am.Next)
	}
	return x, nil
}
func (p *twin) Observe(st *State, a string, rep bool) error {
	if err := p.a.Observe(st, a, rep); err != nil {
		return err
	}
	if err := p.b.Observe(st, a, rep); err != nil {
		return err
	}
	if !slices.Equal([]string{p.a.cursor}, []string{p.b.cursor}) {
		p.t.Fatalf("cursors %s %s", p.a.cursor, p.b.cursor)
	}
	return nil
}
func (p *twin) Probe([]ProbeQuery) ([][]string, error) { return nil, nil }
func (p *twin) Close() error                           { return nil }
