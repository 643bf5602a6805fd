package cli_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/bridge"
	"github.com/unified-cognitive-substrate/ucs/internal/cli"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

var updateSkill = flag.Bool("update-skill", false, "rewrite the values SKILL.md's example outputs show from real runs")

const skillPath = "../../SKILL.md"

// A fence is a fenced code block of SKILL.md: its language, its body, and
// where the body lies in the file.
type fence struct {
	lang       string
	body       string
	start, end int
}

var fenceRE = regexp.MustCompile("(?m)^```([a-z]*)\n((?s:.*?))^```$")

func fences(doc string) []fence {
	var out []fence
	for _, m := range fenceRE.FindAllStringSubmatchIndex(doc, -1) {
		out = append(out, fence{lang: doc[m[2]:m[3]], body: doc[m[4]:m[5]], start: m[4], end: m[5]})
	}
	return out
}

// words splits a command line as a shell would for the forms SKILL.md
// uses: single and double quotes, no expansions.
func words(line string) []string {
	var out []string
	var cur strings.Builder
	in, inWord := byte(0), false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case in != 0 && c == in:
			in = 0
		case in != 0:
			cur.WriteByte(c)
		case c == '\'' || c == '"':
			in, inWord = c, true
		case c == ' ':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out
}

// runExample runs one SKILL.md command line: an optional `echo 'JSON' |`,
// then {baseDir}/bin/ucs and its arguments, with < and > redirections
// relative to dir. It returns the output and exit code.
func runExample(t *testing.T, line, dir string) ([]byte, int) {
	t.Helper()
	var stdin []byte
	if strings.HasPrefix(line, "echo ") {
		pipe := strings.Index(line, " | ")
		require.Positive(t, pipe, line)
		stdin = []byte(words(line[len("echo "):pipe])[0])
		line = line[pipe+3:]
	}
	w := words(strings.ReplaceAll(line, "~/", dir+"/"))
	require.Equal(t, "{baseDir}/bin/ucs", w[0], "every example calls the installed binary: %s", line)
	var args []string
	var outFile string
	for i := 1; i < len(w); i++ {
		switch w[i] {
		case ">":
			outFile = filepath.Join(dir, w[i+1])
			i++
		case "<":
			data, err := os.ReadFile(filepath.Join(dir, w[i+1]))
			require.NoError(t, err)
			stdin = data
			i++
		default:
			args = append(args, w[i])
		}
	}
	var stdout, stderr bytes.Buffer
	env := map[string]string{"UCS_NOW": "2026-11-21T21:01:00Z", "UCS_WORKSPACE": filepath.Join(dir, ".ucs")}
	code := cli.Run(args, cli.Env{Stdin: bytes.NewReader(stdin), Stdout: &stdout, Stderr: &stderr, Getenv: func(k string) string { return env[k] }})
	if outFile != "" {
		require.NoError(t, os.WriteFile(outFile, stdout.Bytes(), 0o644))
	}
	return stdout.Bytes(), code
}

// TestSkillExamples runs every command of SKILL.md, in order, on one fresh
// workspace, and checks each output has every key the JSON shown after it
// has (recursively; for lists, the keys of their first item). SKILL.md
// shows a few keys of each output; with -update-skill their values are
// rewritten from the real outputs, so SKILL.md cannot drift from the
// binary.
func TestSkillExamples(t *testing.T) {
	raw, err := os.ReadFile(skillPath)
	require.NoError(t, err)
	doc := string(raw)
	dir := t.TempDir()
	fs := fences(doc)
	var edits []fence
	ran := 0
	for i, f := range fs {
		if f.lang != "sh" {
			continue
		}
		var out []byte
		var code int
		lines := strings.Split(strings.TrimSpace(f.body), "\n")
		for _, line := range lines {
			out, code = runExample(t, line, dir)
			ran++
		}
		if i+1 >= len(fs) || fs[i+1].lang != "json" {
			require.Equal(t, 0, code, "%s", lines)
			continue
		}
		got, err := pyjson.Parse(out)
		require.NoError(t, err, "%s printed %s", lines, out)
		if _, isErr := got.Get("error"); !isErr {
			assert.Equal(t, 0, code, "%s", lines)
		}
		shown, err := pyjson.Parse([]byte(fs[i+1].body))
		require.NoError(t, err, "the JSON shown after %s", lines)
		if *updateSkill {
			// The test's temporary directory stands for the user's home.
			kept := pruneTo(got, shown)
			body := string(pyjson.AppendDumps(nil, kept))
			if len(body) > 130 {
				body = string(pyjson.Indent(kept))
			}
			body = strings.ReplaceAll(body, dir, "/home/agent")
			edits = append(edits, fence{body: body + "\n", start: fs[i+1].start, end: fs[i+1].end})
			continue
		}
		require.NotEmpty(t, shown.Members(), "SKILL.md shows no output for %s: run with -update-skill", lines)
		for _, missing := range missingKeys("", shown, got) {
			t.Errorf("%s: SKILL.md shows %s, the output has none", lines[len(lines)-1], missing)
		}
	}
	assert.GreaterOrEqual(t, ran, 15, "SKILL.md's examples")
	if *updateSkill {
		for i := len(edits) - 1; i >= 0; i-- {
			doc = doc[:edits[i].start] + edits[i].body + doc[edits[i].end:]
		}
		require.NoError(t, os.WriteFile(skillPath, []byte(doc), 0o644))
	}
}

// pruneTo keeps of got what shown shows: the members of the keys shown
// and, of a list, as many items as shown (at least one, shortened, when
// the output has some and none is shown).
func pruneTo(got, shown pyjson.Value) pyjson.Value {
	switch {
	case got.Kind() == pyjson.Object && shown.Kind() == pyjson.Object:
		var ms []pyjson.Member
		for _, m := range got.Members() {
			if s, ok := shown.Get(m.Key); ok {
				ms = append(ms, pyjson.Member{Key: m.Key, Value: pruneTo(m.Value, s)})
			}
		}
		return pyjson.ObjectValue(ms)
	case got.Kind() == pyjson.Array && shown.Kind() == pyjson.Array:
		items := got.Items()
		if len(shown.Items()) == 0 {
			return shorten(pyjson.ArrayValue(items[:min(1, len(items))]))
		}
		out := make([]pyjson.Value, min(len(shown.Items()), len(items)))
		for i := range out {
			out[i] = pruneTo(items[i], shown.Items()[i])
		}
		return pyjson.ArrayValue(out)
	}
	return got
}

// shorten keeps the first two items of every list, so examples stay short.
func shorten(v pyjson.Value) pyjson.Value {
	switch v.Kind() {
	case pyjson.Array:
		items := v.Items()
		items = items[:min(2, len(items))]
		out := make([]pyjson.Value, len(items))
		for i, it := range items {
			out[i] = shorten(it)
		}
		return pyjson.ArrayValue(out)
	case pyjson.Object:
		ms := make([]pyjson.Member, len(v.Members()))
		for i, m := range v.Members() {
			ms[i] = pyjson.Member{Key: m.Key, Value: shorten(m.Value)}
		}
		return pyjson.ObjectValue(ms)
	}
	return v
}

// missingKeys lists the paths of members shown but absent from got.
func missingKeys(path string, shown, got pyjson.Value) []string {
	var out []string
	switch shown.Kind() {
	case pyjson.Object:
		for _, m := range shown.Members() {
			g, ok := got.Get(m.Key)
			if !ok {
				out = append(out, path+"."+m.Key)
				continue
			}
			out = append(out, missingKeys(path+"."+m.Key, m.Value, g)...)
		}
	case pyjson.Array:
		if len(shown.Items()) > 0 && len(got.Items()) > 0 {
			out = append(out, missingKeys(path+"[0]", shown.Items()[0], got.Items()[0])...)
		}
	}
	return out
}

// TestSkillMDShape: SKILL.md stays within the Agent Skills guidance (under
// 500 lines; ours aims at 250: the operations of a whole session, goals,
// exec and ratings), shows one example of every command, and leaves every
// field to references/commands.md.
func TestSkillMDShape(t *testing.T) {
	raw, err := os.ReadFile(skillPath)
	require.NoError(t, err)
	doc := string(raw)
	assert.LessOrEqual(t, strings.Count(doc, "\n"), 250, "SKILL.md's lines")
	assert.Contains(t, doc, "(references/commands.md)", "it points to the full reference")
	var lines []string
	for _, f := range fences(doc) {
		if f.lang == "sh" {
			lines = append(lines, strings.Split(strings.TrimSpace(f.body), "\n")...)
		}
	}
	for _, sp := range bridge.Specs() {
		// A group of operations (goal add, goal list, ...) needs one
		// example of the group; the reference has each of them.
		name := sp.Name
		if g := sp.Group(); g != "" {
			name = g
		}
		re := regexp.MustCompile(`\{baseDir\}/bin/ucs (--workspace \S+ )?` + name + `\b`)
		assert.True(t, slices.ContainsFunc(lines, re.MatchString), "SKILL.md has no example of %s", name)
	}
}
