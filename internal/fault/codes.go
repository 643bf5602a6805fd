package fault

//go:generate go test -run TestErrorsDoc -update-doc .

// KindDenied is the exit code of `ucs exec` when the policy refuses the
// capability: the shell's "cannot execute" (126), since exec's exit code is
// otherwise the tool's. Only exec returns it, with permission_denied.
const KindDenied Kind = 126

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
	{"internal", KindInternal, "a bug or an I/O failure (a disk full, a file ucs cannot write); the workspace was left as it was: report it with the message"},
	{"mcp_not_installed", KindInternal, "`ucs mcp` found no ucs-mcp binary beside ucs or on PATH: install it (make install, or go install .../cmd/ucs-mcp)"},
	{"not_installed", KindInternal, "a binary ucs runs (ucs-pg for a PostgreSQL store, or the one UCS_STORE_BINARY names) is missing: install it beside ucs or on PATH"},
	{"replay_mismatch", KindInternal, "`ucs replay --expect`: a step's output differs from the expected one; the diff names the step"},
	{"store_failed", KindInternal, "the PostgreSQL store failed during a call (a statement, a migration); nothing was committed: report it with the message"},

	{"empty_input", KindBadInput, "the command reads a JSON object on stdin and got nothing: send one"},
	{"input_too_large", KindBadInput, "stdin holds more than 16 MiB: send less"},
	{"invalid_clock", KindBadInput, "UCS_NOW is not an RFC 3339 time: fix it, or unset it for the real clock"},
	{"invalid_input", KindBadInput, "stdin is JSON but not an object: send one JSON object"},
	{"invalid_json", KindBadInput, "stdin is not valid JSON: the message names the position"},
	{"invalid_lock_timeout", KindBadInput, "UCS_LOCK_TIMEOUT is not a positive Go duration (10s, 500ms): fix it"},
	{"invalid_manifest", KindBadInput, "init's --manifest is not a valid manifest (or cannot be read): the message names the entry and member, the hint the keys or values it takes (docs/manifest.md)"},
	{"invalid_permission", KindBadInput, "a permission is not domain:action:scope with a known domain and action: see `ucs policy show`"},
	{"invalid_policy", KindBadInput, "a policy file is not {\"version\": 1, \"grants\": [...]} with valid grants: fix the file"},
	{"invalid_result", KindBadInput, "a report's result has a member of the wrong name or type: see the members the hint lists"},
	{"invalid_skill", KindBadInput, "`ucs skill install`: the directory holds another skill's, or a damaged, SKILL.md: install elsewhere (--dir) or --force"},
	{"invalid_snapshot_every", KindBadInput, "UCS_SNAPSHOT_EVERY is not a whole number: give a number of events, or -1 for none"},
	{"invalid_state", KindBadInput, "the goal or observation is not in a state the command applies to (a done goal, a superseded observation): see its state"},
	{"invalid_store_url", KindBadInput, "--store (UCS_STORE) is not a PostgreSQL URL the driver can parse: give postgres://USER@HOST:PORT/DATABASE"},
	{"invalid_utf8", KindBadInput, "a field, flag, argument or environment value is not valid UTF-8: send UTF-8"},
	{"invalid_value", KindBadInput, "a field or flag has a value out of its range or set: the message names it and the hint the values it takes"},
	{"invalid_workspace_name", KindBadInput, "--workspace-name (UCS_WORKSPACE_NAME, UCS_AGENT_ID) is not 1 to 128 letters, digits, '.', '_' or '-': rename it"},
	{"manifest_differs", KindBadInput, "init --manifest on an initialized workspace names a manifest other than the one it was initialized with (both named); nothing changed: add --force to start over on it (the state is backed up), or drop --manifest"},
	{"missing_field", KindBadInput, "a required field or flag is missing: the message names it"},
	{"no_policy", KindBadInput, "policy revoke on a workspace that has no policy: grant a permission first"},
	{"not_a_report", KindBadInput, "rate or amend names an event that is not a report: `ucs log --op report` lists them with their seq"},
	{"policy_file_invalid", KindBadInput, "the operator's policy file (--policy-file, UCS_POLICY_FILE) does not parse: fix the file; nothing ran"},
	{"policy_file_unreadable", KindBadInput, "the operator's policy file cannot be read: check its path and permissions; nothing ran"},
	{"policy_file_writable", KindBadInput, "the calling user can write or replace the policy file (or runs as root), so it protects nothing: make it and its directories the operator's, read-only to the agent's user"},
	{"policy_locked", KindBadInput, "the policy is held in a policy file the agent cannot write: policy grant, revoke, set and clear are refused"},
	{"request_id_conflict", KindBadInput, "the request_id was already used for a different input: use a new one; reuse one only to retry the very same call"},
	{"skill_exists", KindBadInput, "`ucs skill install`: a skill is already installed there: check it; --force replaces it"},
	{"too_large", KindBadInput, "a text field is longer than its documented cap: shorten it"},
	{"unknown_capability", KindBadInput, "the action is not a capability of the workspace's manifest: the hint names the closest and where all are listed (ucs/state/manifest.json)"},
	{"unknown_command", KindBadInput, "the operation is not one ucs has: run `ucs --help`"},
	{"unknown_field", KindBadInput, "stdin names a field the command does not take: the message names it and the fields it takes"},
	{"unknown_goal", KindBadInput, "no goal has that id: `ucs goal list` lists them"},
	{"unknown_observation", KindBadInput, "no observation has that id: `ucs observations` lists them"},
	{"unreadable_file", KindBadInput, "a file the call names (a policy file) cannot be read: give a readable file"},
	{"unreadable_input", KindBadInput, "stdin cannot be read: send one JSON object"},
	{"unwritable_output", KindBadInput, "the file the call writes (view --out) cannot be written: give a path in a directory you can write"},
	{"usage", KindBadInput, "the command line is wrong (an unknown command or flag, a bad flag value, an extra argument, a workspace path that is a file): run the command with --help"},
	{"workspace_exists", KindBadInput, "store push: the store already holds a workspace of that name: push under another --workspace-name, or pull the stored one"},
	{"wrong_type", KindBadInput, "a field has the wrong JSON type: the message names the field and the type it takes"},

	{"not_initialized", KindNotInitialized, "no workspace at the path (members workspace, workspace_exists say where and whether the directory exists): fix --workspace, or run `ucs init` to start one"},

	{"busy", KindBusy, "another call held the workspace's lock past UCS_LOCK_TIMEOUT: retry (the same request_id is safe)"},

	{"verify_failed", KindCorrupt, "verify's replay does not reproduce an event's state, or the snapshot it starts from is damaged: the message names the first event; run `ucs check`"},
	{"workspace_corrupt", KindCorrupt, "a workspace file does not parse or validate (the message names file and field); it was not changed: run `ucs check`, then `ucs check --repair`"},

	{"unsupported_version", KindUnsupported, "a newer ucs wrote the workspace, or an event of its journal, in a format or with a learning model this one does not know: upgrade ucs; nothing was changed"},

	{"store_unavailable", KindStoreUnavailable, "the PostgreSQL store cannot be reached or refuses the connection (server down, wrong host, port or database, wrong user or password); member store names it without its password; nothing was changed: fix it, then retry"},

	{"permission_denied", KindDenied, "exec: the policy does not grant what the capability declares (members missing, reason); the tool did not run: `ucs policy grant` what it needs"},
}
