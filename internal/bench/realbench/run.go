package realbench

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
)

// TopN is how many of each ranking a Step keeps: hit@3 is the widest
// figure scored.
const TopN = 3

// A System is ucs as one configuration: a name for the results and how it
// is driven (its init arguments choose the model).
type System struct {
	Name string
	UCS  UCS
}

// Config is one run of the protocol on one dataset.
type Config struct {
	Dataset  string    // its name in the results
	Episodes []Episode // the stream, in order
	Systems  []System  // ucs configurations, each on a fresh workspace
	// Protos are predictors replayed in memory on the same stream, scored
	// like the systems (paired against every baseline).
	Protos []Proto
	// Baselines to run on the same stream (default: Baselines).
	Baselines []string
	// WorkDir holds the workspaces, one directory per system.
	WorkDir string
	// Parallel is how many systems replay at once (default 1).
	Parallel int
	// Progress, when set, gets a line per system and every 50 episodes.
	Progress io.Writer
}

// A Step is one tool call of the stream and what every method ranked
// before it was learned.
type Step struct {
	Episode int    // index in the stream
	Index   int    // the call's position in its episode
	Tool    string // the call the agent made
	OK      bool   // it answered without an error
	// Ranked holds, per method (Stream.Methods), its first TopN
	// suggestions.
	Ranked [][]string
}

// A Stream is the replayed dataset with every method's rankings.
type Stream struct {
	Dataset  string
	Methods  []string // the systems' names, the protos', then the baselines'
	Systems  []System
	Protos   int // how many protos follow the systems in Methods
	Episodes int
	Steps    []Step
	Tools    []string
	// UCSCalls counts the ucs commands each system ran (init included).
	UCSCalls []int
}

// Run replays the stream through every system and baseline.
func Run(cfg Config) (*Stream, error) {
	tools := Tools(cfg.Episodes)
	for _, t := range tools {
		if t == StartTool {
			return nil, fmt.Errorf("a tool named %q", StartTool)
		}
	}
	baselines := cfg.Baselines
	if baselines == nil {
		baselines = Baselines
	}
	s := &Stream{Dataset: cfg.Dataset, Systems: cfg.Systems, Protos: len(cfg.Protos), Episodes: len(cfg.Episodes), Tools: tools}
	for _, sys := range cfg.Systems {
		s.Methods = append(s.Methods, sys.Name)
	}
	for _, p := range cfg.Protos {
		s.Methods = append(s.Methods, p.Name)
	}
	s.Methods = append(s.Methods, baselines...)
	for ei, ep := range cfg.Episodes {
		for i, c := range ep.Calls {
			s.Steps = append(s.Steps, Step{Episode: ei, Index: i, Tool: c.Tool, OK: !c.Error, Ranked: make([][]string, len(s.Methods))})
		}
	}
	for bi, name := range baselines {
		m, ok := newMarkov(name, tools)
		if !ok {
			return nil, fmt.Errorf("unknown baseline %q (%v)", name, Baselines)
		}
		replayBaseline(cfg.Episodes, m, s.Steps, len(cfg.Systems)+len(cfg.Protos)+bi)
	}
	for pi, p := range cfg.Protos {
		replayProto(cfg.Episodes, p, tools, s.Steps, len(cfg.Systems)+pi)
	}
	if len(cfg.Systems) == 0 {
		return s, nil
	}
	if err := os.MkdirAll(cfg.WorkDir, 0o755); err != nil {
		return nil, err
	}
	manifest := filepath.Join(cfg.WorkDir, cfg.Dataset+"-manifest.json")
	if err := os.WriteFile(manifest, Manifest(tools), 0o644); err != nil {
		return nil, err
	}
	s.UCSCalls = make([]int, len(cfg.Systems))
	errs := make([]error, len(cfg.Systems))
	sem := make(chan struct{}, max(cfg.Parallel, 1))
	var wg sync.WaitGroup
	for si, sys := range cfg.Systems {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			dir := filepath.Join(cfg.WorkDir, fmt.Sprintf("%s-%d", cfg.Dataset, si))
			s.UCSCalls[si], errs[si] = replayUCS(cfg, sys, dir, manifest, s.Steps, si)
		}()
	}
	wg.Wait()
	for si, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("%s on %s: %w", cfg.Systems[si].Name, cfg.Dataset, err)
		}
	}
	return s, nil
}

func top(ranked []string) []string {
	return append([]string{}, ranked[:min(len(ranked), TopN)]...)
}

// replayBaseline ranks every step with m before it learns it, storing the
// ranking in column col of steps (in stream order).
func replayBaseline(eps []Episode, m *markov, steps []Step, col int) {
	k := 0
	for _, ep := range eps {
		var hist []string
		for _, c := range ep.Calls {
			steps[k].Ranked[col] = top(m.rank(ep.Task, hist))
			m.learn(ep.Task, hist, c.Tool, !c.Error)
			hist = append(hist, c.Tool)
			k++
		}
	}
}

// replayUCS runs the protocol on a fresh workspace: per episode a neutral
// report of StartTool in the episode's context (it moves the cursor and
// teaches nothing), then per call a consult in that context, whose ranking
// is stored in column col of steps, and the report of the call. It returns
// how many ucs commands it ran.
func replayUCS(cfg Config, sys System, dir, manifest string, steps []Step, col int) (int, error) {
	if err := os.RemoveAll(dir); err != nil {
		return 0, err
	}
	w, err := sys.UCS.initWorkspace(dir, manifest)
	if err != nil {
		return 0, err
	}
	k := 0
	for ei, ep := range cfg.Episodes {
		if cfg.Progress != nil && ei%50 == 0 {
			fmt.Fprintf(cfg.Progress, "%s %s: episode %d of %d\n", cfg.Dataset, sys.Name, ei, len(cfg.Episodes))
		}
		if err := w.report(StartTool, "neutral", ep.Instruction, ep.Task); err != nil {
			return w.calls, err
		}
		// A report moves v2's and v4's cursor to its action, failed or not;
		// v5's stays at the task's last step that succeeded.
		at, succeeded := StartTool, StartTool
		for i, c := range ep.Calls {
			cursor, next, err := w.consult(ep.Instruction, ep.Task)
			if err != nil {
				return w.calls, err
			}
			if cursor != at && cursor != succeeded {
				return w.calls, fmt.Errorf("episode %d, call %d: ucs advises from %q, the agent is at %q", ei, i, cursor, at)
			}
			steps[k].Ranked[col] = top(next)
			outcome := "success"
			if c.Error {
				outcome = "failure"
			}
			if err := w.report(c.Tool, outcome, ep.Instruction, ep.Task); err != nil {
				return w.calls, err
			}
			at = c.Tool
			if !c.Error {
				succeeded = c.Tool
			}
			k++
		}
	}
	return w.calls, nil
}
