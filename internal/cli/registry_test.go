package cli

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

	ucs "github.com/unified-cognitive-substrate/ucs"
	"github.com/unified-cognitive-substrate/ucs/bridge"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
)

var update = flag.Bool("update", false, "rewrite references/commands.md from the operation registry")

const referencePath = "../../references/commands.md"

// TestCommandReference: the skill's command reference is the registry's,
// in the repository and in the binary. -update rewrites the file.
func TestCommandReference(t *testing.T) {
	want := CommandReference()
	if *update {
		require.NoError(t, os.WriteFile(referencePath, want, 0o644))
	}
	got, err := os.ReadFile(referencePath)
	require.NoError(t, err)
	require.Equal(t, string(want), string(got),
		"references/commands.md drifted from the registry: go test ./internal/cli -run TestCommandReference -update")
	assert.Equal(t, string(want), string(ucs.CommandsMD), "the binary embeds it")
	for _, sp := range bridge.Specs() {
		assert.Contains(t, string(got), "\n## "+sp.Name+"\n", "a section per operation")
		for _, f := range sp.Inputs() {
			assert.Contains(t, string(got), f.Doc, "%s.%s", sp.Name, f.Name)
		}
	}
}

func runHelp(t *testing.T, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := Run(args, Env{Stdout: &stdout, Stderr: &stderr})
	require.Equal(t, 0, code, "%q: %s", args, stderr.String())
	return stdout.String()
}

var helpFlagRE = regexp.MustCompile(`(?m)^  (?:-h, )?\s*--([a-z-]+)`)

// TestHelpFromRegistry: each operation's --help says what its Spec says,
// and its command has exactly the Spec's flags.
func TestHelpFromRegistry(t *testing.T) {
	for _, sp := range bridge.Specs() {
		help := runHelp(t, append(strings.Fields(sp.Name), "--help")...)
		assert.True(t, strings.HasPrefix(help, sp.Summary+".\n\n"), "%s: the summary first", sp.Name)
		for line := range strings.SplitSeq(sp.Long, "\n") {
			assert.Contains(t, help, line, sp.Name)
		}
		assert.Contains(t, help, "Examples:\n"+indent(sp.Example, "  ")+"\n", sp.Name)
		assert.Contains(t, help, effect(sp), sp.Name)
		var flags []string
		for _, f := range sp.Inputs() {
			if f.Flag {
				flags = append(flags, f.FlagName())
				assert.Regexp(t, `(?m)^      --`+f.FlagName()+`( \w+)? +`+regexp.QuoteMeta(flagUsage(&f))+`( \(default ("[^"]*"|\d+)\))?$`, help, "%s --%s", sp.Name, f.FlagName())
				continue
			}
			assert.Contains(t, help, "\n  \""+f.Name+"\": "+fieldType(&f)+"\n      "+f.Describe()+"\n", "%s: stdin field %s", sp.Name, f.Name)
		}
		assert.Equal(t, sp.Stdin(), strings.Contains(help, "\nStdin: "), sp.Name)
		localFlags, _, _ := strings.Cut(help[strings.Index(help, "\nFlags:\n"):], "\nGlobal Flags:")
		var got []string
		for _, m := range helpFlagRE.FindAllStringSubmatch(localFlags, -1) {
			if m[1] != "help" {
				got = append(got, m[1])
			}
		}
		slices.Sort(got)
		slices.Sort(flags)
		assert.Equal(t, flags, got, "%s: the flags are the Spec's", sp.Name)
	}
	root := runHelp(t, "--help")
	for _, sp := range bridge.Specs() {
		if g := sp.Group(); g != "" { // the group's help lists it
			group := runHelp(t, g, "--help")
			assert.Regexp(t, `(?m)^  `+strings.TrimPrefix(sp.Name, g+" ")+` +`+regexp.QuoteMeta(sp.Summary)+`$`, group)
			assert.Regexp(t, `(?m)^  `+g+` +`, root)
			continue
		}
		assert.Regexp(t, `(?m)^  `+sp.Name+` +`+regexp.QuoteMeta(sp.Summary)+`$`, root)
	}
}

// TestFlagsMapOntoTheSchema: the command line's call from flags is
// Spec.Call of the same fields as one object (what a tool would send):
// the journal records the same arguments either way.
func TestFlagsMapOntoTheSchema(t *testing.T) {
	ws := filepath.Join(t.TempDir(), "ws")
	env := Env{Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{},
		Getenv: func(k string) string { return map[string]string{"UCS_NOW": "2026-11-21T21:01:00Z"}[k] }}
	require.Equal(t, 0, Run([]string{"--workspace", ws, "init"}, env))
	require.Equal(t, 0, Run([]string{"--workspace", ws, "consult", "--context", "research pricing", "--capabilities", "read, web_fetch,"}, env))
	journal, err := os.ReadFile(filepath.Join(ws, "ucs", "state", "journal.jsonl"))
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(journal)), "\n")
	ev, err := pyjson.Parse([]byte(lines[len(lines)-1]))
	require.NoError(t, err)
	args, _ := ev.Get("args")
	in, err := pyjson.Parse([]byte(`{"context": "research pricing", "capabilities": ["read", "web_fetch"]}`))
	require.NoError(t, err)
	want := bridge.Lookup("consult").Call(in)
	assert.Equal(t, string(pyjson.Canonical(want.Args)), string(pyjson.Canonical(args)))
}

// TestREADMECommands: the README's command section names every command
// and how to install the skill elsewhere.
func TestREADMECommands(t *testing.T) {
	raw, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	_, section, ok := strings.Cut(string(raw), "\n## Commands\n")
	require.True(t, ok)
	section, _, _ = strings.Cut(section, "\n## ")
	for _, name := range commandNames() {
		assert.Regexp(t, "`(ucs )?"+name+`\b`, section, name)
	}
	for _, sp := range bridge.Specs() {
		for _, f := range sp.Inputs() {
			if f.Flag {
				assert.Contains(t, section, "--"+f.FlagName(), "%s's flag", sp.Name)
			}
		}
	}
	assert.Contains(t, section, "SKILLS_DIR")
	assert.Contains(t, section, "skill install --dir")
}

// TestDocsNameDefaultModel: the demo script and the README say which
// model is the default as advice.DefaultModel does, and the README's
// install section installs every binary of cmd/ (ucs-pg was missing).
func TestDocsNameDefaultModel(t *testing.T) {
	raw, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	readme := string(raw)
	demo, err := os.ReadFile("../../scripts/demo.sh")
	require.NoError(t, err)
	def := string(advice.DefaultModel)
	assert.Regexp(t, `model `+def+` \(the default\)|`+def+`, the default`, string(demo), "demo.sh")
	_, demoLine, ok := strings.Cut(readme, "make demo ")
	require.True(t, ok)
	demoLine, _, _ = strings.Cut(demoLine, "\n")
	assert.Contains(t, demoLine, def+" (the default)", "the README's make demo line")
	_, install, ok := strings.Cut(readme, "\n## Install\n")
	require.True(t, ok)
	install, _, _ = strings.Cut(install, "\n## ")
	dirs, err := os.ReadDir("../../cmd")
	require.NoError(t, err)
	for _, d := range dirs {
		assert.Contains(t, install, "cmd/"+d.Name()+"@latest", "the README's install section")
	}
}
