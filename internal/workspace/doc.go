// Package workspace owns a ucs workspace on disk: its layout, its lock, the
// state file's meta, the hash-chained journal, the append-only data files
// and their index, snapshots, request records, workspaces the Python
// reference wrote, and check. It knows nothing of the operations: it
// stores what they queue, and hands them what they read. What the bytes
// mean is its caller's: the index's features (Options.Features) and the
// manifest's parser and default (Options.Manifests) come through Options,
// so that storage imports nothing above internal/fault and pyjson.
//
// Most callers need one type. Begin starts a transaction (a Tx) on an
// initialized workspace, Create one on a new workspace; the Tx reads data
// files lazily (List, Tail, RawTail, a learning model's records, Record,
// and the index's lines and lists, IndexLines and CapabilityPostings, which
// package search scores above it), queues changes (Add, Append, Pin,
// RecordRequest, SetRecords, and whole files the state names by hash or
// derives from them, SetSideFile and SetDerived), and Commit writes them
// as one journal event.
// Close ends it; without a commit nothing was written.
//
// What it guarantees, and how:
//
//   - One writer at a time. Begin takes an flock(2) on ucs/state/lock,
//     exclusive for a call that changes the workspace and shared for a read,
//     waiting at most Options.LockTimeout (then an error of kind busy). The
//     kernel drops the lock of a process that dies.
//
//   - All or nothing, kill -9 safe. Every file but the state file is
//     append-only, and replacing the state file (a rename) is the commit
//     point. Commit appends the journal event (the call, its clock, the
//     state's hashes before and after, and the length of every file it will
//     append to) and fsyncs it, while the new state goes to a temporary
//     file; then it writes the appends at their recorded offsets and fsyncs
//     them together with the temporary file; then it renames the state into
//     place and fsyncs the directories. A call killed anywhere before the
//     rename leaves the journal one event ahead of the state file: the next
//     Begin cuts every file back to the length the event recorded and drops
//     the event (recover.go). After the rename the call is whole. A torn
//     last line (no newline) was never committed: readers skip it and the
//     next append overwrites it. The first event of a new workspace syncs
//     its event with its files (nothing before it to cut back to); a commit
//     that appends nothing syncs its event with the state.
//
//   - Hash-chained. Each journal event names the previous event's hash and
//     carries its own (SHA-256 of its canonical JSON); the state file's meta
//     holds, for each data file, its line count and a chain hash over its
//     lines, and each event the hash of the state file it left. Journal
//     reads the chain
//     and checks every link; Check proves every file against it; a replay
//     (package bridge's verify) proves the history.
//
//   - Derived data is safe to lose. The index (index.go) describes the data
//     files and is appended in the same commit as their entries, so recovery
//     rolls it back with them; a stale or damaged index is never used, and a
//     transaction holding the workspace exclusively rebuilds it whole beside
//     the old one (RefreshIndex, and after a commit that left it stale).
//     That rebuild, and the derived files a search above storage keeps
//     under the exclusive lock (WriteDerivedNow), are the only writes
//     outside Commit.
//
//   - Never through a link. A workspace may come from a shared folder, a
//     tarball or a repository: every open of its files refuses a symbolic
//     link and anything but a regular file (openFile), its directories are
//     checked not to be links (realDirs), recovery cuts back only files of
//     the layout (layoutRel), and Check names any link under ucs/. Such a
//     file is an error of kind corrupt naming it (fault.NotRegular).
//
// Errors are *fault.Error values with the kinds the command line maps to
// exit codes: busy, corrupt (a file is damaged; it is never overwritten),
// not initialized, unsupported (a newer ucs wrote it), internal (I/O).
//
// docs/storage.md explains the design and the measurements behind it.
package workspace
