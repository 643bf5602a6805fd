package bridge

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
)

// ModelV5 is ucs's next-step model (package learn/nextstep): it ranks the
// agent's next step by what agents did next in the same place of the same
// or similar tasks and by the step's own chance of success, over exact
// keys, from the task's start. Its evidence lives in the workspace's
// record log, read key by key, so a call costs the same however much it
// learned; the state file keeps only the episodes, the advisories and a
// few numbers.
const ModelV5 = "v5"

// stepsState is a v5 workspace's learned state in the state file's learn
// member: the tasks in progress (the episodes), the model's global numbers,
// the advisories remembered for attribution and how advice fared.
type stepsState struct {
	// episodes are the recent tasks, the current one last: an agent that
	// comes back to a task it interleaved with another resumes it where
	// it was.
	episodes []*nextstep.Episode
	// located is where the agent last said it is, by a neutral report
	// that named no task and no context, until the next call: a task that
	// starts right after it starts there (an agent puts itself at a
	// task's first tool, then asks what next).
	located    string
	globals    nextstep.Globals
	advisories []learn.Advisory // oldest first
	followed   learn.Tally
	unfollowed learn.Tally
	// generation names the record log's keys of this model: the event
	// that started it (0: the workspace's init), so that a workspace that
	// comes back to v5 learns afresh.
	generation int64
	// model is the call's view of the learned evidence, opened on first
	// use over the record log.
	model *nextstep.Model
}

func newStepsState() *stepsState {
	return &stepsState{episodes: []*nextstep.Episode{nextstep.NewEpisode("", nil)}, globals: nextstep.Globals{Beta: 0.5}}
}

// steps returns a v5 workspace's learned state, decoding it on first use;
// nil for a workspace of another model.
func (s *session) steps() (*stepsState, error) {
	if !s.model.nextSteps() {
		return nil, nil
	}
	if s.stepsSt == nil {
		if s.learnRaw == nil {
			s.stepsSt = newStepsState()
		} else {
			v, err := decodeSteps(s.learnRaw)
			if err != nil {
				return nil, corrupt(err, relState)
			}
			s.stepsSt = v
		}
	}
	return s.stepsSt, nil
}

// stepsModel returns the call's model over the record log, with the
// manifest's priors.
func (s *session) stepsModel(v *stepsState) *nextstep.Model {
	if v.model == nil {
		v.model = nextstep.Open(*s.model.steps, sessionRecords{s, v.generation}, v.globals)
		v.model.Prior = s.prior
	}
	return v.model
}

// prior is the log-odds a step's success starts from: its capability's
// declared utility less its cost.
func (s *session) prior(to string) float64 {
	if i := s.manifest.Index(to); i >= 0 {
		return s.manifest.Capabilities[i].U - s.manifest.Capabilities[i].C
	}
	return 0
}

// modelErr is the error the model met reading its evidence, as the
// call's error.
func modelErr(m *nextstep.Model) error {
	err := m.Err()
	var e *Error
	if err == nil || errors.As(err, &e) {
		return err
	}
	return corrupt(err, relModelLog) // a record that does not decode
}

// prepareSteps queues what the call's model learned, before the commit
// writes the state that names it.
func (s *session) prepareSteps() error {
	v := s.stepsSt
	if v == nil || v.model == nil {
		return nil
	}
	if err := modelErr(v.model); err != nil {
		return err
	}
	v.globals = v.model.Globals()
	if recs := v.model.Changes(true); len(recs) > 0 {
		return s.setRecords(v.generation, recs)
	}
	return nil
}

// episodesKept is how many recent tasks a workspace keeps the trail of.
const episodesKept = 8

// taskEpisode returns the episode a consult or report of this task and
// context belongs to: the current task's, a recent task's the agent comes
// back to (it resumes where it was), or a new one at the task's start
// when the task was not seen recently: an explicit task id, or without
// one, a context that describes another task (learn.SameTask). Nothing of
// another task's trail carries over. A call with neither keeps the
// current episode.
func (v *stepsState) taskEpisode(task, context string) *nextstep.Episode {
	defer func() { v.located = "" }()
	terms := learn.Terms(context)
	same := func(ep *nextstep.Episode) bool { return learn.SameTask(terms, ep.Terms) }
	switch {
	case task != "":
		key := explicitTask(task)
		same = func(ep *nextstep.Episode) bool { return ep.Task == key }
		v.resume(same, func() *nextstep.Episode { return nextstep.NewEpisode(key, terms) })
	case len(terms) > 0:
		v.resume(same, func() *nextstep.Episode { return nextstep.NewEpisode(contextTask(terms), terms) })
	}
	ep := v.current()
	if len(ep.Terms) == 0 {
		ep.Terms = terms // a task begun without a context takes its first one
	}
	return ep
}

// current is the episode of the task in progress.
func (v *stepsState) current() *nextstep.Episode { return v.episodes[len(v.episodes)-1] }

// resume makes the newest episode that is the task current, else a new
// one, forgetting the oldest beyond episodesKept.
func (v *stepsState) resume(is func(*nextstep.Episode) bool, start func() *nextstep.Episode) {
	for i := len(v.episodes) - 1; i >= 0; i-- {
		if ep := v.episodes[i]; is(ep) {
			v.episodes = append(append(v.episodes[:i:i], v.episodes[i+1:]...), ep)
			if v.located != "" && ep.At != v.located {
				ep.Locate(ep.Prev, v.located) // the agent said where it is
			}
			return
		}
	}
	ep := start()
	if v.located != "" {
		ep.Locate(nextstep.Start, v.located)
	}
	v.episodes = append(v.episodes, ep)
	if len(v.episodes) > episodesKept {
		v.episodes = v.episodes[len(v.episodes)-episodesKept:]
	}
}

// An explicit task id is kept as the agent gave it, behind a prefix that
// tells it from a context's digest.
func explicitTask(id string) string { return "=" + id }

// contextTask is the task key of a task known only by its context: a
// digest of its terms, so that the same task described again is the same
// task.
func contextTask(terms []string) string {
	if len(terms) == 0 {
		return ""
	}
	sum := sha256.Sum256([]byte(strings.Join(terms, " ")))
	return "~" + hex.EncodeToString(sum[:8])
}

// taskName is a task key as the agent knows it: its id, or "" for one
// known by its context.
func taskName(key string) string {
	if id, ok := strings.CutPrefix(key, "="); ok {
		return id
	}
	return ""
}

// appendJSON writes the state as one compact object with sorted keys.
func (v *stepsState) appendJSON(dst []byte) []byte { return v.appendOf(dst, false) }

func (v *stepsState) appendOf(dst []byte, portable bool) []byte {
	dst = append(dst, '{')
	if !portable {
		dst = v.appendAdvisories(dst)
		dst = append(dst, ',')
	}
	dst = append(dst, `"episodes":[`...)
	for i, ep := range v.episodes {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = ep.AppendJSON(dst)
	}
	dst = append(dst, ']')
	dst = append(dst, `,"followed":`...)
	dst = v.followed.AppendJSON(dst)
	if !portable {
		dst = append(dst, `,"generation":`...)
		dst = strconv.AppendInt(dst, v.generation, 10)
	}
	g := v.globals
	dst = append(dst, `,"globals":[`...)
	dst = pyjson.AppendFloat(dst, g.Beta)
	dst = append(dst, ',')
	dst = strconv.AppendInt(dst, g.Clock, 10)
	dst = append(dst, ',')
	dst = strconv.AppendInt(dst, g.Calls, 10)
	dst = append(dst, `],"located":`...)
	dst = pyjson.AppendString(dst, v.located)
	dst = append(dst, `,"not_followed":`...)
	dst = v.unfollowed.AppendJSON(dst)
	return append(dst, '}')
}

func (v *stepsState) appendAdvisories(dst []byte) []byte {
	dst = append(dst, `"advisories":[`...)
	for i, a := range v.advisories {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, '[')
		for _, s := range []string{a.ID, a.Cursor, a.Top, a.Task} {
			dst = pyjson.AppendString(dst, s)
			dst = append(dst, ',')
		}
		dst = strconv.AppendInt(dst, a.Seq, 10)
		dst = append(dst, ',')
		dst = strconv.AppendBool(dst, a.Probe)
		dst = append(dst, ',')
		dst = pyjson.AppendStrings(dst, a.Terms)
		dst = append(dst, ',')
		dst = pyjson.AppendStrings(dst, a.Observations)
		dst = append(dst, ']')
	}
	return append(dst, ']')
}

// appendPortable writes what of the state travels to another workspace
// (an export): appendJSON without the advisories, which name this
// workspace's events, and without the generation, which names its record
// log's keys.
func (v *stepsState) appendPortable(dst []byte) []byte { return v.appendOf(dst, true) }

// decodeSteps reads what appendJSON wrote.
func decodeSteps(raw []byte) (*stepsState, error) { return decodeStepsOf(raw, false) }

// decodeStepsOf reads what appendJSON wrote, or with portable what
// appendPortable wrote: no generation, no advisories.
func decodeStepsOf(raw []byte, portable bool) (*stepsState, error) {
	if !gjson.ValidBytes(raw) {
		return nil, errors.New("learn: not valid JSON")
	}
	doc := gjson.ParseBytes(raw)
	v := &stepsState{}
	for _, r := range doc.Get("episodes").Array() {
		ep, err := nextstep.DecodeEpisode([]byte(r.Raw))
		if err != nil {
			return nil, errors.New("learn." + err.Error())
		}
		v.episodes = append(v.episodes, ep)
	}
	if l := doc.Get("located"); l.Type != gjson.String {
		return nil, errors.New("learn.located: want a capability or \"\"")
	} else {
		v.located = l.Str
	}
	if len(v.episodes) == 0 || len(v.episodes) > episodesKept {
		return nil, errors.New("learn.episodes: want 1 to 8 episodes")
	}
	if portable {
		if doc.Get("generation").Exists() || doc.Get("advisories").Exists() {
			return nil, errors.New("learn: a portable state has no generation and no advisories")
		}
	} else if g := doc.Get("generation"); g.Type != gjson.Number || g.Int() < 0 {
		return nil, errors.New("learn.generation: want the event that started the model")
	} else {
		v.generation = g.Int()
	}
	g := doc.Get("globals").Array()
	if len(g) != 3 || g[0].Type != gjson.Number || g[1].Type != gjson.Number || g[2].Type != gjson.Number || g[0].Num < 0 || g[0].Num > 1 {
		return nil, errors.New("learn.globals: want [beta, clock, calls]")
	}
	v.globals = nextstep.Globals{Beta: g[0].Num, Clock: g[1].Int(), Calls: g[2].Int()}
	if err := learn.DecodeTallies(doc, &v.followed, &v.unfollowed); err != nil {
		return nil, err
	}
	for _, r := range doc.Get("advisories").Array() {
		a := r.Array()
		if len(a) != 8 || a[0].Type != gjson.String || a[1].Type != gjson.String || a[2].Type != gjson.String || a[3].Type != gjson.String ||
			a[4].Type != gjson.Number || !a[5].IsBool() || !a[6].IsArray() || !a[7].IsArray() {
			return nil, errors.New("learn.advisories: want [id, at, top, task, seq, probe, [terms], [observations]]")
		}
		adv := learn.Advisory{ID: a[0].Str, Cursor: a[1].Str, Top: a[2].Str, Task: a[3].Str, Seq: a[4].Int(), Probe: a[5].Bool()}
		for _, t := range a[6].Array() {
			adv.Terms = append(adv.Terms, t.Str)
		}
		for _, t := range a[7].Array() {
			adv.Observations = append(adv.Observations, t.Str)
		}
		v.advisories = append(v.advisories, adv)
	}
	if len(v.advisories) > learn.AdvisoriesKept {
		return nil, errors.New("learn.advisories: too many")
	}
	return v, nil
}
