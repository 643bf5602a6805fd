package torusfield

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestManifestNear(t *testing.T) {
	m, err := ParseManifest([]byte(`{"capabilities": [{"name": "web_fetch"}, {"name": "web_search"}, {"name": "exec"}, {"name": "edit_file"}]}`))
	require.NoError(t, err)
	for _, c := range []struct{ name, want string }{
		{"web_fecth", `did you mean "web_fetch"? the workspace's manifest has 4 capabilities; the closest: web_fetch, web_search, exec`},
		{"zzzzzzzzzzzzzzzzzzzz", "the workspace's manifest has 4 capabilities; the closest: "},
	} {
		assert.Contains(t, m.Near(c.name), c.want, c.name)
	}
	assert.Equal(t, `unknown capability "web_fecth" ignored; `+m.Near("web_fecth"), m.Unknown("web_fecth", "ignored"))
	assert.Equal(t, m.Near("web_fecth")+"; all are listed in /w/pinned.json (capabilities[].name)", m.UnknownHint("web_fecth", "/w/pinned.json"))
}
