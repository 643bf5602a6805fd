package realbench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

// StartTool is the capability every episode begins at. A dataset's own
// tool may not have this name.
const StartTool = "start"

// An Episode is one recorded trajectory: the task it worked on, and every
// tool call the agent made, in order.
type Episode struct {
	Task        int     `json:"task"`        // the dataset's task id
	Trial       int     `json:"trial"`       // which attempt at the task
	Reward      float64 `json:"reward"`      // the dataset's verdict on the episode (not used by the protocol)
	Instruction string  `json:"instruction"` // the task's text: the context of every consult
	Calls       []Call  `json:"calls"`
}

// A Call is one tool call: the tool's name and whether it answered with an
// error.
type Call struct {
	Tool  string `json:"tool"`
	Error bool   `json:"error"`
}

// A Trace is a named dataset of episodes, in the order they are replayed.
type Trace struct {
	Name     string
	Episodes []Episode
}

// maxLine bounds one JSON line of a trace file: an episode's instruction
// and calls, far more than any recorded trajectory needs.
const maxLine = 4 << 20

// ReadTrace reads a trace in its JSON-lines form: one Episode per line,
// blank lines ignored. It rejects what would make a replay meaningless: an
// empty instruction, an empty tool name, or a tool named StartTool.
func ReadTrace(r io.Reader) ([]Episode, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	var eps []Episode
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var ep Episode
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&ep); err != nil {
			return nil, fmt.Errorf("line %d: %v", n, err)
		}
		if dec.More() {
			return nil, fmt.Errorf("line %d: more than one JSON value", n)
		}
		if err := ep.validate(); err != nil {
			return nil, fmt.Errorf("line %d: %v", n, err)
		}
		eps = append(eps, ep)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return eps, nil
}

func (ep Episode) validate() error {
	if strings.TrimSpace(ep.Instruction) == "" {
		return errors.New("empty instruction")
	}
	for i, c := range ep.Calls {
		switch {
		case strings.TrimSpace(c.Tool) == "":
			return fmt.Errorf("call %d: empty tool name", i)
		case c.Tool == StartTool:
			return fmt.Errorf("call %d: a tool named %q (reserved for the start of an episode)", i, StartTool)
		}
	}
	return nil
}

// WriteTrace writes episodes in ReadTrace's form, one line each.
func WriteTrace(w io.Writer, eps []Episode) error {
	bw := bufio.NewWriter(w)
	for _, ep := range eps {
		if ep.Calls == nil {
			ep.Calls = []Call{}
		}
		b, err := json.Marshal(ep)
		if err != nil {
			return err
		}
		bw.Write(b)
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// LoadTrace reads a trace file: the JSON-lines form, or a tau-bench
// trajectory file (a JSON array), which it reduces on the way.
func LoadTrace(path string) ([]Episode, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var eps []Episode
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '[' {
		eps, err = ReduceTauBench(bytes.NewReader(b))
	} else {
		eps, err = ReadTrace(bytes.NewReader(b))
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return eps, nil
}

// Tools returns the distinct tools the episodes call, sorted by name.
func Tools(eps []Episode) []string {
	var tools []string
	for _, ep := range eps {
		for _, c := range ep.Calls {
			if i, found := slices.BinarySearch(tools, c.Tool); !found {
				tools = slices.Insert(tools, i, c.Tool)
			}
		}
	}
	return tools
}

// Split returns the episodes of a named split: "all" (every episode),
// "dev" (the first half, for developing a model) or "heldout" (the second
// half). Run on "all", the protocol scores the second half of the stream,
// which is exactly the held-out split: a model tuned on "dev" is reported
// on episodes it was never tuned on.
func Split(eps []Episode, name string) ([]Episode, error) {
	half := len(eps) / 2
	switch name {
	case "all", "":
		return eps, nil
	case "dev":
		return eps[:half], nil
	case "heldout":
		return eps[half:], nil
	}
	return nil, fmt.Errorf("unknown split %q (all, dev or heldout)", name)
}
