package store

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestIsDatabase(t *testing.T) {
	tests := []struct {
		url  string
		want bool
	}{
		{"postgres://ucs@/ucs?host=/run/postgresql", true},
		{"postgresql://ucs@127.0.0.1/ucs", true},
		{"file:///tmp/ws", false},
		{"/tmp/ws", false},
		{"Postgres://x", false}, // as the command line has always read it
		{"", false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, IsDatabase(tt.url), tt.url)
	}
}

func TestURL(t *testing.T) {
	env := func(store string) func(string) string {
		return func(k string) string {
			if k == "UCS_STORE" {
				return store
			}
			return ""
		}
	}
	tests := []struct {
		name, flagged, workspace, env, want string
	}{
		{"flag wins", "postgres://a", "", "postgres://b", "postgres://a"},
		{"flag beside a workspace", "postgres://a", "/ws", "postgres://b", "postgres://a"},
		{"environment", "", "", "postgres://b", "postgres://b"},
		{"a workspace flagged hides the environment", "", "/ws", "postgres://b", ""},
		{"none", "", "", "", ""},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, URL(tt.flagged, tt.workspace, env(tt.env)), tt.name)
	}
}

func TestWorkspaceName(t *testing.T) {
	tests := []struct {
		name, flagged, wsName, agent, want string
	}{
		{"flag", "a", "b", "c", "a"},
		{"UCS_WORKSPACE_NAME", "", "b", "c", "b"},
		{"UCS_AGENT_ID", "", "", "c", "c"},
		{"default", "", "", "", "default"},
	}
	for _, tt := range tests {
		getenv := func(k string) string {
			return map[string]string{"UCS_WORKSPACE_NAME": tt.wsName, "UCS_AGENT_ID": tt.agent}[k]
		}
		assert.Equal(t, tt.want, WorkspaceName(tt.flagged, getenv), tt.name)
	}
}
