package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/bridge"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
)

// toolNames are the first names of the manifest's tools; a manifest of
// more tools numbers the rest.
var toolNames = []string{
	"read", "write", "edit", "exec", "process", "web_search", "web_fetch", "browser",
	"grep", "glob", "ls", "git_status", "git_diff", "git_commit", "git_log", "run_tests",
	"lint", "format", "build", "deploy", "http_get", "http_post", "sql_query", "sql_migrate",
	"docker_run", "kubectl", "ssh", "scp", "send_email", "calendar", "slack_post", "jira_issue",
	"pdf_extract", "image_describe", "translate", "summarize", "memory_search", "memory_write", "ask_user", "plan",
}

// manifestJSON is a manifest of n tools in which every tool connects to
// every other (the engine drops self-loops): any report from any cursor is
// a transition the model learns, so the learned features are as many as the
// contexts make. u and c come from a seeded generator: the same n, the
// same bytes.
func manifestJSON(n int) []byte {
	rng := rand.New(rand.NewPCG(40, 27))
	names := tools(n)
	type capability struct {
		Name       string   `json:"name"`
		ConnectsTo []string `json:"connects_to"`
		U          float64  `json:"u"`
		C          float64  `json:"c"`
	}
	caps := make([]capability, n)
	for i, name := range names {
		others := make([]string, 0, n-1)
		for _, o := range names {
			if o != name {
				others = append(others, o)
			}
		}
		caps[i] = capability{Name: name, ConnectsTo: others,
			U: float64(50+rng.IntN(46)) / 100, C: float64(5+rng.IntN(36)) / 100}
	}
	b, _ := json.Marshal(map[string]any{"capabilities": caps})
	return b
}

// tools are the names of a manifest of n tools.
func tools(n int) []string {
	out := make([]string, n)
	for i := range out {
		if i < len(toolNames) {
			out[i] = toolNames[i]
		} else {
			out[i] = fmt.Sprintf("tool_%03d", i)
		}
	}
	return out
}

// vocabulary is n distinct made-up words, each its own only term
// (learn.Terms gives back the word: no stop word, nothing a stem changes),
// so an 8-word context is 8 terms.
func vocabulary(n int) []string {
	rng := rand.New(rand.NewPCG(8, 27))
	const cons, vows = "bdfgklmnprtvz", "aiou"
	seen := map[string]bool{}
	out := make([]string, 0, n)
	for len(out) < n {
		var b strings.Builder
		for range 2 + rng.IntN(2) {
			b.WriteByte(cons[rng.IntN(len(cons))])
			b.WriteByte(vows[rng.IntN(len(vows))])
		}
		b.WriteByte(cons[rng.IntN(len(cons))])
		w := b.String()
		if t := learn.Terms(w); seen[w] || len(t) != 1 || t[0] != w {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	return out
}

// A plan is what to build: the manifest's size, how many outcomes to
// learn, the model, and the words contexts are drawn from.
type plan struct {
	tools   int
	reports int
	model   string
	words   int
	// consultEvery: a consult with the report's context before one report
	// in so many.
	consultEvery int
}

// built is what a build made, counted.
type built struct {
	reports, consults  int
	events             int // journal events: init, consults, reports
	features           int // distinct (term, from, to) weights the reports touched, the transitions' own and the trail's included
	weights            int // weights the model holds (at most learn.Buckets)
	stateBytes         int // the state file
	learnBytes         int // its "learn" member
	logBytes, logLines int // the record log (v5), where the evidence is
	cursor             string
}

// buildStart is the clock of a build's init; each later call is a second on.
var buildStart = time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)

// build initializes a workspace at dir with the plan's manifest and model,
// then learns p.reports outcomes: reports with 8-word contexts from the
// vocabulary, a consult before some, every call through bridge.Do with the
// clock a second later than the last. Nothing is fsynced (the workspace is
// a throwaway whose bytes are those of a synced one). The same plan gives
// the same workspace, byte for byte.
func build(dir string, p plan) (built, error) {
	var out built
	man := filepath.Join(filepath.Dir(dir), filepath.Base(dir)+"-manifest.json")
	if err := os.WriteFile(man, manifestJSON(p.tools), 0o600); err != nil {
		return out, err
	}
	clock := buildStart
	do := func(c bridge.Call) (pyjson.Value, error) {
		br := bridge.New(bridge.Options{Workspace: dir, Now: clock, NoSync: true})
		clock = clock.Add(time.Second)
		out.events++
		v, err := br.Do(c)
		if err != nil {
			return v, fmt.Errorf("%s: %w", c.Op, err)
		}
		return v, nil
	}
	if _, err := do(bridge.Call{Op: "init", Args: pyjson.Obj(pyjson.KV("manifest", man), pyjson.KV("model", p.model))}); err != nil {
		return out, err
	}
	names := tools(p.tools)
	words := vocabulary(p.words)
	rng := rand.New(rand.NewPCG(6000, 27))
	cursor := ""
	type key struct{ term, from, to string }
	seen := map[key]bool{}
	var trail learn.Trail
	for i := range p.reports {
		ctx := make([]string, 8)
		for j := range ctx {
			ctx[j] = words[rng.IntN(len(words))]
		}
		context := strings.Join(ctx, " ")
		if p.consultEvery > 0 && i%p.consultEvery == 0 {
			if _, err := do(bridge.Call{Op: "consult", Args: pyjson.Obj(pyjson.KV("context", context))}); err != nil {
				return out, err
			}
			out.consults++
		}
		action := names[rng.IntN(len(names))]
		if action == cursor {
			action = names[(slices.Index(names, cursor)+1)%len(names)]
		}
		success := "success"
		if rng.IntN(5) < 2 {
			success = "failure"
		}
		in := pyjson.Obj(pyjson.KV("action", action), pyjson.KV("success", success), pyjson.KV("context", context),
			pyjson.KV("outcome", fmt.Sprintf("step %d", i)))
		v, err := do(bridge.Call{Op: "report", Input: in})
		if err != nil {
			return out, err
		}
		out.reports++
		ans := gjson.ParseBytes(pyjson.AppendCompact(nil, v))
		if tr := ans.Get("learning.transition").String(); tr != "" {
			// The features v4 learns on (v3: without the trail's).
			from, to, _ := strings.Cut(tr, " → ")
			terms := learn.Terms(context)
			for _, t := range append([]string{""}, terms...) {
				seen[key{t, from, to}] = true
			}
			if p.model == advice.ModelV4 {
				if after := trail.After(from, terms); after != "" {
					seen[key{"\x01" + after, from, to}] = true
				}
				trail.Move(from, to, success, terms)
			}
		}
		cursor = ans.Get("cursor").String()
		if !ans.Get("cursor").Exists() {
			return out, fmt.Errorf("report %d gives no cursor: %.300s", i, pyjson.AppendCompact(nil, v))
		}
	}
	out.features, out.cursor = len(seen), cursor
	state, err := os.ReadFile(filepath.Join(dir, "ucs", "state", "torusfield_state.json"))
	if err != nil {
		return out, err
	}
	out.stateBytes = len(state)
	if log, err := os.ReadFile(filepath.Join(dir, "ucs", "state", "model.jsonl")); err == nil {
		out.logBytes, out.logLines = len(log), bytes.Count(log, []byte("\n"))
	}
	if m := gjson.GetBytes(state, "learn"); m.Exists() {
		out.learnBytes = len(m.Raw)
	}
	if m := gjson.GetBytes(state, "learn"); m.Get("model.weights").Exists() {
		w, err := base64.StdEncoding.DecodeString(m.Get("model.weights").String())
		if err != nil {
			return out, fmt.Errorf("the model's weights: %w", err)
		}
		out.weights = len(w) / weightRecord
	}
	return out, nil
}

// weightRecord is the size of one weight in the model's encoding
// (learn.Model.AppendJSON).
const weightRecord = 44
