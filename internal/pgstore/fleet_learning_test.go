package pgstore_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

// Two v5 agents on one store: what A learned about a task's first step
// reaches B's consult, with the share of the evidence the fleet gave;
// verify replays B's consult from its event, without A; a private
// workspace neither gives nor takes learned evidence.
func TestFleetLearning(t *testing.T) {
	e := newEnv(t)
	e.must("A", "", "init")
	e.must("B", "", "init")
	ctx := "deploy the billing service"
	for i := range 12 {
		e.must("A", fmt.Sprintf(`{"action": "exec", "success": "success", "task": "deploy-%d", "context": %q}`, i, ctx), "report")
	}
	top := func(name string) gjson.Result {
		out := e.must(name, "", "consult", "--context", ctx, "--task", "deploy-"+name)
		return gjson.Get(out, "suggested_paths.0")
	}
	b := top("B")
	assert.Equal(t, "exec", b.Get("to").String(), b.Raw)
	assert.Greater(t, b.Get("fleet_share").Float(), 0.9, b.Raw)
	e.must("B", "", "verify")
	e.must("B", "", "check")

	// A private agent takes nothing from the fleet and gives it nothing.
	e.must("C", "", "init")
	e.must("C", "", "store", "set", "--private")
	c := top("C")
	assert.NotEqual(t, "exec", c.Get("to").String(), c.Raw)
	assert.False(t, c.Get("fleet_share").Exists(), "a private workspace sees no peers: %s", c.Raw)
	e.must("A", "", "store", "set", "--private")
	d := e.must("D", "", "init")
	require.NotEmpty(t, d)
	dt := top("D")
	assert.NotEqual(t, "exec", dt.Get("to").String(), "A went private: its evidence reaches no one: %s", dt.Raw)
}
