package mcpserver

import "github.com/unified-cognitive-substrate/ucs/internal/pyjson"

// causalContext is the specification's pending causal context: a consult
// registers its advisory_id, and the next report or execute_action that
// names none is attributed to it, exactly as if the agent had passed it.
// It is used once. A report retried with its request_id must send the same
// input, so the advisory attached to a request_id is remembered (the last
// rememberIDs) and attached again to a retry.
type causalContext struct {
	pending  string            // the last consult's advisory_id not yet used
	byID     map[string]string // request_id → the advisory attached
	idsOrder []string
}

const rememberIDs = 256

// consulted registers a consult's answer.
func (c *causalContext) consulted(out pyjson.Value) {
	if id, ok := out.Get("advisory_id"); ok && id.Str() != "" {
		c.pending = id.Str()
	}
}

// attach returns the input with the pending advisory_id when it names
// none, and whether it added one.
func (c *causalContext) attach(in pyjson.Value) (pyjson.Value, bool) {
	if x, ok := in.Get("advisory_id"); ok && !x.IsNull() {
		return in, false
	}
	adv := c.pending
	if rid, ok := in.Get("request_id"); ok && rid.Str() != "" {
		if a, ok := c.byID[rid.Str()]; ok {
			adv = a
		}
	}
	if adv == "" {
		return in, false
	}
	return in.With("advisory_id", adv), true
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
		c.byID = map[string]string{}
	}
	if _, ok := c.byID[rid.Str()]; !ok {
		c.idsOrder = append(c.idsOrder, rid.Str())
		if len(c.idsOrder) > rememberIDs {
			delete(c.byID, c.idsOrder[0])
			c.idsOrder = c.idsOrder[1:]
		}
	}
	c.byID[rid.Str()] = adv.Str()
}
