package learnbench

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// The policy "learn@C" drives ucs's model (package learn) in memory, with
// no bridge and no disk: consult and report run what the bridge runs on
// the manifest's graph (advice.Place.RankLearned in the state's context,
// learn.State.Learn, which follows the agent's trail), so it makes the
// choices "ucs@C" makes, in a fraction of the time. It is the tuning loop;
// the bridge is the truth.

// newMemory returns a learner with no evidence on the world's manifest.
func newMemory(w *World, p learn.Params) (*memory, error) {
	man, err := torusfield.ParseManifest(w.ManifestJSON())
	if err != nil {
		return nil, err
	}
	g := torusfield.New(man, torusfield.Options{}).Graph
	return &memory{place: advice.Place{Graph: g, Manifest: man}, st: learn.NewState(learn.New(p))}, nil
}

type memory struct {
	place  advice.Place // the manifest and its graph
	st     *learn.State // its advisories unused: the benchmark attributes nothing
	cursor string
	seq    int64
}

func (l *memory) Consult(context string) (Advice, error) {
	l.seq++
	ranked := l.place.RankLearned(l.st, l.cursor, learn.Terms(context), nil, true)
	a := Advice{Cursor: l.cursor}
	for _, r := range ranked[:min(6, len(ranked))] { // consult's suggested paths
		a.Next = append(a.Next, r.To)
	}
	return a, nil
}

func (l *memory) Report(action, success, context string) (string, error) {
	l.seq++
	l.st.Learn(l.place.Graph, l.place.Manifest, learn.Terms(context), l.cursor, action, success, 1, l.seq)
	l.cursor = action
	return action, nil
}

// Exec learns the true outcome as ucs exec reports an exit code: observed,
// with the classifier's confidence for an exit code (0.95) relative to a
// self-report's (0.7).
func (l *memory) Exec(action string, ok bool, context string) (string, error) {
	l.seq++
	success := "failure"
	if ok {
		success = "success"
	}
	l.st.Learn(l.place.Graph, l.place.Manifest, learn.Terms(context), l.cursor, action, success, advice.ObservedWeight, l.seq)
	l.cursor = action
	return action, nil
}

func (l *memory) Cursor() (string, error) { return l.cursor, nil }

// Task does nothing: v3 and v4 in memory know no tasks.
func (l *memory) Task(string) {}

func (l *memory) Fork(string) (Learner, error) {
	m, err := learn.Decode(l.st.Model.AppendJSON(nil), l.st.Model.P)
	if err != nil {
		return nil, err
	}
	c := *l
	c.st = &learn.State{Model: m, Trail: l.st.Trail}
	return &c, nil
}

// ParseParams reads learn.Params overrides "explore=0.5,priorvar=1" onto
// the defaults.
func ParseParams(s string) (learn.Params, error) {
	p := learn.DefaultParams
	for _, kv := range strings.Split(s, ",") {
		if kv = strings.TrimSpace(kv); kv == "" {
			continue
		}
		k, v, ok := strings.Cut(kv, "=")
		x, err := strconv.ParseFloat(v, 64)
		if !ok || err != nil {
			return p, fmt.Errorf("learn params: %q is not KEY=NUMBER", kv)
		}
		if err := p.Set(k, x); err != nil {
			return p, err
		}
	}
	return p, nil
}

func formatParams(p learn.Params) string { return fmt.Sprintf("%+v", p) }
