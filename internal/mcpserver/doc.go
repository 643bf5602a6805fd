// Package mcpserver serves ucs's operations as tools of the Model Context
// Protocol (MCP), with the official Go SDK: New returns the server, and
// cmd/ucs-mcp runs it over stdio (`ucs mcp` starts that binary).
//
// Every tool is derived from the operation registry (bridge.Specs): its
// name is Spec.ToolName ("goal add" is goal_add), its input schema
// Spec.InputSchema, its output schema Spec.OutputSchema (with the error
// object allowed: outputSchema), and a call runs Spec.Call of its
// arguments through bridge.Do, which validates it, so a bad input is
// refused with the same code and hint as on the command line. The answer
// is the operation's JSON as StructuredContent and as text; an error is a
// tool error (IsError) whose content is the command line's error object. The OpenSentience
// surface adds six names: session_start (resume), goal_register (goal
// add), goal_status (goal show), report_outcome_manual (rate),
// coverage_check (coverage) and execute_action, which runs a tool as
// `ucs exec` does (package toolexec) and returns its exit code and output.
//
// Each call is one whole operation (lock, load, operate, commit, unlock),
// so CLI calls and other servers share the workspace. What a server keeps
// is the advisory_id of the last consult, attached to the next report or
// execute_action that names none (the specification's pending causal
// context), and the engine its last call committed (bridge.Warm), which
// its next call uses instead of decoding the state file when that file is
// still, byte for byte, the one it wrote.
//
// Stdio is the transport cmd/ucs-mcp runs on: the SDK's newline-delimited
// JSON-RPC behind a filter that answers every line the SDK could not read
// (not JSON, not a message, a batch, a line over MaxFrame) with a JSON-RPC
// error instead of ending the session, and that waits, at stdin's end,
// until every call it passed on is answered.
package mcpserver
