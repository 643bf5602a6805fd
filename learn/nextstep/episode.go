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
	At     string
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
func (ep *Episode) Locate(prev2, prev string) {
	ep.Prev2, ep.Prev = prev2, prev
	if tool, failed := FailedState(prev); !failed {
		ep.At = tool
	}
}

// Failed reports how many times a tool failed in the episode.
func (ep *Episode) Failed(tool string) int { return ep.failed[tool] }

func (ep *Episode) observe(to string, ok, moveOnFailure, markFailed bool) {
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
// {"at","failed":{TOOL:N},"prev","prev2","task","terms"}.
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
	return append(b, ']', '}')
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
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, err
	}
	if r.At == nil || r.Prev == nil || r.Prev2 == nil {
		return nil, errors.New("episode: want at, prev and prev2")
	}
	ep := NewEpisode(r.Task, r.Terms)
	ep.At, ep.Prev, ep.Prev2 = *r.At, *r.Prev, *r.Prev2
	for t, n := range r.Failed {
		if n < 0 {
			return nil, errors.New("episode: a negative count of failures")
		}
		ep.failed[t] = n
	}
	return ep, nil
}
