package handoff

import (
	"go/parser"
	"go/token"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/store"
)

func TestWanted(t *testing.T) {
	const url = "postgres://ucs@/ucs?host=/run/postgresql"
	for _, tc := range []struct {
		name  string
		args  []string
		store string // UCS_STORE
		want  bool
	}{
		{"a directory call", []string{"status"}, "", false},
		{"--store URL", []string{"--store", url, "report"}, "", true},
		{"--store=URL", []string{"--store=" + url, "report"}, "", true},
		{"postgresql://", []string{"--store", "postgresql://ucs@/ucs", "status"}, "", true},
		{"--store a directory", []string{"--store", "ws", "status"}, url, false},
		{"--store file://", []string{"--store", "file://ws", "status"}, "", false},
		{"store push --to URL", []string{"--workspace", "ws", "store", "push", "--to", url}, "", true},
		{"--to a directory", []string{"store", "pull", "--to", "./here"}, "", false},
		{"UCS_STORE", []string{"consult"}, url, true},
		{"--workspace over UCS_STORE", []string{"--workspace", "ws", "consult"}, url, false},
		{"--workspace= over UCS_STORE", []string{"--workspace=ws", "consult"}, url, false},
		{"exec's command is not ucs's", []string{"exec", "--", "tool", "--store", url}, "", false},
		{"--store without a value", []string{"--store"}, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			getenv := func(k string) string {
				if k == "UCS_STORE" {
					return tc.store
				}
				return ""
			}
			assert.Equal(t, tc.want, Wanted(tc.args, getenv))
		})
	}
	assert.False(t, Wanted([]string{"status"}, nil), "no environment")
}

// The hand-off's test of a URL is the store's, which this package may not
// import.
func TestIsDatabaseIsTheStores(t *testing.T) {
	for _, url := range []string{"postgres://a@/b", "postgresql://a@/b", "postgres:/x", "POSTGRES://a", "file://ws", "ws", "", "mysql://a"} {
		assert.Equal(t, store.IsDatabase(url), isDatabase(url), url)
	}
}

// The package imports os, runtime and syscall only: with one that waits
// for unicode (strings, path/filepath), Go initializes it, and so hands
// the call off, after some twenty more packages of ucs (about 0.3 ms).
func TestImportsLittle(t *testing.T) {
	entries, err := os.ReadDir(".")
	require.NoError(t, err)
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), e.Name(), nil, parser.ImportsOnly)
		require.NoError(t, err)
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			assert.True(t, slices.Contains([]string{"os", "runtime", "syscall"}, path), "%s imports %s", e.Name(), path)
		}
	}
}

// FuzzWanted: any command line (words separated by NUL) and UCS_STORE; a
// call is handed off only if a word or UCS_STORE names a database.
func FuzzWanted(f *testing.F) {
	f.Add("--store\x00postgres://a@/b\x00report", "")
	f.Add("--workspace=w\x00status", "postgresql://x")
	f.Add("exec\x00--\x00--store=postgres://", "")
	f.Add("--to", "postgres://")
	f.Fuzz(func(t *testing.T, line, env string) {
		args := strings.Split(line, "\x00")
		got := Wanted(args, func(k string) string {
			if k == "UCS_STORE" {
				return env
			}
			return ""
		})
		if got && !isDatabase(env) {
			assert.True(t, slices.ContainsFunc(args, func(a string) bool { return strings.Contains(a, "postgres") }), "%q", args)
		}
	})
}
