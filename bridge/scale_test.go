package bridge

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/bench/knowledgegen"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace/workspacetest"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// scaleSizes are the workspaces of the scale test and the benchmarks:
// methodology, judgment and dead-end entries.
var scaleSizes = []struct {
	name    string
	m, j, d int
}{{"fresh", 0, 0, 0}, {"1k", 1000, 200, 100}, {"10k", 10000, 2000, 1000}}

var pristine struct {
	sync.Mutex
	dirs map[string]string
}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, dir := range pristine.dirs {
		os.RemoveAll(filepath.Dir(dir))
	}
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// scaleWorkspace returns a copy of a workspace of the named size: the
// generator's knowledge imported into a new workspace, built once per
// test process.
func scaleWorkspace(tb testing.TB, name string) *Bridge {
	tb.Helper()
	pristine.Lock()
	defer pristine.Unlock()
	if pristine.dirs == nil {
		pristine.dirs = map[string]string{}
	}
	src, ok := pristine.dirs[name]
	if !ok {
		var size struct {
			name    string
			m, j, d int
		}
		for _, s := range scaleSizes {
			if s.name == name {
				size = s
			}
		}
		require.Equal(tb, name, size.name, "a known size")
		dir, err := os.MkdirTemp("", "ucs-scale-")
		require.NoError(tb, err)
		src = filepath.Join(dir, "ws")
		b := New(Options{Workspace: src, Now: testNow})
		_, err = b.Do(Call{Op: "init", Args: pyjson.Obj(pyjson.KV("model", advice.ModelV2))}) // its wormholes correlate
		require.NoError(tb, err)
		if size.m+size.j+size.d > 0 {
			pkg := knowledgegen.Package(knowledgegen.Options{Methodology: size.m, Judgment: size.j, DeadEnds: size.d, Seed: 1})
			_, err = b.Do(Call{Op: "import", Input: pkg})
			require.NoError(tb, err)
		}
		pristine.dirs[name] = src
	}
	ws := filepath.Join(tb.TempDir(), "ws")
	require.NoError(tb, os.CopyFS(ws, os.DirFS(src)))
	return New(Options{Workspace: ws, Now: testNow})
}

// TestIndexedSearchMatchesDecoding runs the same calls on two copies of
// the 10k/2k/1k workspace, one searching the index (the fast path), one
// decoding every entry and searching them all (the straightforward path),
// and requires every answer to be the same, byte for byte.
func TestIndexedSearchMatchesDecoding(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a workspace of 13,000 entries")
	}
	fast, slow := scaleWorkspace(t, "10k"), scaleWorkspace(t, "10k")
	slow.noIndex = true
	step := 0
	do := func(c Call) pyjson.Value {
		t.Helper()
		step++
		want, werr := slow.Do(c)
		got, gerr := fast.Do(c)
		require.NoError(t, werr, "step %d %s", step, c.Op)
		require.NoError(t, gerr, "step %d %s", step, c.Op)
		w := strings.ReplaceAll(string(pyjson.Indent(want)), slow.ws.Root(), "WS")
		g := strings.ReplaceAll(string(pyjson.Indent(got)), fast.ws.Root(), "WS")
		require.Equal(t, w, g, "step %d: %s %s", step, c.Op, pyjson.Canonical(c.Args))
		return got
	}
	count := func(v pyjson.Value, key string) int {
		x, _ := v.Get(key)
		return len(x.Items())
	}
	hits := map[string]int{}
	consult := func(context string, caps ...string) {
		args := argsOf("context", context)
		if len(caps) > 0 {
			var cs []string
			cs = append(cs, caps...)
			args = args.With("capabilities", cs)
		}
		out := do(Call{Op: "consult", Args: args})
		for _, k := range []string{"methodology_hits", "judgment_hits", "dead_ends"} {
			hits[k] += count(out, k)
		}
	}
	for _, ctx := range []string{
		"research competitor pricing on the web",
		"debug the flaky ci pipeline timeout and fix the regression",
		"write documentation for the new api release",
		"deploy the hotfix and monitor the dashboard for errors",
		"nothing in common xyzzy",
	} {
		consult(ctx)
	}
	consult("audit the session history", "sessions_history", "read")

	// Reports along the graph's edges until φ-cycles have found wormholes
	// and correlated them with methodology (the report's one search).
	g := torusfield.New(torusfield.DefaultManifest(), torusfield.Options{}).Graph
	status := do(Call{Op: "status"})
	cursor := status.StrOf("cursor")
	correlated := 0
	for i := 0; i < 200 && correlated < 2; i++ {
		out := g.Out(cursor)
		next := g.Edges[out[(i*7)%len(out)]].Dst
		extra := ""
		if i%4 == 3 {
			extra = `, "significance": "notable", "context": "step", "reasoning_trace": {"decisive_factor": "it paid off"}`
		}
		body := fmt.Sprintf(`{"action": %q, "outcome": "done", "success": "success"%s}`, next, extra)
		r := do(Call{Op: "report", Input: input(t, body)})
		if _, ok := r.Get("methodology_correlations"); ok {
			correlated++
		}
		cursor = r.StrOf("cursor")
		if i%25 == 0 {
			consult("research competitor pricing on the web")
		}
	}
	assert.Positive(t, correlated, "reports correlated new wormholes with methodology")
	do(Call{Op: "reflect", Input: input(t, `{"type": "post_task", "text": "Fetch whole pages when pricing", "capabilities": ["web_fetch", "browser"], "keywords": ["pricing", "Research"]}`)})
	do(Call{Op: "reflect", Input: input(t, `{"type": "dead_end", "text": "x", "topic": "scraping", "why_closed": "blocked", "reopen_conditions": "when the pricing api opens", "capabilities": ["browser"], "keywords": ["scraping"]}`)})
	consult("research competitor pricing on the web")
	do(Call{Op: "report", Input: input(t, `{"action": "not_a_capability", "outcome": "x"}`)})
	do(Call{Op: "synthesize"})
	do(Call{Op: "resume"})
	do(Call{Op: "status"})
	for k, n := range hits {
		assert.Positive(t, n, "consults found %s", k)
	}

	// The fast workspace's index is current (so it was searched) and
	// check finds it the same as one built from the knowledge files.
	assertIndexCurrent(t, fast)
	_, err := fast.Check(false)
	require.NoError(t, err)
}

func assertIndexCurrent(t *testing.T, b *Bridge) {
	t.Helper()
	tx, err := b.ws.Begin(false)
	require.NoError(t, err)
	defer tx.Close()
	for _, rel := range []string{workspace.RelMethodology, workspace.RelJudgment, workspace.RelDeadEnds} {
		assert.True(t, tx.IndexCurrent(rel), "the index of %s is current", rel)
	}
}

func readIndex(t *testing.T, b *Bridge) map[string]string {
	t.Helper()
	out := map[string]string{}
	entries, err := os.ReadDir(b.ws.Path(workspace.RelIndexDir))
	require.NoError(t, err)
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(b.ws.Path(workspace.RelIndexDir), e.Name()))
		require.NoError(t, err)
		out[e.Name()] = string(data)
	}
	return out
}

// TestIndexRebuilt: an index built entry by entry (import, reflect,
// report) is the one a rebuild makes; a workspace without one (an older
// workspace) answers the same from the knowledge files, read-only calls
// leave it so, and the first call that can write builds it. A damaged
// index is found by check and removed by check --repair.
func TestIndexRebuilt(t *testing.T) {
	b := scaleWorkspace(t, "1k")
	_, err := b.Do(Call{Op: "reflect", Input: input(t, `{"type": "post_task", "text": "Fetch whole pages", "capabilities": ["web_fetch", "read", "not_a_capability"], "keywords": ["pricing"]}`)})
	require.NoError(t, err)
	_, err = report(t, b, "read", `, "significance": "notable"`)
	require.NoError(t, err)
	built := readIndex(t, b)
	assert.Contains(t, built, "methodology-cap-0.txt")
	assert.Len(t, built, 3+len(torusfield.DefaultManifest().Names()))

	require.NoError(t, os.RemoveAll(b.ws.Path(workspace.RelIndexDir)))
	synth, err := b.Do(Call{Op: "synthesize"})
	require.NoError(t, err)
	assert.NoDirExists(t, b.ws.Path(workspace.RelIndexDir), "a read-only call does not build the index")
	_, err = b.Do(Call{Op: "consult", Args: argsOf("context", "research pricing")})
	require.NoError(t, err)
	assert.Equal(t, built, readIndex(t, b), "the rebuilt index is the one built entry by entry")
	again, err := b.Do(Call{Op: "synthesize"})
	require.NoError(t, err)
	assert.Equal(t, string(pyjson.Canonical(synth)), string(pyjson.Canonical(again)))
	assertIndexCurrent(t, b)

	// Damage: a line of the methodology index names the wrong place.
	p := b.ws.Path(workspace.RelIndexDir + "/methodology.jsonl")
	data, err := os.ReadFile(p)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(p, append([]byte("0 9"), data[bytes.IndexByte(data, '\t'):]...), 0o644))
	_, err = b.Check(false)
	require.Error(t, err)
	assert.Contains(t, fault.AsError(err).Msg, workspace.RelIndexDir+"/methodology.jsonl")
	out, err := b.Check(true)
	require.NoError(t, err)
	assert.Contains(t, string(pyjson.Canonical(out)), "removed the index")
	_, err = b.Do(Call{Op: "consult", Args: argsOf("context", "research pricing")})
	require.NoError(t, err)
	assert.Equal(t, built, readIndex(t, b))
}

// TestBigLastEvent: a crash during an import, whose event holds the whole
// package, is rolled back whole; after an import, calls go on (they read
// only the end of the journal's last event: see the workspace's
// TestBigLastEvent).
func TestBigLastEvent(t *testing.T) {
	b := newWorkspace(t)
	pkg := knowledgegen.Package(knowledgegen.Options{Methodology: 300, Judgment: 50, DeadEnds: 20, Seed: 2})
	before := workspacetest.Fingerprint(t, b.ws.Root())
	crashed := workspace.CrashAt("append ucs/state/index-v1/methodology.jsonl", func() { b.Do(Call{Op: "import", Input: pkg}) })
	require.True(t, crashed)
	_, err := b.Do(Call{Op: "status"})
	require.NoError(t, err)
	assert.Equal(t, before, workspacetest.Fingerprint(t, b.ws.Root()), "the import was rolled back")

	_, err = b.Do(Call{Op: "import", Input: pkg})
	require.NoError(t, err)
	out, err := b.Do(Call{Op: "status"})
	require.NoError(t, err)
	assert.Equal(t, "ok", out.StrOf("status"))
	_, err = report(t, b, "read")
	require.NoError(t, err)
	invariants(t, b, 1)
}

func capIndex(t *testing.T, capability string) int {
	t.Helper()
	i := torusfield.DefaultManifest().Index(capability)
	require.GreaterOrEqual(t, i, 0, capability)
	return i
}
