package mcpserver

import "github.com/unified-cognitive-substrate/ucs/internal/pyjson"

// causalContext is the specification's pending causal context: a consult
// registers its advisory_id, and the next report or execute_action that
// names none is attributed to it, exactly as if the agent had passed it.
// It is used once. The task a consult named (v5) is the session's task
// until another consult names one: every report or execute_action that
// names none is part of it. A report retried with its request_id must
// send the same input, so what was attached to a request_id is remembered
// (the last rememberIDs) and attached again to a retry.
type causalContext struct {
	pending  string              // the last consult's advisory_id not yet used
	task     string              // the last consult's task, "" for none
	byID     map[string]attached // request_id → what was attached
	idsOrder []string
}

// attached is what the context attached to one input.
type attached struct{ advisory, task string }

const rememberIDs = 256

// consulted registers a consult's answer.
func (c *causalContext) consulted(out pyjson.Value) {
	if id, ok := out.Get("advisory_id"); ok && id.Str() != "" {
		c.pending = id.Str()
	}
	if t, ok := out.Get("task"); ok && t.Str() != "" {
		c.task = t.Str()
	}
}

// attach returns the input with the pending advisory_id when it names
// none and the session's task when it names none, and whether it added an
// advisory_id.
func (c *causalContext) attach(in pyjson.Value) (pyjson.Value, bool) {
	at := attached{advisory: c.pending, task: c.task}
	if rid, ok := in.Get("request_id"); ok && rid.Str() != "" {
		if a, ok := c.byID[rid.Str()]; ok {
			at = a
		}
	}
	if x, ok := in.Get("task"); (!ok || x.IsNull()) && at.task != "" {
		in = in.With("task", at.task)
	}
	if x, ok := in.Get("advisory_id"); ok && !x.IsNull() {
		return in, false
	}
	if at.advisory == "" {
		return in, false
	}
	return in.With("advisory_id", at.advisory), true
}

// used marks the pending context used by the input it was attached to.
func (c *causalContext) used(in pyjson.Value) {
	adv, _ := in.Get("advisory_id")
	if adv.Str() == c.pending {
		c.pending = ""
	}
	rid, _ := in.Get("request_id")
	if rid.Str() == "" {
		return
	}
	if c.byID == nil {
		c.byID = map[string]attached{}
	}
	if _, ok := c.byID[rid.Str()]; !ok {
		c.idsOrder = append(c.idsOrder, rid.Str())
		if len(c.idsOrder) > rememberIDs {
			delete(c.byID, c.idsOrder[0])
			c.idsOrder = c.idsOrder[1:]
		}
	}
	task, _ := in.Get("task")
	c.byID[rid.Str()] = attached{advisory: adv.Str(), task: task.Str()}
}
