package learnbench

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/bridge"
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// The policy "learn@C" drives ucs's model (package learn) in memory, with
// no bridge and no disk: consult and report run the bridge's own functions
// (bridge.RankNextSteps, bridge.LearnOutcome on the manifest's graph) and
// follow the agent's learn.Trail as the bridge does, so it makes the
// choices "ucs@C" makes, in a fraction of the time. It is the tuning loop;
// the bridge is the truth.

// newMemory returns a learner with no evidence on the world's manifest.
func newMemory(w *World, p learn.Params) (*memory, error) {
	man, err := torusfield.ParseManifest(w.ManifestJSON())
	if err != nil {
		return nil, err
	}
	g := torusfield.New(man, torusfield.Options{}).Graph
	return &memory{man: man, g: g, m: learn.New(p)}, nil
}

type memory struct {
	man    *torusfield.Manifest
	g      *torusfield.Graph
	m      *learn.Model
	cursor string
	seq    int64
	trail  learn.Trail
}

// context is the learn.Context of a step from the cursor, as the bridge
// forms it for a model that keeps the agent's trail.
func (l *memory) context(terms []string) learn.Context {
	ctx := learn.Context{Terms: terms}
	if l.m.P.AfterScale > 0 {
		ctx.After = l.trail.After(l.cursor, terms)
	}
	return ctx
}

func (l *memory) Consult(context string) (Advice, error) {
	l.seq++
	ranked := bridge.RankNextSteps(l.g, l.man, l.m, l.context(learn.Terms(context)), l.cursor, nil, true)
	a := Advice{Cursor: l.cursor}
	for _, r := range ranked[:min(6, len(ranked))] { // consult's suggested paths
		a.Next = append(a.Next, r.To)
	}
	return a, nil
}

func (l *memory) Report(action, success, context string) (string, error) {
	l.seq++
	terms := learn.Terms(context)
	bridge.LearnOutcome(l.g, l.man, l.m, l.context(terms), l.cursor, action, success, 1, l.seq)
	l.trail.Move(l.cursor, action, success, terms)
	l.cursor = action
	return action, nil
}

// Exec learns the true outcome as ucs exec reports an exit code: observed,
// with the classifier's confidence for an exit code (0.95) relative to a
// self-report's (0.7).
func (l *memory) Exec(action string, ok bool, context string) (string, error) {
	l.seq++
	terms := learn.Terms(context)
	success := "failure"
	if ok {
		success = "success"
	}
	bridge.LearnOutcome(l.g, l.man, l.m, l.context(terms), l.cursor, action, success, bridge.ObservedWeight, l.seq)
	l.trail.Move(l.cursor, action, success, terms)
	l.cursor = action
	return action, nil
}

func (l *memory) Cursor() (string, error) { return l.cursor, nil }

func (l *memory) Fork(string) (Learner, error) {
	m, err := learn.Decode(l.m.AppendJSON(nil), l.m.P)
	if err != nil {
		return nil, err
	}
	c := *l
	c.m = m
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
