package learn

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSameTask(t *testing.T) {
	for _, tc := range []struct {
		a, b []string
		want bool
	}{
		{[]string{"fix", "parser", "test"}, []string{"fix", "parser", "test"}, true},
		{[]string{"fail", "fix", "parser", "test"}, []string{"fix", "parser", "test"}, true},
		{[]string{"fix", "parser"}, []string{"deploy", "fix", "prod", "servic"}, false},
		{nil, nil, false},
		{[]string{"fix"}, nil, false},
	} {
		assert.Equal(t, tc.want, SameTask(tc.a, tc.b), "%v %v", tc.a, tc.b)
		assert.Equal(t, tc.want, SameTask(tc.b, tc.a), "symmetric: %v %v", tc.b, tc.a)
	}
}

// The trail follows the agent as its reports describe it: a success moves
// it, a failure does not, a neutral report moves it unless it returns to
// where a failure left it.
func TestTrail(t *testing.T) {
	task := []string{"fix", "parser", "test"}
	other := []string{"deploy", "servic"}
	var tr Trail
	assert.Equal(t, "", tr.After("a", task), "nothing known")

	tr.Move("a", "b", "success", task)
	assert.Equal(t, "a", tr.After("b", task))
	assert.Equal(t, "", tr.After("b", other), "another task")
	assert.Equal(t, "", tr.After("c", task), "elsewhere")

	tr.Move("b", "x", "failure", task) // the cursor is at x now, the agent at b
	assert.Equal(t, "", tr.After("x", task))
	tr.Move("x", "b", "neutral", nil) // back where the agent is
	assert.Equal(t, "a", tr.After("b", task), "a failure does not move the agent")

	tr.Move("b", "b", "success", task) // a repeat
	assert.Equal(t, "b", tr.After("b", task))

	tr.Move("b", "start", "neutral", nil) // a new task starts elsewhere
	assert.Equal(t, "", tr.After("start", task), "a move without a task is not the task's")
}

// After weighs only when the model's AfterScale says so: a model with
// V3Params learns exactly as if it were not given.
func TestAfterFeature(t *testing.T) {
	ctx := Context{Terms: []string{"fix", "test"}, After: "patch"}
	v3 := New(V3Params)
	v3.Update(ctx, "test", "commit", 0, Outcome{Success: 1, Weight: 1, Clock: 1})
	plain := New(V3Params)
	plain.Update(Context{Terms: ctx.Terms}, "test", "commit", 0, Outcome{Success: 1, Weight: 1, Clock: 1})
	assert.Equal(t, string(plain.AppendJSON(nil)), string(v3.AppendJSON(nil)))

	// With it, the same task at the same tool is told apart by where the
	// agent came from.
	m := New(DefaultParams)
	for i := range 20 {
		m.Update(Context{Terms: ctx.Terms, After: "patch"}, "test", "test", 0, Outcome{Success: 1, Weight: 1, Clock: int64(2 * i)})
		m.Update(Context{Terms: ctx.Terms, After: "patch"}, "test", "commit", 0, Outcome{Success: 0, Weight: 1, Clock: int64(2 * i)})
		m.Update(Context{Terms: ctx.Terms, After: "test"}, "test", "commit", 0, Outcome{Success: 1, Weight: 1, Clock: int64(2*i + 1)})
		m.Update(Context{Terms: ctx.Terms, After: "test"}, "test", "test", 0, Outcome{Success: 0, Weight: 1, Clock: int64(2*i + 1)})
	}
	cands := []Candidate{{To: "commit"}, {To: "test"}}
	assert.Equal(t, "test", m.Rank(Context{Terms: ctx.Terms, After: "patch"}, "test", cands, false)[0].To)
	assert.Equal(t, "commit", m.Rank(Context{Terms: ctx.Terms, After: "test"}, "test", cands, false)[0].To)
	e := m.Estimate(Context{Terms: ctx.Terms, After: "test"}, "test", "commit", 0)
	assert.Equal(t, "test", e.Evidence.After)
	assert.Equal(t, 20.0, e.Evidence.AfterS)
	assert.Equal(t, 20.0, e.Evidence.AfterN)
}
