package advice

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
)

// The state file's learn member reads back to the same bytes, and an
// export's portable form leaves out what names this workspace's events.
func TestStepsRoundTrip(t *testing.T) {
	v := NewSteps()
	v.Generation = 7
	ep := v.TaskEpisode("", "fix the login bug")
	ep.Locate(nextstep.Start, "search")
	v.Remember(learn.Advisory{ID: "ab", Cursor: "search", Top: "edit", Seq: 3, Terms: ep.Terms, Task: ep.Task})
	v.Followed.Add(1, 1)

	raw := v.AppendJSON(nil)
	back, err := DecodeSteps(raw)
	require.NoError(t, err)
	assert.Equal(t, string(raw), string(back.AppendJSON(nil)))

	port := v.AppendPortable(nil)
	assert.NotContains(t, string(port), "advisories")
	assert.NotContains(t, string(port), "generation")
	p, err := DecodePortable(port)
	require.NoError(t, err)
	assert.Equal(t, string(port), string(p.AppendPortable(nil)))
	_, err = DecodePortable(raw)
	assert.Error(t, err, "a portable state has no generation")
}

// A task the agent comes back to resumes where it was; a task id is kept
// as the agent gave it, a context's task by its terms' digest.
func TestTaskEpisode(t *testing.T) {
	v := NewSteps()
	a := v.TaskEpisode("t1", "")
	a.Locate(nextstep.Start, "search")
	b := v.TaskEpisode("", "write the report")
	assert.NotSame(t, a, b)
	assert.Equal(t, "", TaskName(b.Task))
	assert.Equal(t, ContextTask(learn.Terms("write the report")), b.Task)
	again := v.TaskEpisode("t1", "")
	assert.Same(t, a, again)
	assert.Equal(t, "search", again.At)
	assert.Equal(t, "t1", TaskName(again.Task))
	assert.Same(t, again, v.Current())
	for i := range 2 * EpisodesKept {
		v.TaskEpisode(string(rune('a'+i)), "")
	}
	assert.Len(t, v.Episodes, EpisodesKept)
}
