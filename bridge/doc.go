// Package bridge runs ucs's operations on a workspace: New opens one, and
// Do runs one call (validate, lock, load, operate, commit, unlock) and
// returns its JSON answer, or an *Error whose Kind is the process's exit
// code and which changed no file.
//
// Each operation is described once, by a contract.Op (package contract):
// its name, help, whether it changes the workspace, the schema of its
// input and answer (package field's field.Field and Output, which also
// check a call's values). A Spec in the operation's own op_*.go file joins
// it to the function that runs it (the registry, Specs). The command line, its
// help, the skill's command reference, the MCP tools' schemas and the
// documented error table are derived from it.
//
// The op files are adapters: the domain lives in packages of its own,
// which bridge joins through the session (session.go: the call's
// context, the engine and the learning model, the state file's members
// (state_member.go), the policy decisions the commit records, and the
// answer's warnings):
//   - torusfield, the reference's routing engine;
//   - learn and learn/advice (over learn/nextstep), the learning models
//     (advice.Model is their registry; migrate_model.go changes a
//     workspace's model);
//   - knowledge, recall and internal/search, the knowledge and its
//     retrieval, and internal/relevance, what of it bears on a context;
//     belief, the observations, kept in a workspace by internal/bookstore;
//   - goal, the goals; policy, permissions and the policy state;
//   - dashboard, the page view writes and show's table.
//
// check, verify, log and the format migrations are internal/audit's
// (op_check.go, op_verify.go, op_log.go, migrate.go adapt them).
// Every write is the storage package's (internal/workspace): an
// operation changes the workspace only through what it queues for its
// transaction's commit. docs/architecture.md follows one call through,
// and docs/storage.md explains how a workspace is stored.
package bridge
