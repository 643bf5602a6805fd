package bridge

import (
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
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
	l    layout
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
	return &Bridge{opts: opts, l: layout{root: opts.Workspace}}
}

// An operation is one of the bridge's commands.
type operation struct {
	mutating bool
	retries  bool // accepts a request_id for idempotent retries
	// check rejects bad input before the workspace is locked or read, so a
	// bad call costs nothing and holds no one up. The operation decodes
	// its input again when it runs; nil means no input to check.
	check func(c Call) error
	run   func(s *session, c Call) (pyjson.Value, error)
}

var operations = map[string]operation{
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
func (b *Bridge) Do(c Call) (pyjson.Value, error) {
	if c.Args.Kind() != pyjson.Object {
		c.Args = pyjson.Obj()
	}
	// The journal records the input in canonical JSON (sorted keys), and a
	// replay sees it so; the call itself must see it so too, or whatever
	// it stores of the input (a reasoning trace, imported entries) would
	// differ from the replay's.
	c.Input = pyjson.SortKeys(c.Input)
	if c.Op == "init" {
		return b.init(c)
	}
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
	if !exists(b.l, relState) {
		return pyjson.Value{}, errNotInitialized
	}
	tm := newTimings(b.opts.Timings)
	defer tm.done(c.Op)
	lock, loaded, recovered, err := b.lockAndRecover(op.mutating)
	if err != nil {
		return pyjson.Value{}, err
	}
	defer lock.unlock()
	tm.mark("lock+read")
	s, err := openSession(b.l, loaded, b.now(), b.opts.AgentID)
	if err != nil {
		return pyjson.Value{}, err
	}
	tm.mark("load")
	s.tm = tm
	s.snapshotEvery = max(b.opts.SnapshotEvery, 0)
	s.exclusive, s.noIndex, s.replaying = op.mutating, b.noIndex, b.replay
	for _, r := range recovered {
		s.warn("recovered: " + r)
	}
	// (verify's replay converts nothing by itself: it replays the
	// recorded migrate events.)
	if op.mutating && c.Op != "migrate" && (s.ref != nil || s.meta.Format < WorkspaceFormat && !b.replay) {
		// A reference workspace is adopted, and one of an older format
		// migrated, by its first change, never by a call that fails: run
		// the call on the old view first, and only if it succeeds convert
		// the workspace and run it again (it is deterministic).
		if _, err := op.run(s, c); err != nil {
			return pyjson.Value{}, err
		}
		if s, err = openSession(b.l, loaded, b.now(), b.opts.AgentID); err != nil {
			return pyjson.Value{}, err
		}
		s.snapshotEvery = max(b.opts.SnapshotEvery, 0)
		s.exclusive, s.noIndex, s.replaying = true, b.noIndex, b.replay
		if s.ref != nil {
			if err := s.adopt(); err != nil {
				return pyjson.Value{}, err
			}
		}
		if err := s.migrateToCurrent(); err != nil {
			return pyjson.Value{}, err
		}
	}
	var reqID string
	if op.retries {
		if reqID, err = requestID(c.Input); err != nil {
			return pyjson.Value{}, err
		}
		if reqID != "" {
			if prev, ok, err := s.findRequest(reqID, c.Input); err != nil || ok {
				return prev.With("replayed", true), err
			}
		}
	}
	tBefore := s.engine.Grid.T
	out, err := op.run(s, c)
	if err != nil {
		return pyjson.Value{}, err
	}
	tm.mark("operate")
	if len(s.warnings) > 0 {
		out = out.With("warnings", s.warnings)
	}
	if reqID != "" {
		s.recordRequest(reqID, c.Op, c.Input, out)
	}
	if op.mutating {
		if err := s.commit(c, tBefore); err != nil {
			return pyjson.Value{}, err
		}
		if reqID != "" {
			pruneRequests(b.l, s.meta.Requests)
		}
	}
	return out, nil
}

// lockAndRecover takes the workspace lock, reads the state file (once: the
// session is built from the same bytes) and first repairs a call that was
// cut short (see recoverWorkspace). A read takes a shared lock, and the
// exclusive one only when there is something to repair.
func (b *Bridge) lockAndRecover(exclusive bool) (*fileLock, loadedState, []string, error) {
	var ls loadedState
	lock, err := lockWorkspace(b.l.path(relLock), exclusive, b.opts.LockTimeout)
	if err != nil {
		return nil, ls, nil, err
	}
	fail := func(err error) (*fileLock, loadedState, []string, error) {
		lock.unlock()
		return nil, ls, nil, err
	}
	if ls.data, err = readFile(b.l.path(relState)); err != nil {
		if os.IsNotExist(err) {
			return fail(errNotInitialized)
		}
		return fail(internal(err, "read %s", relState))
	}
	need, jt, err := needsRecovery(b.l, ls.data)
	if err != nil {
		return fail(err)
	}
	ls.journal = jt
	if !need {
		return lock, ls, nil, nil
	}
	if !exclusive {
		lock.unlock()
		if lock, err = lockWorkspace(b.l.path(relLock), true, b.opts.LockTimeout); err != nil {
			return nil, ls, nil, err
		}
	}
	done, err := recoverWorkspace(b.l)
	if err != nil {
		return fail(err)
	}
	if ls.data, err = readFile(b.l.path(relState)); err != nil {
		return fail(internal(err, "read %s", relState))
	}
	if ls.journal, err = readJournalTail(b.l); err != nil {
		return fail(err)
	}
	return lock, ls, done, nil
}

// loadedState is what a call read of the workspace before loading it: the
// state file's bytes and the journal's last event.
type loadedState struct {
	data    []byte
	journal journalTail
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
