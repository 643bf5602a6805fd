package fault

//go:generate go test -run TestErrorsDoc -update-doc .

// KindDenied is the exit code of `ucs exec` when the policy refuses the
// capability: the shell's "cannot execute" (126), since exec's exit code is
// otherwise the tool's. Only exec returns it, with permission_denied.
const KindDenied Kind = 126

// The error codes, one constant each, so a call site cannot misspell one
// and a reader can find every place that returns it. Codes below says
// what each means and its exit code.
const (
	// Of kind KindInternal.
	CodeInternal        = "internal"
	CodeMCPNotInstalled = "mcp_not_installed"
	CodeNotInstalled    = "not_installed"
	CodeReplayMismatch  = "replay_mismatch"
	CodeStoreFailed     = "store_failed"

	// Of kind KindBadInput.
	CodeEmptyInput           = "empty_input"
	CodeInputTooLarge        = "input_too_large"
	CodeInvalidClock         = "invalid_clock"
	CodeInvalidInput         = "invalid_input"
	CodeInvalidJSON          = "invalid_json"
	CodeInvalidLockTimeout   = "invalid_lock_timeout"
	CodeInvalidManifest      = "invalid_manifest"
	CodeInvalidPermission    = "invalid_permission"
	CodeInvalidPolicy        = "invalid_policy"
	CodeInvalidResult        = "invalid_result"
	CodeInvalidSkill         = "invalid_skill"
	CodeInvalidSnapshotEvery = "invalid_snapshot_every"
	CodeInvalidState         = "invalid_state"
	CodeInvalidStoreURL      = "invalid_store_url"
	CodeInvalidUTF8          = "invalid_utf8"
	CodeInvalidValue         = "invalid_value"
	CodeInvalidWorkspaceName = "invalid_workspace_name"
	CodeManifestDiffers      = "manifest_differs"
	CodeMissingField         = "missing_field"
	CodeNoFleet              = "no_fleet"
	CodeNoPolicy             = "no_policy"
	CodeNotAReport           = "not_a_report"
	CodePolicyFileInvalid    = "policy_file_invalid"
	CodePolicyFileUnreadable = "policy_file_unreadable"
	CodePolicyFileWritable   = "policy_file_writable"
	CodePolicyLocked         = "policy_locked"
	CodeRequestIDConflict    = "request_id_conflict"
	CodeSkillExists          = "skill_exists"
	CodeStoreDenied          = "store_denied"
	CodeTooLarge             = "too_large"
	CodeUnknownCapability    = "unknown_capability"
	CodeUnknownCommand       = "unknown_command"
	CodeUnknownField         = "unknown_field"
	CodeUnknownGoal          = "unknown_goal"
	CodeUnknownObservation   = "unknown_observation"
	CodeUnreadableFile       = "unreadable_file"
	CodeUnreadableInput      = "unreadable_input"
	CodeUnwritableOutput     = "unwritable_output"
	CodeUsage                = "usage"
	CodeWorkspaceExists      = "workspace_exists"
	CodeWrongType            = "wrong_type"

	// Of kind KindNotInitialized.
	CodeNotInitialized = "not_initialized"

	// Of kind KindBusy.
	CodeBusy = "busy"

	// Of kind KindCorrupt.
	CodeVerifyFailed     = "verify_failed"
	CodeWorkspaceCorrupt = "workspace_corrupt"

	// Of kind KindUnsupported.
	CodeUnsupportedVersion = "unsupported_version"

	// Of kind KindStoreUnavailable.
	CodeStoreUnavailable = "store_unavailable"

	// Of kind KindDenied.
	CodePermissionDenied = "permission_denied"
)

// A Code is an error code ucs returns, with its kind (the exit code) and
// what it means.
type Code struct {
	Code    string
	Kind    Kind
	Meaning string // what happened, and what to do
}

// A KindDoc says what an exit code means and what the caller should do.
type KindDoc struct {
	Kind Kind
	Name string
	Do   string
}

// Kinds are the exit codes of errors, as docs/errors.md lists them.
var Kinds = []KindDoc{
	{KindInternal, "internal error", "a bug or an I/O failure: report it; the workspace was left as it was"},
	{KindBadInput, "bad input or usage", "fix the call and retry"},
	{KindNotInitialized, "workspace not initialized", "check --workspace for a typo, or run `ucs init`"},
	{KindBusy, "workspace busy", "another call held the lock past UCS_LOCK_TIMEOUT (10s): retry"},
	{KindCorrupt, "workspace corrupt", "a file does not parse or validate, and is never overwritten: run `ucs check`"},
	{KindUnsupported, "unsupported version", "a newer ucs wrote the workspace or an event of its journal: upgrade ucs; never a sign of damage"},
	{KindStoreUnavailable, "store unavailable", "the PostgreSQL store cannot be reached or refuses the connection: fix the server or --store, then retry"},
	{KindDenied, "capability refused (exec)", "the policy does not grant what the capability declares; nothing ran"},
}

// Codes are every error code ucs returns, by exit code, then name: the
// one list docs/errors.md is generated from (go generate ./internal/fault).
// A test fails when the source returns a code that is not here, with
// another kind, or when a code here is returned by nothing.
var Codes = []Code{
	{CodeInternal, KindInternal, "a bug or an I/O failure (a disk full, a file ucs cannot write); the workspace was left as it was: report it with the message"},
	{CodeMCPNotInstalled, KindInternal, "`ucs mcp` found no ucs-mcp binary beside ucs or on PATH: install it (make install, or go install .../cmd/ucs-mcp)"},
	{CodeNotInstalled, KindInternal, "a binary ucs runs (ucs-pg for a PostgreSQL store, or the one UCS_STORE_BINARY names) is missing: install it beside ucs or on PATH"},
	{CodeReplayMismatch, KindInternal, "`ucs replay --expect`: a step's output differs from the expected one; the diff names the step"},
	{CodeStoreFailed, KindInternal, "the PostgreSQL store failed during a call (a statement, a migration); nothing was committed: report it with the message"},

	{CodeEmptyInput, KindBadInput, "the command reads a JSON object on stdin and got nothing: send one"},
	{CodeInputTooLarge, KindBadInput, "stdin holds more than 16 MiB: send less"},
	{CodeInvalidClock, KindBadInput, "UCS_NOW is not an RFC 3339 time: fix it, or unset it for the real clock"},
	{CodeInvalidInput, KindBadInput, "stdin is JSON but not an object: send one JSON object"},
	{CodeInvalidJSON, KindBadInput, "stdin is not valid JSON: the message names the position"},
	{CodeInvalidLockTimeout, KindBadInput, "UCS_LOCK_TIMEOUT is not a positive Go duration (10s, 500ms): fix it"},
	{CodeInvalidManifest, KindBadInput, "init's --manifest is not a valid manifest (or cannot be read): the message names the entry and member, the hint the keys or values it takes (docs/manifest.md)"},
	{CodeInvalidPermission, KindBadInput, "a permission is not domain:action:scope with a known domain and action: see `ucs policy show`"},
	{CodeInvalidPolicy, KindBadInput, "a policy file is not {\"version\": 1, \"grants\": [...]} with valid grants: fix the file"},
	{CodeInvalidResult, KindBadInput, "a report's result has a member of the wrong name or type: see the members the hint lists"},
	{CodeInvalidSkill, KindBadInput, "`ucs skill install`: the directory holds another skill's, or a damaged, SKILL.md: install elsewhere (--dir) or --force"},
	{CodeInvalidSnapshotEvery, KindBadInput, "UCS_SNAPSHOT_EVERY is not a whole number: give a number of events, or -1 for none"},
	{CodeInvalidState, KindBadInput, "the goal or observation is not in a state the command applies to (a done goal, a superseded observation): see its state"},
	{CodeInvalidStoreURL, KindBadInput, "--store (UCS_STORE) is not a PostgreSQL URL the driver can parse: give postgres://USER@HOST:PORT/DATABASE"},
	{CodeInvalidUTF8, KindBadInput, "a field, flag, argument or environment value is not valid UTF-8: send UTF-8"},
	{CodeInvalidValue, KindBadInput, "a field or flag has a value out of its range or set: the message names it and the hint the values it takes"},
	{CodeInvalidWorkspaceName, KindBadInput, "--workspace-name (UCS_WORKSPACE_NAME, UCS_AGENT_ID) is not 1 to 128 letters, digits, '.', '_' or '-': rename it"},
	{CodeManifestDiffers, KindBadInput, "init --manifest on an initialized workspace names a manifest other than the one it was initialized with (both named); nothing changed: add --force to start over on it (the state is backed up), or drop --manifest"},
	{CodeMissingField, KindBadInput, "a required field or flag is missing: the message names it"},
	{CodeNoFleet, KindBadInput, "view --fleet or show --fleet on a directory workspace: a fleet lives in a PostgreSQL store; run it with --store postgres://... (UCS_STORE), or without --fleet for this workspace"},
	{CodeNoPolicy, KindBadInput, "policy revoke on a workspace that has no policy: grant a permission first"},
	{CodeNotAReport, KindBadInput, "rate or amend names an event that is not a report: `ucs log --op report` lists them with their seq"},
	{CodePolicyFileInvalid, KindBadInput, "the operator's policy file (--policy-file, UCS_POLICY_FILE) does not parse: fix the file; nothing ran"},
	{CodePolicyFileUnreadable, KindBadInput, "the operator's policy file cannot be read: check its path and permissions; nothing ran"},
	{CodePolicyFileWritable, KindBadInput, "the calling user can write or replace the policy file (or runs as root), so it protects nothing: make it and its directories the operator's, read-only to the agent's user"},
	{CodePolicyLocked, KindBadInput, "the policy is held in a policy file the agent cannot write: policy grant, revoke, set and clear are refused"},
	{CodeRequestIDConflict, KindBadInput, "the request_id was already used for a different input: use a new one; reuse one only to retry the very same call"},
	{CodeSkillExists, KindBadInput, "`ucs skill install`: a skill is already installed there: check it; --force replaces it"},
	{CodeStoreDenied, KindBadInput, "the PostgreSQL store refused the call to its database role: the workspace is another role's (only its owner changes it; its fleet reads it through consult and store pull), or the role lacks ucs_agent's grants; nothing was changed: name your own workspace, or have the operator grant the role"},
	{CodeTooLarge, KindBadInput, "a text field is longer than its documented cap: shorten it"},
	{CodeUnknownCapability, KindBadInput, "the action is not a capability of the workspace's manifest: the hint names the closest and where all are listed (ucs/state/manifest.json)"},
	{CodeUnknownCommand, KindBadInput, "the operation is not one ucs has: run `ucs --help`"},
	{CodeUnknownField, KindBadInput, "stdin names a field the command does not take: the message names it and the fields it takes"},
	{CodeUnknownGoal, KindBadInput, "no goal has that id: `ucs goal list` lists them"},
	{CodeUnknownObservation, KindBadInput, "no observation has that id: `ucs observations` lists them"},
	{CodeUnreadableFile, KindBadInput, "a file the call names (a policy file) cannot be read: give a readable file"},
	{CodeUnreadableInput, KindBadInput, "stdin cannot be read: send one JSON object"},
	{CodeUnwritableOutput, KindBadInput, "the file the call writes (view --out) cannot be written: give a path in a directory you can write"},
	{CodeUsage, KindBadInput, "the command line is wrong (an unknown command or flag, a bad flag value, an extra argument, a workspace path that is a file): run the command with --help"},
	{CodeWorkspaceExists, KindBadInput, "store push: the store already holds a workspace of that name: push under another --workspace-name, or pull the stored one"},
	{CodeWrongType, KindBadInput, "a field has the wrong JSON type: the message names the field and the type it takes"},

	{CodeNotInitialized, KindNotInitialized, "no workspace at the path (members workspace, workspace_exists say where and whether the directory exists): fix --workspace, or run `ucs init` to start one"},

	{CodeBusy, KindBusy, "another call held the workspace's lock past UCS_LOCK_TIMEOUT: retry (the same request_id is safe)"},

	{CodeVerifyFailed, KindCorrupt, "verify's replay does not reproduce an event's state, or the snapshot it starts from is damaged: the message names the first event; run `ucs check`"},
	{CodeWorkspaceCorrupt, KindCorrupt, "a workspace file does not parse or validate (the message names file and field); it was not changed: run `ucs check`, then `ucs check --repair`"},

	{CodeUnsupportedVersion, KindUnsupported, "a newer ucs wrote the workspace, or an event of its journal, in a format or with a learning model this one does not know: upgrade ucs; nothing was changed"},

	{CodeStoreUnavailable, KindStoreUnavailable, "the PostgreSQL store cannot be reached or refuses the connection (server down, wrong host, port or database, wrong user or password); member store names it without its password; nothing was changed: fix it, then retry"},

	{CodePermissionDenied, KindDenied, "exec: the policy does not grant what the capability declares (members missing, reason); the tool did not run: `ucs policy grant` what it needs"},
}
