package handoff

import (
	"testing"

	"github.com/stretchr/testify/assert"

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
