// Package newuser is the session of a new user on ucs's default model
// (v5), as a first-time user would try it: a coding manifest of 14 tools, four task
// types each done by a consistent rule with the noise of a real agent
// (failures and retries, a web search that fails and is skipped, detours,
// probes, ucs exec, a goal, a rating, an amendment, a dead end), about 650
// calls, and checks of what v5 learned from it.
//
// Generate draws the session from a seed: its testscript (what
// internal/bench/cmd/gennewuser writes to testdata/script/newuser_session.txtar)
// and the same calls as data (Session.Calls), for a Go test that builds
// the workspace itself, such as the dashboard's browser test. Kinds are
// the task types, with the rule each is done by and the contexts it is
// asked in. The output is deterministic: the same seed and manifest give
// the same bytes and calls.
package newuser
