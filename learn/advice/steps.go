package advice

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
)

// Steps is a v5 workspace's learned state in the state file's learn
// member: the tasks in progress (the episodes), the model's global numbers,
// the advisories remembered for attribution and how advice fared.
type Steps struct {
	// Episodes are the recent tasks, the current one last: an agent that
	// comes back to a task it interleaved with another resumes it where
	// it was.
	Episodes []*nextstep.Episode
	// Located is where the agent last said it is, by a neutral report
	// that named no task and no context, until the next call: a task that
	// starts right after it starts there (an agent puts itself at a
	// task's first tool, then asks what next).
	Located    string
	Globals    nextstep.Globals
	Advisories []learn.Advisory // oldest first
	Followed   learn.Tally
	Unfollowed learn.Tally
	// Generation names the record log's keys of this model: the event
	// that started it (0: the workspace's init), so that a workspace that
	// comes back to v5 learns afresh.
	Generation int64
	// Model is the call's view of the learned evidence, opened on first
	// use over the record log.
	Model *nextstep.Model
}

// NewSteps is the learned state of a new v5 workspace: one episode, at
// the task's start.
func NewSteps() *Steps {
	return &Steps{Episodes: []*nextstep.Episode{nextstep.NewEpisode("", nil)}, Globals: nextstep.Globals{Beta: 0.5}}
}

// EpisodesKept is how many recent tasks a workspace keeps the trail of.
const EpisodesKept = 8

// TaskEpisode returns the episode a consult or report of this task and
// context belongs to: the current task's, a recent task's the agent comes
// back to (it resumes where it was), or a new one at the task's start
// when the task was not seen recently: an explicit task id, or without
// one, a context that describes another task (learn.SameTask). Nothing of
// another task's trail carries over. A call with neither keeps the
// current episode.
func (v *Steps) TaskEpisode(task, context string) *nextstep.Episode {
	defer func() { v.Located = "" }()
	terms := learn.Terms(context)
	same := func(ep *nextstep.Episode) bool { return learn.SameTask(terms, ep.Terms) }
	switch {
	case task != "":
		key := explicitTask(task)
		same = func(ep *nextstep.Episode) bool { return ep.Task == key }
		v.resume(same, func() *nextstep.Episode { return nextstep.NewEpisode(key, terms) })
	case len(terms) > 0:
		v.resume(same, func() *nextstep.Episode { return nextstep.NewEpisode(ContextTask(terms), terms) })
	}
	ep := v.Current()
	if len(ep.Terms) == 0 {
		ep.Terms = terms // a task begun without a context takes its first one
	}
	return ep
}

// Current is the episode of the task in progress.
func (v *Steps) Current() *nextstep.Episode { return v.Episodes[len(v.Episodes)-1] }

// resume makes the newest episode that is the task current, else a new
// one, forgetting the oldest beyond EpisodesKept.
func (v *Steps) resume(is func(*nextstep.Episode) bool, start func() *nextstep.Episode) {
	for i := len(v.Episodes) - 1; i >= 0; i-- {
		if ep := v.Episodes[i]; is(ep) {
			v.Episodes = append(append(v.Episodes[:i:i], v.Episodes[i+1:]...), ep)
			if v.Located != "" && ep.At != v.Located {
				ep.Locate(ep.Prev, v.Located) // the agent said where it is
			}
			return
		}
	}
	ep := start()
	if v.Located != "" {
		ep.Locate(nextstep.Start, v.Located)
	}
	v.Episodes = append(v.Episodes, ep)
	if len(v.Episodes) > EpisodesKept {
		v.Episodes = v.Episodes[len(v.Episodes)-EpisodesKept:]
	}
}

// Remember keeps a consult's advice for the reports that follow it,
// forgetting the oldest beyond learn.AdvisoriesKept.
func (v *Steps) Remember(a learn.Advisory) {
	v.Advisories = append(v.Advisories, a)
	if len(v.Advisories) > learn.AdvisoriesKept {
		v.Advisories = v.Advisories[len(v.Advisories)-learn.AdvisoriesKept:]
	}
}

// PositionEpisode is the episode consult --from ranks in: the task (its
// id, else its context's terms) with the agent just arrived at from
// (nextstep.Start: the task's start), by a successful step from a place
// it does not say. Nothing of the agent's own trail enters it, so the
// answer depends only on the task, the context and from.
func PositionEpisode(task, context, from string) *nextstep.Episode {
	terms := learn.Terms(context)
	key := ContextTask(terms)
	if task != "" {
		key = explicitTask(task)
	}
	ep := nextstep.NewEpisode(key, terms)
	if from != nextstep.Start {
		ep.Locate(nextstep.Start, from)
	}
	return ep
}

// An explicit task id is kept as the agent gave it, behind a prefix that
// tells it from a context's digest.
func explicitTask(id string) string { return "=" + id }

// ContextTask is the task key of a task known only by its context: a
// digest of its terms, so that the same task described again is the same
// task.
func ContextTask(terms []string) string {
	if len(terms) == 0 {
		return ""
	}
	sum := sha256.Sum256([]byte(strings.Join(terms, " ")))
	return "~" + hex.EncodeToString(sum[:8])
}

// TaskName is a task key as the agent knows it: its id, or "" for one
// known by its context.
func TaskName(key string) string {
	if id, ok := strings.CutPrefix(key, "="); ok {
		return id
	}
	return ""
}
