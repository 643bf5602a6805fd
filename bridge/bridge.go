package bridge

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
)

// Version is the version of ucs and of its JSON contract.
const Version = "0.1.0"

// Options configure a Bridge.
type Options struct {
	Workspace   string        // the workspace root; required
	Now         time.Time     // the clock for the call; zero means the real clock
	AgentID     string        // tags what this agent writes; "default"
	LockTimeout time.Duration // how long to wait for the workspace lock; 10s
	// SnapshotEvery keeps a snapshot of the state every so many events, so
	// verify can start from it (DefaultSnapshotEvery; negative: never).
	SnapshotEvery int
	// Timings, when set, receives a line per call with the time each phase
	// took (the CLI sets it to stderr for UCS_TIMINGS=1).
	Timings io.Writer
}

// A Bridge runs operations on one workspace. Each call to Do is one whole
// operation: lock, load, operate, commit, unlock. A Bridge holds no state
// between calls, so a process may make one call and exit.
type Bridge struct {
	opts Options
	ws   *workspace.Workspace
	// noIndex makes every call read the knowledge files instead of the
	// index (tests compare the two).
	noIndex bool
	// format is the workspace format an init writes (0: WorkspaceFormat).
	// Only verify sets it, to replay a history written in an older format.
	format int
	// replay is set on verify's scratch workspace: migrations there keep
	// no backup.
	replay bool
}

// New returns a Bridge for a workspace. It touches no file.
func New(opts Options) *Bridge {
	if opts.AgentID == "" {
		opts.AgentID = "default"
	}
	if opts.LockTimeout <= 0 {
		opts.LockTimeout = 10 * time.Second
	}
	if opts.SnapshotEvery == 0 {
		opts.SnapshotEvery = DefaultSnapshotEvery
	}
	return &Bridge{opts: opts, ws: openWorkspace(opts.Workspace, opts)}
}

// openWorkspace is the storage of a workspace as the bridge uses it.
func openWorkspace(root string, opts Options) *workspace.Workspace {
	return workspace.New(root, workspace.Options{LockTimeout: opts.LockTimeout,
		SnapshotEvery: max(opts.SnapshotEvery, 0), Models: Models})
}

// An operation is one of the bridge's commands.
type operation struct {
	mutating bool
	retries  bool // accepts a request_id for idempotent retries
	// check rejects bad input before the workspace is locked or read, so a
	// bad call costs nothing and holds no one up. The operation decodes
	// its input again when it runs; nil means no input to check.
	check func(c Call) error
	// open begins the call's transaction and loads its session; nil: an
	// initialized workspace's (Bridge.open). init creates the workspace.
	open func(b *Bridge, c Call, tm *timings) (*session, error)
	run  func(s *session, c Call) (pyjson.Value, error)
}

var operations = map[string]operation{
	"init":       {mutating: true, open: openInit, run: opInit},
	"consult":    {mutating: true, check: checkConsult, run: opConsult},
	"report":     {mutating: true, retries: true, check: checkReport, run: opReport},
	"reflect":    {mutating: true, retries: true, check: checkReflect, run: opReflect},
	"flush":      {mutating: true, run: opFlush},
	"import":     {mutating: true, retries: true, check: checkImport, run: opImport},
	"resume":     {run: opResume},
	"synthesize": {run: opSynthesize},
	"status":     {run: opStatus},
	"export":     {run: opExport},
	// migrate upgrades the workspace's format (migrate.go); changing calls
	// run it first by themselves, and verify replays its events.
	"migrate": {mutating: true, run: opMigrate},
}

// Operations lists the operation names Do accepts, init first.
func Operations() []string {
	return []string{"init", "consult", "report", "reflect", "flush", "resume", "synthesize", "status", "export", "import"}
}

// Do runs one operation. Args hold the command's flags as an object (see
// each command's documentation) and Input its stdin object, or null. A
// failed call returns an *Error and changes no file.
//
// Every operation runs the same way: open (begin the workspace's
// transaction and load the session), run, commit (a changing operation).
func (b *Bridge) Do(c Call) (pyjson.Value, error) {
	if c.Args.Kind() != pyjson.Object {
		c.Args = pyjson.Obj()
	}
	// The journal records the input in canonical JSON (sorted keys), and a
	// replay sees it so; the call itself must see it so too, or whatever
	// it stores of the input (a reasoning trace, imported entries) would
	// differ from the replay's.
	c.Input = pyjson.SortKeys(c.Input)
	op, ok := operations[c.Op]
	if !ok {
		return pyjson.Value{}, badInput("unknown_command", "run `ucs --help` for the commands", "unknown command %q", c.Op)
	}
	if op.check != nil {
		if err := op.check(c); err != nil {
			return pyjson.Value{}, err
		}
	}
	if op.retries {
		if _, err := requestID(c.Input); err != nil {
			return pyjson.Value{}, err
		}
	}
	tm := newTimings(b.opts.Timings)
	defer tm.done(c.Op)
	var s *session
	var err error
	if op.open != nil {
		s, err = op.open(b, c, tm)
	} else {
		s, err = b.open(op, c, tm)
	}
	if errors.Is(err, workspace.ErrInitialized) {
		return b.alreadyInitialized(), nil
	}
	if err != nil {
		return pyjson.Value{}, err
	}
	defer s.tx.Close()
	var reqID string
	if op.retries {
		if reqID, err = requestID(c.Input); err != nil {
			return pyjson.Value{}, err
		}
		if reqID != "" {
			if prev, ok, err := s.tx.FindRequest(reqID, c.Input); err != nil || ok {
				return prev.With("replayed", true), err
			}
		}
	}
	tBefore := s.tBefore
	out, err := op.run(s, c)
	if err != nil {
		return pyjson.Value{}, err
	}
	tm.mark("operate")
	if len(s.warnings) > 0 {
		out = out.With("warnings", s.warnings)
	}
	if reqID != "" {
		s.tx.RecordRequest(reqID, c.Op, c.Input, out)
	}
	if op.mutating {
		if err := s.commit(c, tBefore); err != nil {
			return pyjson.Value{}, err
		}
	}
	return out, nil
}

// open begins a transaction on an initialized workspace (exclusive for a
// changing operation) and loads the session. A reference workspace is
// adopted, and one of an older format migrated, by its first change, here,
// before the operation runs.
func (b *Bridge) open(op operation, c Call, tm *timings) (*session, error) {
	tx, err := b.ws.Begin(op.mutating)
	if err != nil {
		return nil, err
	}
	tm.mark("lock+read")
	tx.NoIndex, tx.Mark = b.noIndex, tm.mark
	s, err := b.openSession(tx)
	if err != nil {
		tx.Close()
		return nil, err
	}
	tm.mark("load")
	for _, r := range tx.Recovered() {
		s.warn("recovered: " + r)
	}
	// (verify's replay converts nothing by itself: it replays the
	// recorded migrate events.)
	if op.mutating && c.Op != "migrate" && (tx.Legacy() || s.meta.Format < WorkspaceFormat && !b.replay) {
		if s, err = b.convert(s, op, c); err != nil {
			tx.Close()
			return nil, err
		}
	}
	return s, nil
}

// convert adopts a reference workspace and migrates one of an older
// format, never for a call that fails: it runs the call on the old view
// first, and only if it succeeds converts the workspace (then the call
// runs again, on the new one: it is deterministic).
func (b *Bridge) convert(s *session, op operation, c Call) (*session, error) {
	if _, err := op.run(s, c); err != nil {
		return nil, err
	}
	tx := s.tx
	if err := tx.Discard(); err != nil {
		return nil, err
	}
	s, err := b.openSession(tx)
	if err != nil {
		return nil, err
	}
	if tx.Legacy() {
		if err := s.adopt(); err != nil {
			return nil, err
		}
	}
	if err := s.migrateToCurrent(); err != nil {
		return nil, err
	}
	return s, nil
}

func (b *Bridge) now() time.Time {
	if b.opts.Now.IsZero() {
		return time.Now().UTC()
	}
	return b.opts.Now.UTC()
}

// DefaultWorkspace is the workspace used when neither --workspace nor
// UCS_WORKSPACE names one: ~/.ucs, as in the reference.
func DefaultWorkspace() string {
	home, err := os.UserHomeDir()
	if err != nil {
		return ".ucs"
	}
	return filepath.Join(home, ".ucs")
}
