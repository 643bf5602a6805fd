// Package bridge runs the operations of ucs on a workspace: init, consult,
// report, reflect, flush, resume, synthesize, status, export and import,
// and check, verify and log. It joins the routing engine (package
// torusfield) and the knowledge (package knowledge) behind the reference's
// JSON contract.
//
// Most callers need New and Do: a Bridge names a workspace, and each Do
// runs one whole operation, JSON in and JSON out, in one transaction of
// the storage package (internal/workspace): open (lock, read, recover,
// load the session), run, commit. A failed call returns an *Error, whose
// Kind is the process's exit code, and changes no file.
//
// The package holds the operations, one file each (op_*.go; Check, Verify
// and Log in validate.go, verify.go and log.go), the session they share
// (session.go: the engine, the meta, the answer's warnings), the learning
// models (model.go), the format migrations and the migrate operation
// (migrate.go), and the replay that verifies a history (verify.go). The
// journal, the lock, the data files and their index are the storage
// package's: an operation changes the workspace only through what it
// queues for its transaction's commit.
package bridge
