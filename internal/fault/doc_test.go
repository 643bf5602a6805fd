package fault

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var updateDoc = flag.Bool("update-doc", false, "rewrite docs/errors.md from Kinds and Codes")

// errorsDoc is docs/errors.md as Kinds and Codes give it.
func errorsDoc() string {
	var b strings.Builder
	b.WriteString(`<!-- Code generated from internal/fault/codes.go by go generate ./internal/fault; DO NOT EDIT. -->

# Errors

On failure a command prints ` + "`" + `{"error": "<what went wrong>", "code": "<snake_case>", "hint": "<how to fix>"}` + "`" + `
on stdout (some codes add members, named below), one line on stderr (its
control characters escaped), and exits with the code of the error's kind.
` + "`" + `ucs exec` + "`" + ` prints the JSON on stderr instead (stdout is the tool's) and otherwise
exits with the tool's own code. The MCP server (` + "`" + `ucs-mcp` + "`" + `) returns the same
object as a tool error. A rejected call changes no file.

Agents branch on ` + "`" + `code` + "`" + `: it is stable. The message may change.

## Exit codes

| exit | kind | what to do |
| --- | --- | --- |
| 0 | ok | |
`)
	for _, k := range Kinds {
		fmt.Fprintf(&b, "| %d | %s | %s |\n", k.Kind, k.Name, mdCell(k.Do))
	}
	b.WriteString(`
## Codes

| code | exit | meaning |
| --- | --- | --- |
`)
	for _, c := range Codes {
		fmt.Fprintf(&b, "| `%s` | %d | %s |\n", c.Code, c.Kind, mdCell(c.Meaning))
	}
	return b.String()
}

func mdCell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// TestErrorsDoc: docs/errors.md is what the lists give.
func TestErrorsDoc(t *testing.T) {
	path := filepath.Join(moduleRoot(t), "docs", "errors.md")
	want := errorsDoc()
	if *updateDoc {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != want {
		t.Fatalf("docs/errors.md is not what internal/fault's Codes and Kinds give (%v); regenerate it: %s", err, regenerate)
	}
}

// TestCodesList: each code once, snake_case, with a documented kind and a
// meaning, in the order of Kinds, then by name.
func TestCodesList(t *testing.T) {
	order := map[Kind]int{}
	for i, k := range Kinds {
		order[k.Kind] = i + 1
	}
	seen := map[string]bool{}
	for i, c := range Codes {
		if seen[c.Code] {
			t.Errorf("%q is listed twice", c.Code)
		}
		seen[c.Code] = true
		if strings.Trim(c.Code, "abcdefghijklmnopqrstuvwxyz0123456789_") != "" || c.Code == "" {
			t.Errorf("%q is not snake_case", c.Code)
		}
		if order[c.Kind] == 0 {
			t.Errorf("%q has exit %d, which Kinds does not document", c.Code, c.Kind)
		}
		if strings.TrimSpace(c.Meaning) == "" || strings.Contains(c.Meaning, "\n") {
			t.Errorf("%q needs a one-line meaning", c.Code)
		}
		if i > 0 {
			p := Codes[i-1]
			if order[p.Kind] > order[c.Kind] || p.Kind == c.Kind && p.Code > c.Code {
				t.Errorf("%q is out of order after %q: Codes are by kind (as Kinds), then name", c.Code, p.Code)
			}
		}
	}
	if !slices.IsSortedFunc(Kinds[:len(Kinds)-1], func(a, b KindDoc) int { return int(a.Kind - b.Kind) }) {
		t.Error("Kinds are not by exit code")
	}
}
