package dashboard

import (
	"slices"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/outcome"
)

// A History is what the page shows of the journal: the contexts consulted
// (the most recent first, distinct), the reports per day and the newest
// events. The bridge reads the journal once, oldest first, and tells it
// each event since the page's start (Record); Close orders what it kept.
type History struct {
	Contexts      []Context // after Close: at most MaxContexts, the most recent first
	ContextsTotal int       // how many distinct contexts were consulted
	Events        []pyjson.Value
	EventsTotal   int

	consulted []Context
	perDay    map[string]*[4]int // reports, successes, partials, failures
}

// A Context is a context consulted, and consult's advice for it now (the
// bridge computes it for the contexts Close keeps).
type Context struct {
	Text, Now string
	Seq       int64
	Advice    pyjson.Value
}

// NewHistory is an empty history.
func NewHistory() *History { return &History{perDay: map[string]*[4]int{}} }

// Add counts one journal event, ev as Event made it. Only the newest
// MaxEvents are kept: the page lists no more.
func (h *History) Add(ev pyjson.Value) {
	h.EventsTotal++
	h.Events = append(h.Events, ev)
	if len(h.Events) > 2*MaxEvents {
		h.Events = slices.Clone(h.Events[len(h.Events)-MaxEvents:])
	}
}

// Record counts one journal event ev, as the journal holds it: a
// consult's context (Consulted), a report on its day (Reported), and the
// event for the list (Add, as Event makes it with what and changed).
func (h *History) Record(ev pyjson.Value, what, changed string) {
	switch ev.StrOf("op") {
	case "consult":
		args, _ := ev.Get("args")
		seq, _ := ev.Get("seq")
		n, _ := seq.Int()
		h.Consulted(args.StrOf("context"), ev.StrOf("now"), n)
	case "report":
		in, _ := ev.Get("input")
		h.Reported(ev.StrOf("now"), in.StrOf("success"))
	}
	h.Add(Event(ev, what, changed))
}

// Consulted records a consult's context, at now (ISO 8601), the event
// seq.
func (h *History) Consulted(context, now string, seq int64) {
	h.consulted = append(h.consulted, Context{Text: context, Now: now, Seq: seq})
}

// Reported counts a report on its day: now is its time (ISO 8601),
// success its outcome as the report gave it ("" for neutral).
func (h *History) Reported(now, success string) {
	day := pyjson.Prefix(now, 10)
	d := h.perDay[day]
	if d == nil {
		d = &[4]int{}
		h.perDay[day] = d
	}
	d[0]++
	// Lower case, not outcome.ParseStatus's Unicode folding: a word the
	// journal holds is counted as it always was.
	switch outcome.Status(strings.ToLower(success)) {
	case outcome.Success:
		d[1]++
	case outcome.Partial:
		d[2]++
	case outcome.Failure:
		d[3]++
	}
}

// Close keeps the newest events, newest first, and the distinct contexts
// consulted, the most recent first.
func (h *History) Close() {
	h.Events = newestFirst(h.Events[max(0, len(h.Events)-MaxEvents):])
	seen := map[string]bool{}
	for i := len(h.consulted) - 1; i >= 0; i-- {
		c := h.consulted[i]
		if strings.TrimSpace(c.Text) == "" || seen[c.Text] {
			continue
		}
		seen[c.Text] = true
		h.ContextsTotal++
		if len(h.Contexts) < MaxContexts {
			h.Contexts = append(h.Contexts, c)
		}
	}
}

// days lists the reports per day, oldest first.
func (h *History) days() []pyjson.Value {
	keys := make([]string, 0, len(h.perDay))
	for k := range h.perDay {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := []pyjson.Value{}
	for _, k := range keys {
		d := h.perDay[k]
		out = append(out, pyjson.Obj(pyjson.KV("day", k), pyjson.KV("reports", d[0]), pyjson.KV("successes", d[1]),
			pyjson.KV("partials", d[2]), pyjson.KV("failures", d[3])))
	}
	return out
}

// contextValues are the contexts kept, each with the parts of consult's
// advice the page shows.
func (h *History) contextValues() []pyjson.Value {
	out := []pyjson.Value{}
	for _, c := range h.Contexts {
		get := func(k string) pyjson.Value { v, _ := c.Advice.Get(k); return v }
		out = append(out, pyjson.Obj(pyjson.KV("context", c.Text), pyjson.KV("seq", c.Seq), pyjson.KV("now", c.Now),
			pyjson.KV("cursor", get("cursor")), pyjson.KV("resolved", get("resolved_capabilities")),
			pyjson.KV("suggested_paths", get("suggested_paths")), pyjson.KV("penalty_applied", get("penalty_applied")),
			pyjson.KV("dead_ends", get("dead_ends"))))
	}
	return out
}

// Event is one journal event ev as the page lists it: what it asked
// (what, the log's summary) and what it changed (changed, the log's),
// with what it names (a capability, a goal, an observation, an artifact)
// for the page to link to its entry.
func Event(ev pyjson.Value, what, changed string) pyjson.Value {
	args, _ := ev.Get("args")
	in, _ := ev.Get("input")
	var target []pyjson.Member
	switch op := ev.StrOf("op"); {
	case op == "report":
		target = append(target, pyjson.KV("capability", in.StrOf("action")))
		if g := in.StrOf("goal_id"); g != "" {
			target = append(target, pyjson.KV("goal", g))
		}
	case strings.HasPrefix(op, "goal ") && args.StrOf("id") != "":
		target = append(target, pyjson.KV("goal", args.StrOf("id")))
	case op == "confirm" || op == "contradict" || op == "retire":
		target = append(target, pyjson.KV("observation", args.StrOf("id")))
	case op == "consult":
		target = append(target, pyjson.KV("context", args.StrOf("context")))
	case op == "reflect":
		target = append(target, pyjson.KV("reflect", orDefault(in.StrOf("type"), "post_task")))
		if a := in.StrOf("artifact_id"); a != "" {
			target = append(target, pyjson.KV("artifact", a))
		}
	}
	seq, _ := ev.Get("seq")
	return pyjson.Obj(pyjson.KV("seq", seq), pyjson.KV("now", ev.StrOf("now")), pyjson.KV("op", ev.StrOf("op")),
		pyjson.KV("what", what), pyjson.KV("changed", changed), pyjson.KV("links", pyjson.ObjectValue(target)))
}
