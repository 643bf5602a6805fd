// Package audit proves and repairs a workspace's history: verify's replay
// of the journal on a scratch workspace and its comparison with what was
// recorded, check's judgment of a state file beyond what storage checks
// and the record of a repair, log's selection and summaries of events,
// the steps of the format migrations, and the checks and record of a
// change of learning model (ModelMove).
//
// It sits above storage (internal/workspace) and below the operations
// (bridge): a replay runs operations, so the caller provides them as a
// Replayer, and the state members of the caller's features are judged by
// the MemberRules it passes.
package audit
