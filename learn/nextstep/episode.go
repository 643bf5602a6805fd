package nextstep

import (
	"encoding/json"
	"errors"
	"maps"
	"math"
	"slices"
	"strconv"
)

// Start is the state every episode begins at: the task's start. It is no
// capability's name (those are never empty).
const Start = ""

// An Episode is one task in progress: what identifies it, where the agent
// is on its trail, and which tools failed in it. It begins at Start.
type Episode struct {
	// Task is the task's identity: an explicit task id, or the exact
	// context; "" when there is none.
	Task string
	// Terms are the context's terms (learn.Terms), sorted and distinct.
	Terms []string
	// Prev is the state of the agent's last call (its tool, marked when
	// it failed: Params.MarkFailed) and Prev2 the one before; both Start
	// at the beginning.
	Prev, Prev2 string
	// At is where the agent is: the tool of its last successful call, or
	// Start. A step learned from the trail starts here, never at a tool
	// that failed.
	At string
	// undo is the state (Prev2, Prev) before the last call, when it failed:
	// an agent that then says it is back where it was (Locate at At)
	// resumes from there.
	undo   [2]string
	failed map[string]int
	// The last ranking's two predictions of the agent's call (Params.Hedge):
	// with the frequencies and without, each normalised over its candidates.
	qf, qs map[string]float64
}

// failedMark marks the state after a failed call.
const failedMark = "!"

// Failed reports whether a state is that after a failed call, and of
// which tool.
func FailedState(state string) (tool string, failed bool) {
	if len(state) > len(failedMark) && state[len(state)-len(failedMark):] == failedMark {
		return state[:len(state)-len(failedMark)], true
	}
	return state, false
}

// remember keeps the last ranking's predictions: softmax over the
// candidates of log pT + λ·log S (with the frequencies) and of λ·log S.
func (ep *Episode) remember(cands []string, logT, logS []float64, lambda float64) {
	ep.qf, ep.qs = map[string]float64{}, map[string]float64{}
	softmax := func(dst map[string]float64, x func(i int) float64) {
		hi := math.Inf(-1)
		for i := range cands {
			hi = max(hi, x(i))
		}
		sum := 0.0
		for i, c := range cands {
			dst[c] = math.Exp(x(i) - hi)
			sum += dst[c]
		}
		for c := range dst {
			dst[c] /= sum
		}
	}
	softmax(ep.qf, func(i int) float64 { return logT[i] + lambda*logS[i] })
	softmax(ep.qs, func(i int) float64 { return lambda * logS[i] })
}

func (ep *Episode) predicted(to string) (qf, qs float64, ok bool) {
	qf, okf := ep.qf[to]
	qs, oks := ep.qs[to]
	return qf, qs, okf && oks && qf+qs > 0
}

// NewEpisode begins a task at Start.
func NewEpisode(task string, terms []string) *Episode {
	return &Episode{Task: task, Terms: terms, Prev: Start, Prev2: Start, At: Start, failed: map[string]int{}}
}

// Locate sets where the agent is, for a caller that knows it better than
// the reported outcomes do (a simulator whose reports may lie, or an agent
// that says where it is).
//
// Told it is back at At right after a failed call, the agent resumes from
// the state before that call (the failure is in Failed).
func (ep *Episode) Locate(prev2, prev string) {
	if ep.undo[1] != "" && prev == ep.At {
		prev2, prev = ep.undo[0], ep.undo[1]
	}
	ep.undo = [2]string{}
	ep.Prev2, ep.Prev = prev2, prev
	if tool, failed := FailedState(prev); !failed {
		ep.At = tool
	}
}

// Failed reports how many times a tool failed in the episode.
func (ep *Episode) Failed(tool string) int { return ep.failed[tool] }

func (ep *Episode) observe(to string, ok, moveOnFailure, markFailed bool) {
	ep.undo = [2]string{}
	if !ok && ep.Prev == ep.At {
		ep.undo = [2]string{ep.Prev2, ep.Prev}
	}
	if !ok {
		ep.failed[to]++
	} else {
		ep.At = to
	}
	if ok || moveOnFailure {
		ep.Prev2, ep.Prev = ep.Prev, to
		if !ok && markFailed {
			ep.Prev += failedMark
		}
	}
}

// AppendJSON appends the episode as one JSON object with sorted keys:
// {"at","failed":{TOOL:N},"prev","prev2","task","terms","undo"?}.
func (ep *Episode) AppendJSON(b []byte) []byte {
	b = append(b, `{"at":`...)
	b = appendString(b, ep.At)
	b = append(b, `,"failed":{`...)
	for i, t := range slices.Sorted(maps.Keys(ep.failed)) {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, t)
		b = append(b, ':')
		b = strconv.AppendInt(b, int64(ep.failed[t]), 10)
	}
	b = append(b, `},"prev":`...)
	b = appendString(b, ep.Prev)
	b = append(b, `,"prev2":`...)
	b = appendString(b, ep.Prev2)
	b = append(b, `,"task":`...)
	b = appendString(b, ep.Task)
	b = append(b, `,"terms":[`...)
	for i, t := range ep.Terms {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, t)
	}
	b = append(b, ']')
	if ep.undo[1] != "" {
		b = append(b, `,"undo":[`...)
		b = appendString(b, ep.undo[0])
		b = append(b, ',')
		b = appendString(b, ep.undo[1])
		b = append(b, ']')
	}
	return append(b, '}')
}

// DecodeEpisode reads what AppendJSON wrote.
func DecodeEpisode(raw []byte) (*Episode, error) {
	var r struct {
		At     *string        `json:"at"`
		Failed map[string]int `json:"failed"`
		Prev   *string        `json:"prev"`
		Prev2  *string        `json:"prev2"`
		Task   string         `json:"task"`
		Terms  []string       `json:"terms"`
		Undo   []string       `json:"undo"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, err
	}
	if r.At == nil || r.Prev == nil || r.Prev2 == nil {
		return nil, errors.New("episode: want at, prev and prev2")
	}
	ep := NewEpisode(r.Task, r.Terms)
	ep.At, ep.Prev, ep.Prev2 = *r.At, *r.Prev, *r.Prev2
	switch len(r.Undo) {
	case 0:
	case 2:
		ep.undo = [2]string{r.Undo[0], r.Undo[1]}
	default:
		return nil, errors.New("episode: want undo as [prev2, prev]")
	}
	for t, n := range r.Failed {
		if n < 0 {
			return nil, errors.New("episode: a negative count of failures")
		}
		ep.failed[t] = n
	}
	return ep, nil
}
