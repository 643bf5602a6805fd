package bridge

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/transfer"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace/workspacetest"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
)

// newV4 initializes a workspace of ucs's own model.
func newV4(t testing.TB, opts Options) *Bridge {
	t.Helper()
	opts.Workspace = filepath.Join(t.TempDir(), "ws")
	if opts.Now.IsZero() {
		opts.Now = testNow
	}
	b := New(opts)
	_, err := b.Do(Call{Op: "init", Args: pyjson.Obj(pyjson.KV("model", advice.ModelV4))})
	require.NoError(t, err)
	return b
}

func errCode(err error) string {
	if e, ok := err.(*fault.Error); ok {
		return e.Code
	}
	return ""
}

// TestCallsMustBeText: whatever channel a call comes through (a tool's
// arguments reach Do as they are), a string or a member name that is not
// UTF-8 is refused with invalid_utf8 naming its field, and nothing is
// written: one such byte in the journal made every later call fail.
func TestCallsMustBeText(t *testing.T) {
	b := newV4(t, Options{})
	cases := []struct {
		name  string
		call  Call
		where string
	}{
		{"a flag", Call{Op: "consult", Args: argsOf("context", "a\xffb")}, "--context"},
		{"a stdin member", Call{Op: "report", Input: pyjson.Obj(pyjson.KV("action", "read"), pyjson.KV("outcome", "x\xc3"))}, `"outcome"`},
		{"inside an object", Call{Op: "report", Input: pyjson.Obj(pyjson.KV("action", "read"),
			pyjson.KV("reasoning_trace", pyjson.Obj(pyjson.KV("why", []string{"ok", "\xed\xa0\x80"}))))}, `"reasoning_trace"`},
		{"a member name", Call{Op: "report", Input: pyjson.Obj(pyjson.KV("action", "read"), pyjson.KV("\xff", 1))}, "field"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := workspacetest.Fingerprint(t, b.opts.Workspace)
			_, err := b.Do(c.call)
			require.Error(t, err)
			assert.Equal(t, "invalid_utf8", errCode(err))
			assert.Contains(t, err.Error(), c.where)
			assert.Equal(t, before, workspacetest.Fingerprint(t, b.opts.Workspace))
		})
	}
	bad := New(Options{Workspace: b.opts.Workspace, Now: testNow, AgentID: "agent\xff"})
	_, err := bad.Do(Call{Op: "consult", Args: argsOf("context", "deploy")})
	assert.Equal(t, "invalid_utf8", errCode(err))
	_, err = b.Do(Call{Op: "verify"})
	require.NoError(t, err)
}

// TestTextCaps: every free-text field has a cap, stated in its schema; a
// value over it is refused with too_large naming the field and the cap
// (before, a 10 MB context took 15 s and made every later call slow), and
// a value at the cap is taken.
func TestTextCaps(t *testing.T) {
	b := newV4(t, Options{})
	long := func(n int) string { return strings.Repeat("é", n) } // characters, not bytes
	cases := []struct {
		name string
		call Call
		ok   bool
		msg  string
	}{
		{"context at its cap", Call{Op: "consult", Args: argsOf("context", long(field.ContextCap))}, true, ""},
		{"context over it", Call{Op: "consult", Args: argsOf("context", long(field.ContextCap+1))}, false, "--context has 16385 characters, more than its cap of 16384"},
		{"an outcome over its cap", Call{Op: "report", Input: pyjson.Obj(pyjson.KV("action", "read"), pyjson.KV("outcome", long(field.TextCap+1)))}, false, `field "outcome" has 65537 characters`},
		{"a goal's content", Call{Op: "goal add", Args: argsOf("content", long(field.NoteCap+1))}, false, "--content has 4097 characters"},
		{"a keyword", Call{Op: "reflect", Input: pyjson.Obj(pyjson.KV("text", "x"), pyjson.KV("keywords", []string{long(field.PhraseCap + 1)}))}, false, "characters in an item"},
		{"a reasoning trace", Call{Op: "report", Input: pyjson.Obj(pyjson.KV("action", "read"),
			pyjson.KV("reasoning_trace", pyjson.Obj(pyjson.KV("why", strings.Repeat("a", field.ObjectCap)))))}, false, "bytes of JSON, more than its cap of 65536"},
		{"an identifier", Call{Op: "goal show", Args: argsOf("id", strings.Repeat("g", field.StringCap+1))}, false, "--id has 4097 characters"},
		{"an imported entry", Call{Op: "import", Input: pyjson.Obj(pyjson.KV("format", transfer.Format),
			pyjson.KV("methodology", []pyjson.Value{pyjson.Obj(pyjson.KV("text", "short")), pyjson.Obj(pyjson.KV("text", long(field.TextCap+1)))}))},
			false, "methodology[1].text has 65537 characters"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := b.Do(c.call)
			if c.ok {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Equal(t, "too_large", errCode(err))
			assert.Contains(t, err.Error(), c.msg)
		})
	}
	for _, sp := range Specs() {
		for _, f := range sp.Inputs() {
			if f.Text {
				assert.Contains(t, f.Describe(), "at most", "%s.%s states its cap", sp.Name, f.Name)
			}
		}
	}
}

// TestSecretsNeverStored plants secrets in every free-text field an agent
// or a person writes, then reads the whole workspace, an export, the log
// and the dashboard page: no secret is in any of them, and the words
// around them are.
func TestSecretsNeverStored(t *testing.T) {
	secrets := []string{
		"sk-proj-Abc123def456ghi789jkl012mno345",
		"ghp_0123456789abcdefghijABCDEFGHIJ012345",
		"hunter2hunter2",
		"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJl",
	}
	say := func(i int) string {
		return []string{"key " + secrets[0], "token " + secrets[1], "DB_PASSWORD=" + secrets[2], "Authorization: Bearer " + secrets[3]}[i%4]
	}
	var log bytes.Buffer
	b := newV4(t, Options{Output: &log})
	do := func(c Call) pyjson.Value {
		t.Helper()
		out, err := b.Do(c)
		require.NoError(t, err, "%s", c.Op)
		return out
	}
	do(Call{Op: "consult", Args: argsOf("context", "deploy with "+say(0))})
	for i := range 4 {
		do(Call{Op: "report", Input: pyjson.Obj(pyjson.KV("action", "read"), pyjson.KV("success", "success"),
			pyjson.KV("outcome", "done, "+say(i)), pyjson.KV("context", "deploy "+say(i+1)),
			pyjson.KV("reasoning_trace", pyjson.Obj(pyjson.KV("decisive_factor", say(i+2)), pyjson.KV("alternatives", []string{say(i + 3)}))))})
	}
	do(Call{Op: "reflect", Input: pyjson.Obj(pyjson.KV("text", "Deploy after login, "+say(1)), pyjson.KV("capabilities", []string{"read"}),
		pyjson.KV("keywords", []string{"deploy", say(2)}))})
	do(Call{Op: "reflect", Input: pyjson.Obj(pyjson.KV("type", "dead_end"), pyjson.KV("topic", "staging "+say(3)),
		pyjson.KV("why_closed", say(0)), pyjson.KV("reopen_conditions", say(1)))})
	g := do(Call{Op: "goal add", Args: argsOf("content", "ship it, "+say(2))})
	id, _ := g.Get("id")
	if !id.IsNull() {
		do(Call{Op: "goal suspend", Args: argsOf("id", id.Str(), "note", say(3))})
	}
	do(Call{Op: "rate", Args: pyjson.Obj(pyjson.KV("seq", 3), pyjson.KV("success", "failure"), pyjson.KV("note", say(0)))})
	do(Call{Op: "amend", Args: pyjson.Obj(pyjson.KV("seq", 4), pyjson.KV("success", "partial"), pyjson.KV("note", say(1)), pyjson.KV("by", "operator"))})
	do(Call{Op: "policy block", Args: pyjson.Obj(pyjson.KV("capability", "read"), pyjson.KV("reason", say(2)),
		pyjson.KV("command", []string{"curl", "-H", say(3)}))})
	export := do(Call{Op: "export"})
	page := filepath.Join(t.TempDir(), "page.html")
	do(Call{Op: "view", Args: argsOf("out", page)})
	do(Call{Op: "log"})

	var all bytes.Buffer
	require.NoError(t, filepath.WalkDir(b.opts.Workspace, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		all.Write(data)
		return err
	}))
	pageBytes, err := os.ReadFile(page)
	require.NoError(t, err)
	for name, text := range map[string]string{"the workspace": all.String(), "export": string(pyjson.AppendCompact(nil, export)),
		"log": log.String(), "the page": string(pageBytes)} {
		for _, s := range secrets {
			assert.NotContains(t, text, s, "%s holds a secret", name)
		}
		assert.Contains(t, text, "REDACTED", "%s says what it redacted", name)
	}
	assert.Contains(t, all.String(), "Deploy after login", "the words around a secret stay")
	_, err = b.Do(Call{Op: "verify"})
	require.NoError(t, err)
}
