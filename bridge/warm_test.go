package bridge

import (
	"bytes"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// A warm pair is two workspaces that see the same calls: one through
// Bridges sharing a Warm (a long-lived server's), one through Bridges
// without (a process per call).
type warmPair struct {
	t          *testing.T
	warm, cold string
	w          *Warm
	now        time.Time
	err        error // the last call's
}

func newWarmPair(t *testing.T, model string) *warmPair {
	root := t.TempDir()
	p := &warmPair{t: t, warm: filepath.Join(root, "warm"), cold: filepath.Join(root, "cold"), w: NewWarm(), now: testNow}
	p.do(Call{Op: "init", Args: argsOf("model", model)})
	return p
}

func (p *warmPair) opts(dir string, w *Warm) Options {
	return Options{Workspace: dir, Now: p.now, SnapshotEvery: 7, NoSync: true, Warm: w}
}

// do runs c on both workspaces and requires the same answer (or error)
// and the same files, byte for byte; then that what the Warm keeps is
// what decoding its bytes gives.
func (p *warmPair) do(c Call) pyjson.Value {
	t := p.t
	t.Helper()
	p.now = p.now.Add(time.Minute)
	cold, coldErr := New(p.opts(p.cold, nil)).Do(c)
	warm, warmErr := New(p.opts(p.warm, p.w)).Do(c)
	require.Equal(t, fmt.Sprint(coldErr), fmt.Sprint(warmErr), "%s: the error", c.Op)
	p.err = coldErr
	same := strings.ReplaceAll(string(pyjson.AppendCompact(nil, warm)), p.warm, p.cold) // the one difference
	require.Equal(t, string(pyjson.AppendCompact(nil, cold)), same, "%s: the answer", c.Op)
	requireSameFiles(t, p.cold, p.warm, c.Op)
	requireWarmDecodes(t, p.w, c.Op)
	return cold
}

// observe is do for an observation (Bridge.Observe, as exec reports one):
// queued, then applied with whatever else is queued.
func (p *warmPair) observe(c Call) {
	t := p.t
	t.Helper()
	p.now = p.now.Add(time.Minute)
	cold, coldQueued, coldErr := New(p.opts(p.cold, nil)).Observe(c)
	warm, warmQueued, warmErr := New(p.opts(p.warm, p.w)).Observe(c)
	require.Equal(t, fmt.Sprint(coldErr, coldQueued), fmt.Sprint(warmErr, warmQueued), "observe: the error")
	require.Equal(t, string(pyjson.AppendCompact(nil, cold)), strings.ReplaceAll(string(pyjson.AppendCompact(nil, warm)), p.warm, p.cold), "observe: the answer")
	requireSameFiles(t, p.cold, p.warm, "observe")
	requireWarmDecodes(t, p.w, "observe")
}

// other commits a call on both workspaces without the Warm: another
// process, between two of the server's calls.
func (p *warmPair) other(c Call) {
	p.now = p.now.Add(time.Minute)
	for _, dir := range []string{p.cold, p.warm} {
		_, err := New(p.opts(dir, nil)).Do(c)
		require.NoError(p.t, err)
	}
	requireSameFiles(p.t, p.cold, p.warm, "another writer's "+c.Op)
}

// requireSameFiles requires the two workspaces to hold the same files with
// the same bytes.
func requireSameFiles(t *testing.T, a, b, after string) {
	t.Helper()
	read := func(root string) map[string]string {
		files := map[string]string{}
		require.NoError(t, filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(path)
			rel, _ := filepath.Rel(root, path)
			files[rel] = string(data)
			return err
		}))
		return files
	}
	fa, fb := read(a), read(b)
	for rel, data := range fa {
		require.Contains(t, fb, rel, "after %s", after)
		require.True(t, data == fb[rel], "after %s: %s differs", after, rel)
	}
	require.Len(t, fb, len(fa), "after %s: the files", after)
}

// requireWarmDecodes requires what the Warm keeps to be what a cold
// decode of its bytes gives: the same engine, hidden state included, and
// the same members.
func requireWarmDecodes(t *testing.T, w *Warm, after string) {
	t.Helper()
	if w.engine == nil {
		return
	}
	e := torusfield.New(w.manifest, torusfield.Options{})
	var members []rawMember
	require.NoError(t, e.RestoreBytes(w.state, func(key string, raw []byte) error {
		if key != "ucs" {
			members = append(members, rawMember{key, raw})
		}
		return nil
	}))
	require.True(t, reflect.DeepEqual(e, w.engine), "after %s, the kept engine is not the decoded one: %s", after, firstDiff(reflect.ValueOf(e), reflect.ValueOf(w.engine), "engine"))
	var kept []rawMember
	for _, m := range w.members {
		if m.key != "ucs" {
			kept = append(kept, m)
		}
	}
	require.Equal(t, len(members), len(kept), "the members")
	for i := range members {
		require.Equal(t, members[i].key, kept[i].key)
		require.True(t, bytes.Equal(members[i].raw, kept[i].raw), "member %s", kept[i].key)
	}
}

// TestWarmSameAsCold is the proof that a server's Warm changes nothing: a
// long seeded random sequence of calls (reports, consults, verdicts and
// amendments, reflections, goals, flushes, status, observations through
// the pending queue, a migration, failed calls among them), through Bridges sharing a Warm and through Bridges
// without, gives the same answers and the same files after every call, for
// the reference model and the default one; and the Warm is used.
func TestWarmSameAsCold(t *testing.T) {
	for _, model := range []string{advice.ModelV2, advice.DefaultModel} {
		t.Run(model, func(t *testing.T) {
			p := newWarmPair(t, model)
			rng := rand.New(rand.NewPCG(7, uint64(len(model))))
			caps := []string{"read", "write", "edit", "exec", "web_search", "web_fetch", "browser", "bogus"}
			verdicts := []string{"success", "partial", "failure"}
			contexts := []string{"read the brief", "fetch the pricing page", "fix the failing test", "write the report",
				`fix the "flaky" test\\now`} // escapes: the decoder's slow path
			var goals []string
			n := 120
			if testing.Short() {
				n = 40
			}
			for i := range n {
				ctx := contexts[rng.IntN(len(contexts))]
				switch k := rng.IntN(20); {
				case k < 7:
					in := fmt.Sprintf(`{"action": %q, "success": %q, "context": %q}`, caps[rng.IntN(len(caps))], verdicts[rng.IntN(3)], ctx)
					p.do(Call{Op: "report", Input: input(t, in)})
				case k < 10:
					p.do(Call{Op: "consult", Args: argsOf("context", ctx)})
				case k == 10:
					p.do(Call{Op: "consult", Args: argsOf("context", ctx, "from", caps[rng.IntN(4)])}) // read-only
				case k == 11:
					p.do(Call{Op: "rate", Args: pyjson.Obj(pyjson.KV("seq", 1+rng.IntN(i+1)), pyjson.KV("success", verdicts[rng.IntN(3)]))})
				case k == 12:
					p.do(Call{Op: "amend", Args: pyjson.Obj(pyjson.KV("seq", 1+rng.IntN(i+1)), pyjson.KV("action", caps[rng.IntN(len(caps))]))})
				case k == 13:
					p.do(Call{Op: "reflect", Input: input(t, fmt.Sprintf(`{"type": "post_task", "text": %q, "capabilities": [%q]}`, fmt.Sprintf("Step %d: %s", i, ctx), caps[rng.IntN(4)]))})
				case k == 14:
					out := p.do(Call{Op: "goal add", Args: argsOf("content", ctx)})
					if id := out.StrOf("id"); id != "" {
						goals = append(goals, id)
					}
				case k == 15 && len(goals) > 0:
					p.do(Call{Op: "goal done", Args: argsOf("id", goals[rng.IntN(len(goals))])}) // twice is an error
				case k == 16:
					p.do(Call{Op: "flush"})
				case k == 17:
					p.do(Call{Op: "status"})
				case k == 18:
					p.do(Call{Op: "consult", Args: argsOf("context", ctx), Input: input(t, `{"context": 1}`)}) // refused
				case k == 19 && i%2 == 0:
					in := fmt.Sprintf(`{"action": %q, "success": %q, "context": %q, "request_id": "obs-%d"}`, caps[rng.IntN(4)], verdicts[rng.IntN(3)], ctx, i)
					p.observe(Call{Op: "report", Input: input(t, in)})
				default:
					p.do(Call{Op: "resume"})
				}
				if i == n/2 {
					p.do(Call{Op: "migrate", Args: argsOf("model", advice.ModelV3)})
					p.do(Call{Op: "migrate", Args: argsOf("model", model)})
				}
			}
			hits, misses := p.w.Stats()
			t.Logf("warm: %d hits, %d misses", hits, misses)
			require.Greater(t, hits, n/2, "most calls use the kept engine")
			for _, dir := range []string{p.cold, p.warm} {
				out, err := New(Options{Workspace: dir}).Do(Call{Op: "verify"})
				require.NoError(t, err, "verify: %s", pyjson.Indent(out))
			}
		})
	}
}

// firstDiff names where two values reflect.DeepEqual tells apart first.
func firstDiff(a, b reflect.Value, path string) string {
	if a.Kind() != b.Kind() {
		return path + ": kinds"
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return path + ": nil"
			}
			return ""
		}
		return firstDiff(a.Elem(), b.Elem(), path)
	case reflect.Struct:
		for i := range a.NumField() {
			if d := firstDiff(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name); d != "" {
				return d
			}
		}
	case reflect.Slice, reflect.Array:
		if a.Kind() == reflect.Slice && a.IsNil() != b.IsNil() {
			return fmt.Sprintf("%s: nil %v, %v (len %d, %d)", path, a.IsNil(), b.IsNil(), a.Len(), b.Len())
		}
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: len %d, %d", path, a.Len(), b.Len())
		}
		for i := range a.Len() {
			if d := firstDiff(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i)); d != "" {
				return d
			}
		}
	case reflect.Map:
		if a.Len() != b.Len() || a.IsNil() != b.IsNil() {
			return fmt.Sprintf("%s: len %d, %d", path, a.Len(), b.Len())
		}
		for _, k := range a.MapKeys() {
			if d := firstDiff(a.MapIndex(k), b.MapIndex(k), fmt.Sprintf("%s[%v]", path, k)); d != "" {
				return d
			}
		}
	case reflect.Float64:
		if a.Float() != b.Float() {
			return fmt.Sprintf("%s: %v, %v", path, a.Float(), b.Float())
		}
	case reflect.Func:
		return ""
	default:
		if fmt.Sprint(a) != fmt.Sprint(b) {
			return fmt.Sprintf("%s: %v, %v", path, a, b)
		}
	}
	return ""
}

// TestWarmSlowDecode: on a manifest whose capability names hold
// characters the state file escapes, the decoder reads the state by its
// slow path, which hands over the state file's other members in compact
// form (a goal's member is not written so): the Warm then keeps what a
// decode gives, and answers and files are still a process's.
func TestWarmSlowDecode(t *testing.T) {
	m, err := os.ReadFile(filepath.Join("..", "torusfield", "aegis-manifest.json"))
	require.NoError(t, err)
	odd := `re\"ad` // JSON for re"ad
	manifest := filepath.Join(t.TempDir(), "manifest.json")
	require.NoError(t, os.WriteFile(manifest, bytes.ReplaceAll(m, []byte(`"read"`), []byte(`"`+odd+`"`)), 0o644))
	root := t.TempDir()
	p := &warmPair{t: t, warm: filepath.Join(root, "warm"), cold: filepath.Join(root, "cold"), w: NewWarm(), now: testNow}
	ok := func(c Call) {
		t.Helper()
		p.do(c)
		require.NoError(t, p.err, c.Op)
	}
	ok(Call{Op: "init", Args: argsOf("manifest", manifest)})
	ok(Call{Op: "goal add", Args: argsOf("content", "read the brief")})
	for i, action := range []string{odd, "web_fetch", odd, "write", odd} {
		ok(Call{Op: "consult", Args: argsOf("context", "read the brief")})
		ok(Call{Op: "report", Input: input(t, fmt.Sprintf(`{"action": "%s", "success": %q, "context": "read the brief"}`, action, []string{"success", "failure"}[i%2]))})
	}
	hits, misses := p.w.Stats()
	require.Equal(t, [2]int{10, 1}, [2]int{hits, misses}, "the goal decodes: the init is not kept")
}

// TestWarmAnotherWriter: a process that commits between two of the
// server's calls changes the state file, so the server's next call does
// not use what it kept (it decodes, and answers as a process would), and
// the one after uses what that call committed.
func TestWarmAnotherWriter(t *testing.T) {
	for _, model := range []string{advice.ModelV2, advice.DefaultModel} {
		t.Run(model, func(t *testing.T) {
			p := newWarmPair(t, model)
			report := func(action string) Call {
				return Call{Op: "report", Input: input(t, fmt.Sprintf(`{"action": %q, "success": "success", "context": "read the brief"}`, action))}
			}
			p.do(report("read"))
			p.do(report("web_fetch"))
			hits, misses := p.w.Stats()
			require.Equal(t, [2]int{1, 1}, [2]int{hits, misses}, "the init is not kept: the first report decodes")
			p.other(report("write"))
			p.do(report("read"))
			hits, misses = p.w.Stats()
			require.Equal(t, [2]int{1, 2}, [2]int{hits, misses}, "another writer's commit: a miss")
			p.do(Call{Op: "consult", Args: argsOf("context", "read the brief")})
			hits, _ = p.w.Stats()
			require.Equal(t, 2, hits, "the server's own commit: a hit")
		})
	}
}

// TestWarmFailedCall: a call that fails after it took the kept engine
// (a verdict on a report that does not exist) leaves nothing kept, and
// the next call decodes the state as the failed call left it (unchanged),
// answering as a process would.
func TestWarmFailedCall(t *testing.T) {
	p := newWarmPair(t, advice.DefaultModel)
	p.do(Call{Op: "report", Input: input(t, `{"action": "read", "success": "success", "context": "read the brief"}`)})
	p.do(Call{Op: "consult", Args: argsOf("context", "read the brief")})
	require.NotNil(t, p.w.engine)
	p.do(Call{Op: "rate", Args: pyjson.Obj(pyjson.KV("seq", 99), pyjson.KV("success", "failure"))})
	require.Nil(t, p.w.engine, "a failed call keeps nothing")
	hits, misses := p.w.Stats()
	p.do(Call{Op: "report", Input: input(t, `{"action": "web_fetch", "success": "failure", "context": "read the brief"}`)})
	_, after := p.w.Stats()
	require.Equal(t, misses+1, after, "the call after a failed one decodes")
	p.do(Call{Op: "status"})
	hitsAfter, _ := p.w.Stats()
	require.Equal(t, hits+1, hitsAfter, "a read uses a clone of what the report kept")
	require.NotNil(t, p.w.engine, "and it stays kept")
}
