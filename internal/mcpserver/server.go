package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/unified-cognitive-substrate/ucs/bridge"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/store"
	"github.com/unified-cognitive-substrate/ucs/internal/version"
)

// instructions tell the client's model how to use the tools.
const instructions = `ucs is a learning memory of how you work. At session start call session_start
(resume). Before a significant task call consult (suggested paths, methodology,
dead ends, judgment) or coverage_check (how ready the memory is). Run tools
through execute_action (ucs observes the outcome and learns from it), or report
each action you take otherwise. Reflect when a report asks for it; flush before
your context is compacted. A consult's advisory_id is attached to your next
report or execute_action by the server. Errors carry a code and a hint.`

// New returns an MCP server of the operations of the registry and the
// OpenSentience surface, on the workspace of opts (its clock, agent id and
// lock timeout apply to every call; Output, Timings and Progress are the
// server's own). On the agent's surface (opts.Surface is
// bridge.SurfaceAgent) it leaves out the operator's operations
// (Spec.Operator): the agent cannot lift the policy that binds it, reset
// its workspace, or name a file for the server to read or write, and its
// verdicts weigh as its own (Spec.Verdict).
func New(opts bridge.Options) *mcp.Server { return NewWith(opts, nil) }

// NewWith is New with the workspace reached through run: a store's
// (pgstore.Runner) makes each call one database transaction on a local
// mirror; nil runs on the directory of opts.
func NewWith(opts bridge.Options, run store.Runner) *mcp.Server {
	if run == nil {
		run = func(_ string, opts bridge.Options, fn func(b *bridge.Bridge) error) error {
			return fn(bridge.New(opts))
		}
	}
	if opts.Warm == nil {
		// The server's calls decode what its previous call wrote: it keeps
		// the decoded engine instead (bridge.Warm), through a store's
		// mirror too (store.OnMirror passes the options on).
		opts.Warm = bridge.NewWarm()
	}
	s := &server{opts: opts, run: run}
	srv := mcp.NewServer(&mcp.Implementation{Name: "ucs", Title: "ucs: a learning memory of how an agent works",
		Version: version.Version()}, &mcp.ServerOptions{Instructions: instructions})
	for _, sp := range bridge.Specs() {
		if sp.Operator && opts.Surface == bridge.SurfaceAgent {
			continue
		}
		srv.AddTool(tool(sp, sp.ToolName(), ""), s.operation(sp))
	}
	for _, a := range aliases {
		sp := bridge.Lookup(a.op)
		srv.AddTool(tool(sp, a.name, a.summary), s.operation(sp))
	}
	srv.AddTool(tool(&execSpec, execSpec.Name, ""), s.executeAction)
	return srv
}

// server is the state of one server: the options of its calls and the
// pending causal context.
type server struct {
	opts bridge.Options
	run  store.Runner
	mu   sync.Mutex // one operation at a time, and the context below
	ctx  causalContext
}

// tool describes an operation as a tool named name: its summary (or
// summary, for an alias), help, input schema and output schema.
func tool(sp *bridge.Spec, name, summary string) *mcp.Tool {
	if summary == "" {
		summary = sp.Summary
	}
	desc := summary + "."
	if sp.Long != "" {
		desc += "\n\n" + strings.Join(strings.Fields(sp.Long), " ")
	}
	schema := sp.ToolSchema().With("title", name).With("description", summary)
	t := &mcp.Tool{Name: name, Description: desc, InputSchema: json.RawMessage(pyjson.AppendCompact(nil, schema)),
		OutputSchema: json.RawMessage(pyjson.AppendCompact(nil, outputSchema(sp, name))),
		Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: !sp.Mutating, OpenWorldHint: new(bool)}} // only the workspace
	if sp == &execSpec {
		open := true // it runs any command: the open world
		t.Annotations.OpenWorldHint = &open
	}
	if sp.Mutating {
		// It adds to the workspace, unless the registry says it may
		// delete, replace or reset (Spec.Destructive).
		destructive := sp.Destructive
		t.Annotations.DestructiveHint = &destructive
	}
	return t
}

// operation is the handler of an operation's tool: the arguments as one
// input object, through bridge.Do.
func (s *server) operation(sp *bridge.Spec) mcp.ToolHandler {
	return func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		in, err := arguments(req)
		if err != nil {
			return failure(err), nil
		}
		if err := noPath(sp, in); err != nil {
			return failure(err), nil
		}
		if sp.Name == "view" { // the page comes in the answer
			in = in.With("inline", true)
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		attributed := false
		if sp.Name == "report" {
			in, attributed = s.ctx.attach(in)
		}
		var stream bytes.Buffer
		opts := s.opts
		opts.Output, opts.Timings, opts.Progress = &stream, nil, nil
		var out pyjson.Value
		op := sp.Name
		if f, ok := in.Get("fleet"); ok && f.Bool() { // view, show: a store lists the fleet
			op = store.FleetOp(op)
		}
		err = s.run(op, opts, func(b *bridge.Bridge) error {
			var err error
			out, err = b.Do(sp.Call(in))
			return err
		})
		if err != nil {
			return failure(sp.ToolError(err)), nil
		}
		switch {
		case out.IsNull(): // log streams its events
			out = streamed(stream.Bytes())
		case sp.Name == "consult":
			s.ctx.consulted(out)
		case attributed:
			s.ctx.used(in)
		}
		return success(out), nil
	}
}

// noPath refuses the arguments of a tool that name a path (field.Field.Path):
// a tool never makes the server read or write a file its caller names.
func noPath(sp *bridge.Spec, in pyjson.Value) error {
	for _, f := range sp.Inputs() {
		if _, ok := in.Get(f.Name); !ok || !f.Path {
			continue
		}
		var names []string
		for _, t := range sp.ToolInputs() {
			names = append(names, t.Name)
		}
		hint := sp.ToolName() + " takes no argument"
		if names != nil {
			hint = "the arguments of " + sp.ToolName() + " are " + strings.Join(names, ", ")
		}
		return &fault.Error{Kind: fault.KindBadInput, Code: fault.CodeUnknownField,
			Msg:  sp.ToolName() + " has no argument " + strconv.Quote(f.Name) + ": a tool never names a file",
			Hint: hint}
	}
	return nil
}

// arguments reads a call's arguments as one input object: none is {}.
func arguments(req *mcp.CallToolRequest) (pyjson.Value, error) {
	raw := req.Params.Arguments
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return pyjson.Obj(), nil
	}
	return field.ParseInput(raw)
}

// streamed is the answer of an operation that streams its output (log):
// its JSON lines as a list of events, or its text as a table.
func streamed(data []byte) pyjson.Value {
	var events []pyjson.Value
	for line := range strings.SplitSeq(strings.TrimSpace(string(data)), "\n") {
		if line == "" {
			continue
		}
		v, err := pyjson.Parse([]byte(line))
		if err != nil {
			return pyjson.Obj(pyjson.KV("table", string(data)))
		}
		events = append(events, v)
	}
	if events == nil {
		events = []pyjson.Value{}
	}
	return pyjson.Obj(pyjson.KV("events", events), pyjson.KV("count", len(events)))
}

// success is a tool's answer: the JSON as structured content, and as text
// for clients that read only text.
func success(out pyjson.Value) *mcp.CallToolResult {
	data := pyjson.AppendCompact(nil, out)
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(data)}},
		StructuredContent: json.RawMessage(data)}
}

// failure is a tool error: the command line's error object (error, code,
// hint and any details), as structured content and as text.
func failure(err error) *mcp.CallToolResult {
	e := fault.AsError(err)
	out := pyjson.ObjectValue(append([]pyjson.Member{pyjson.KV("error", e.Msg), pyjson.KV("code", e.Code),
		pyjson.KV("hint", e.Hint)}, e.Details...))
	return failureValue(out)
}

func failureValue(out pyjson.Value) *mcp.CallToolResult {
	r := success(out)
	r.IsError = true
	return r
}
