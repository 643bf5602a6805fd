package cli

import (
	"bytes"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCalledCommand(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, ""},
		{[]string{"status"}, "status"},
		{[]string{"status", "--workspace", "w"}, "status"},
		{[]string{"--workspace", "w", "consult", "--context", "x"}, "consult"},
		{[]string{"--workspace=w", "report"}, "report"},
		{[]string{"--workspace"}, ""},
		{[]string{"--workspace", "status"}, ""},
		{[]string{"--help", "status"}, ""},
		{[]string{"-h"}, ""},
		{[]string{"--version"}, ""},
		{[]string{"--", "status"}, ""},
		{[]string{"--bogus", "status"}, ""},
		{[]string{"help", "status"}, "help"},
		// A call on a store names it and its workspace first.
		{[]string{"--store", "postgres://ucs@/ucs", "--workspace-name", "a", "report"}, "report"},
		{[]string{"--store=ws", "--workspace-name=a", "--compact", "status"}, "status"},
		{[]string{"--policy-file", "p.json", "consult"}, "consult"},
		{[]string{"--policy-file=p.json", "policy", "show"}, "policy"},
		{[]string{"--store", "--workspace-name", "status"}, "status"}, // the store is "--workspace-name", as pflag reads it
		{[]string{"--workspace-name"}, ""},
	} {
		assert.Equal(t, c.want, calledCommand(c.args), "%q", c.args)
	}
}

// TestPrunedTree: a call builds only the command it names; everything it
// prints and its exit code are what the whole tree gives, for help, usage
// errors and runs of every command.
func TestPrunedTree(t *testing.T) {
	dir := t.TempDir()
	ws := filepath.Join(dir, "not-initialized")
	var cases [][]string
	for _, name := range commandNames() {
		cases = append(cases,
			[]string{name, "--help"}, []string{name, "-h"}, []string{name, "--bogus"}, []string{name, "extra", "args"},
			[]string{"--workspace", ws, name, "--bogus"}, []string{"--workspace=" + ws, name, "--help"},
			[]string{name, "--workspace"}, []string{name, "--version"}, []string{name, "help"})
		if name != "init" && name != "skill" && name != "replay" {
			cases = append(cases, []string{"--workspace", ws, name})
		}
	}
	cases = append(cases,
		[]string{"consult", "--workspace", ws, "--context", "research pricing", "--capabilities", "read,web_fetch"},
		[]string{"skill"}, []string{"skill", "check"}, []string{"skill", "bogus"}, []string{"skill", "install", "--help"},
		[]string{"skill", "check", filepath.Join(dir, "no-skill")}, []string{"skill", "install", "--dir", "a", "--workspace-skills", "b"},
		[]string{"log", "--workspace", ws, "--format", "xml"}, []string{"replay", "--workspace", ws, filepath.Join(dir, "missing.jsonl")},
		[]string{"verify", "--workspace", ws, "--from", "x"}, []string{"init", "--workspace", ws, "--manifest"},
		[]string{"--store", ws, "--workspace-name", "a", "status"}, []string{"--store=" + ws, "report", "--bogus"},
		[]string{"--workspace-name=a", "--store", ws, "consult", "--help"}, []string{"--policy-file", filepath.Join(dir, "p.json"), "--workspace", ws, "status"},
		[]string{"--store", ws, "bogus"}, []string{"--store", ws, "--version"})
	env := func(stdout, stderr *bytes.Buffer) Env {
		return Env{Stdin: strings.NewReader(`{"action": "read"}`), Stdout: stdout, Stderr: stderr,
			Getenv: func(k string) string { return map[string]string{"UCS_NOW": "2026-11-21T21:01:00Z"}[k] }}
	}
	pruned := 0
	for _, args := range cases {
		only := calledCommand(args)
		if only != "" && only != "help" {
			pruned++
		}
		var out1, err1, out2, err2 bytes.Buffer
		code1 := run(args, env(&out1, &err1), only)
		code2 := run(args, env(&out2, &err2), "")
		assert.Equal(t, code2, code1, "%q: exit code", args)
		assert.Equal(t, out2.String(), out1.String(), "%q: stdout", args)
		assert.Equal(t, err2.String(), err1.String(), "%q: stderr", args)
	}
	assert.Greater(t, pruned, len(cases)*2/3, "most cases run on a pruned tree")
	assert.NoDirExists(t, ws, "no case creates the workspace")
}

// BenchmarkRun: building the tree is most of what a call costs before its
// command runs.
func BenchmarkRun(b *testing.B) {
	for _, bc := range []struct {
		name string
		only string
	}{{"pruned", "version"}, {"whole", ""}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				run([]string{"version"}, Env{Stdout: io.Discard, Stderr: io.Discard}, bc.only)
			}
		})
	}
}
