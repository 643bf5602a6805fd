// Package toolexec runs a tool command as an agent's action and reports
// what it observably did: the part of `ucs exec` that the command line and
// the MCP server's execute_action share. Plan checks the capability and the
// policy against the workspace as its last commit left it, without its
// lock, and picks the timeout; Run runs the command in its own process
// group under that timeout and returns an Observation (exit code, signal,
// duration, byte counts, the tails of its output); Report
// classifies it (package outcome) and reports it through bridge.Observe,
// returning ucs's answer. Refuse records a policy refusal instead.
//
// What each caller does with the tool's streams differs: the command line
// passes them through, the MCP server captures them (stdio carries the
// protocol). toolexec never prints ucs's answer; its callers do.
package toolexec
