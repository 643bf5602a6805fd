package store

import "strings"

// IsDatabase reports whether a store URL names a PostgreSQL database.
func IsDatabase(url string) bool {
	return strings.HasPrefix(url, "postgres://") || strings.HasPrefix(url, "postgresql://")
}

// URL is a call's store: the one flagged (--store), else, unless a
// workspace directory is flagged (--workspace), UCS_STORE.
func URL(flagged, workspace string, getenv func(string) string) string {
	if flagged != "" {
		return flagged
	}
	if workspace != "" {
		return ""
	}
	return getenv("UCS_STORE")
}

// WorkspaceName names a call's workspace in a store: the one flagged
// (--workspace-name), else UCS_WORKSPACE_NAME, else UCS_AGENT_ID, else
// "default".
func WorkspaceName(flagged string, getenv func(string) string) string {
	for _, v := range []string{flagged, getenv("UCS_WORKSPACE_NAME"), getenv("UCS_AGENT_ID")} {
		if v != "" {
			return v
		}
	}
	return "default"
}
