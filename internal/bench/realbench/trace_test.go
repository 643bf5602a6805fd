package realbench

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const fixture = "../../../testdata/realtrace/tau-bench-airline-gpt-4o.jsonl"

// The committed fixture is what its README says: tau-bench's 200 airline
// trajectories (50 tasks × 4 trials, trial-major), 1,164 calls, 73 errors,
// 14 tools.
func TestFixtureCounts(t *testing.T) {
	eps, err := LoadTrace(fixture)
	require.NoError(t, err)
	require.Len(t, eps, 200)
	calls, errs, empty := 0, 0, 0
	tasks := map[int]int{}
	for i, ep := range eps {
		calls += len(ep.Calls)
		for _, c := range ep.Calls {
			if c.Error {
				errs++
			}
		}
		if len(ep.Calls) == 0 {
			empty++
		}
		tasks[ep.Task]++
		require.Equal(t, i/50, ep.Trial, "episode %d", i)
		require.Equal(t, i%50, ep.Task, "episode %d", i)
		require.Equal(t, eps[i%50].Instruction, ep.Instruction, "a task's trials share its instruction")
	}
	require.Equal(t, 1164, calls)
	require.Equal(t, 73, errs)
	require.Equal(t, 18, empty)
	require.Len(t, tasks, 50)
	tools := Tools(eps)
	require.Len(t, tools, 14)
	require.Equal(t, "book_reservation", tools[0])

	dev, err := Split(eps, "dev")
	require.NoError(t, err)
	held, err := Split(eps, "heldout")
	require.NoError(t, err)
	require.Len(t, dev, 100)
	require.Equal(t, 2, held[0].Trial, "the held-out split is trials 2 and 3")
	_, err = Split(eps, "test")
	require.Error(t, err)

	// The fixture is in WriteTrace's own form.
	var b bytes.Buffer
	require.NoError(t, WriteTrace(&b, eps))
	again, err := ReadTrace(&b)
	require.NoError(t, err)
	require.Equal(t, eps, again)
}

func TestReadTraceRejects(t *testing.T) {
	for _, tc := range []struct{ name, in, err string }{
		{"not JSON", "{", "line 1"},
		{"unknown field", `{"task":1,"instruction":"x","calls":[],"args":1}`, "unknown field"},
		{"empty instruction", `{"task":1,"instruction":" ","calls":[]}`, "empty instruction"},
		{"empty tool", "\n" + `{"task":1,"instruction":"x","calls":[{"tool":""}]}`, "line 2: call 0: empty tool name"},
		{"start tool", `{"task":1,"instruction":"x","calls":[{"tool":"start"}]}`, "reserved"},
		{"two values", `{"task":1,"instruction":"x"} {}`, "more than one"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadTrace(strings.NewReader(tc.in))
			require.ErrorContains(t, err, tc.err)
		})
	}
}

// ReduceTauBench keeps the task, trial, reward, instruction and, per call
// in order, the tool and whether its answer is an error; answers are
// matched in order even where the recorded ids recur.
func TestReduceTauBench(t *testing.T) {
	in := `[{"task_id": 7, "trial": 2, "reward": 1.0,
	  "info": {"task": {"instruction": "You are x. Cancel it.", "user_id": "x"}, "source": "user"},
	  "traj": [
	    {"role": "system", "content": "policy"},
	    {"role": "user", "content": "hi"},
	    {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "get_user_details", "arguments": "{}"}}]},
	    {"role": "tool", "tool_call_id": "c1", "name": "get_user_details", "content": "{\"name\": \"x\"}"},
	    {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "function": {"name": "cancel_reservation"}}, {"id": "c2", "function": {"name": "think"}}]},
	    {"role": "tool", "tool_call_id": "c1", "content": "  Error: reservation not found"},
	    {"role": "tool", "tool_call_id": "c2", "content": ""},
	    {"role": "assistant", "tool_calls": [{"id": "c3", "function": {"name": "calculate"}}]},
	    {"role": "tool", "tool_call_id": "c3", "content": null},
	    {"role": "assistant", "tool_calls": [{"id": "c4", "function": {"name": "transfer_to_human_agents"}}]}
	  ]},
	 {"task_id": 0, "trial": 0, "reward": 0, "info": {"task": {"instruction": "Say hi."}}, "traj": [{"role": "user", "content": "hi"}]}]`
	eps, err := ReduceTauBench(strings.NewReader(in))
	require.NoError(t, err)
	require.Equal(t, []Episode{
		{Task: 7, Trial: 2, Reward: 1, Instruction: "You are x. Cancel it.", Calls: []Call{
			{Tool: "get_user_details"},
			{Tool: "cancel_reservation", Error: true},
			{Tool: "think"},
			{Tool: "calculate", Error: true},                // a null answer
			{Tool: "transfer_to_human_agents", Error: true}, // no answer
		}},
		{Task: 0, Instruction: "Say hi.", Calls: []Call{}},
	}, eps)

	for _, bad := range []string{`{}`, `[{"trial": 0, "info": {"task": {"instruction": "x"}}}]`,
		`[{"task_id": 1, "info": {"task": {"instruction": ""}}}]`} {
		_, err := ReduceTauBench(strings.NewReader(bad))
		require.Error(t, err, bad)
	}
}

// No input makes the readers panic, and what ReadTrace accepts survives
// WriteTrace.
func FuzzReadTrace(f *testing.F) {
	f.Add([]byte(`{"task":1,"trial":0,"reward":0,"instruction":"x","calls":[{"tool":"a","error":true}]}` + "\n\n"))
	f.Add([]byte(`[{"task_id": 1, "info": {"task": {"instruction": "x"}}, "traj": [{"role": "tool", "content": "Error"}]}]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = ReduceTauBench(bytes.NewReader(b))
		eps, err := ReadTrace(bytes.NewReader(b))
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := WriteTrace(&out, eps); err != nil {
			t.Fatal(err)
		}
		again, err := ReadTrace(&out)
		if err != nil {
			t.Fatalf("rereading %q: %v", out.String(), err)
		}
		if len(again) != len(eps) {
			t.Fatalf("%d episodes, then %d", len(eps), len(again))
		}
	})
}
