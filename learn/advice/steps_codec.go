package advice

import (
	"errors"
	"strconv"

	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
)

// AppendJSON writes the state as one compact object with sorted keys.
func (v *Steps) AppendJSON(dst []byte) []byte { return v.appendOf(dst, false) }

// AppendPortable writes what of the state travels to another workspace
// (an export): AppendJSON without the advisories, which name this
// workspace's events, and without the generation, which names its record
// log's keys.
func (v *Steps) AppendPortable(dst []byte) []byte { return v.appendOf(dst, true) }

func (v *Steps) appendOf(dst []byte, portable bool) []byte {
	dst = append(dst, '{')
	if !portable {
		dst = v.appendAdvisories(dst)
		dst = append(dst, ',')
	}
	dst = append(dst, `"episodes":[`...)
	for i, ep := range v.Episodes {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = ep.AppendJSON(dst)
	}
	dst = append(dst, ']')
	dst = append(dst, `,"followed":`...)
	dst = v.Followed.AppendJSON(dst)
	if !portable {
		dst = append(dst, `,"generation":`...)
		dst = strconv.AppendInt(dst, v.Generation, 10)
	}
	g := v.Globals
	dst = append(dst, `,"globals":[`...)
	dst = pyjson.AppendFloat(dst, g.Beta)
	dst = append(dst, ',')
	dst = strconv.AppendInt(dst, g.Clock, 10)
	dst = append(dst, ',')
	dst = strconv.AppendInt(dst, g.Calls, 10)
	dst = append(dst, `],"located":`...)
	dst = pyjson.AppendString(dst, v.Located)
	dst = append(dst, `,"not_followed":`...)
	dst = v.Unfollowed.AppendJSON(dst)
	return append(dst, '}')
}

func (v *Steps) appendAdvisories(dst []byte) []byte {
	dst = append(dst, `"advisories":[`...)
	for i, a := range v.Advisories {
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

// DecodeSteps reads what AppendJSON wrote.
func DecodeSteps(raw []byte) (*Steps, error) { return decodeStepsOf(raw, false) }

// DecodePortable reads what AppendPortable wrote: no generation, no
// advisories.
func DecodePortable(raw []byte) (*Steps, error) { return decodeStepsOf(raw, true) }

func decodeStepsOf(raw []byte, portable bool) (*Steps, error) {
	if !gjson.ValidBytes(raw) {
		return nil, errors.New("learn: not valid JSON")
	}
	doc := lastMembers(gjson.ParseBytes(raw))
	v := &Steps{}
	for _, r := range doc.episodes.Array() {
		ep, err := nextstep.DecodeEpisode([]byte(r.Raw))
		if err != nil {
			return nil, errors.New("learn." + err.Error())
		}
		v.Episodes = append(v.Episodes, ep)
	}
	if l := doc.located; l.Type != gjson.String {
		return nil, errors.New("learn.located: want a capability or \"\"")
	} else {
		v.Located = l.Str
	}
	if len(v.Episodes) == 0 || len(v.Episodes) > EpisodesKept {
		return nil, errors.New("learn.episodes: want 1 to 8 episodes")
	}
	if portable {
		if doc.generation.Exists() || doc.advisories.Exists() {
			return nil, errors.New("learn: a portable state has no generation and no advisories")
		}
	} else if g := doc.generation; g.Type != gjson.Number || g.Int() < 0 {
		return nil, errors.New("learn.generation: want the event that started the model")
	} else {
		v.Generation = g.Int()
	}
	g := doc.globals.Array()
	if len(g) != 3 || g[0].Type != gjson.Number || g[1].Type != gjson.Number || g[2].Type != gjson.Number || g[0].Num < 0 || g[0].Num > 1 {
		return nil, errors.New("learn.globals: want [beta, clock, calls]")
	}
	v.Globals = nextstep.Globals{Beta: g[0].Num, Clock: g[1].Int(), Calls: g[2].Int()}
	if err := learn.DecodeTally(doc.followed, "followed", &v.Followed); err != nil {
		return nil, err
	}
	if err := learn.DecodeTally(doc.notFollowed, "not_followed", &v.Unfollowed); err != nil {
		return nil, err
	}
	for _, r := range doc.advisories.Array() {
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
		v.Advisories = append(v.Advisories, adv)
	}
	if len(v.Advisories) > learn.AdvisoriesKept {
		return nil, errors.New("learn.advisories: too many")
	}
	return v, nil
}

// stepsMembers are the members of a state's learn member that
// decodeStepsOf reads.
type stepsMembers struct {
	advisories, episodes, followed, generation, globals, located, notFollowed gjson.Result
}

// lastMembers reads the members of a learn member in one pass, the last
// of a repeated key winning: the full parser (pyjson) reads a repeated key
// so, and the state ucs check and an export see must be the one the model
// decodes (gjson's Get takes the first).
func lastMembers(doc gjson.Result) stepsMembers {
	var m stepsMembers
	doc.ForEach(func(k, r gjson.Result) bool {
		switch k.Str {
		case "advisories":
			m.advisories = r
		case "episodes":
			m.episodes = r
		case "followed":
			m.followed = r
		case "generation":
			m.generation = r
		case "globals":
			m.globals = r
		case "located":
			m.located = r
		case "not_followed":
			m.notFollowed = r
		}
		return true
	})
	return m
}
