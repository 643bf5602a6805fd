package workspace

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// The cheap reads of a state file's meta (stateSeq, which decides whether
// a call was cut short, and RecordedAgent) agree with the full load
// (metaOf) on a file with a repeated key: one parser reads the meta, with
// a dict's semantics (the last value), wherever it is read. A ucs member
// that is not the file's first is refused by each.
func TestMetaReadersAgree(t *testing.T) {
	l := New(t.TempDir(), Options{})
	dup := []byte(`{"ucs":{"format":2,"seq":3,"agent_id":"a","seq":5,"agent_id":"b"},"t":0}`)
	seq, err := stateSeq(dup)
	require.NoError(t, err)
	require.Equal(t, int64(5), seq)

	require.NoError(t, os.MkdirAll(filepath.Dir(l.path(RelState)), 0o700))
	require.NoError(t, writeFile(l.path(RelState), dup))
	agent, err := l.RecordedAgent()
	require.NoError(t, err)
	require.Equal(t, "b", agent)

	notLead := []byte(`{"t":0,"ucs":{"seq":4}}`)
	_, err = stateSeq(notLead)
	require.ErrorContains(t, err, "not its first")
	_, _, err = l.metaOf(notLead)
	require.ErrorIs(t, err, errNotLead)

	ref := []byte(`{"t":0,"grid":[]}`) // a reference workspace's: no meta
	seq, err = stateSeq(ref)
	require.NoError(t, err)
	require.Zero(t, seq)
}
