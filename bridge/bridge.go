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
	// Output receives what an operation prints as a stream rather than
	// returns as one object: log's events (Do then returns null).
	Output io.Writer
	// Progress, when set, is told how far a long operation (verify) is.
	Progress func(done, total int64)
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
	// replaying is set on verify's scratch workspace: it accepts input
	// members no field names (journals may predate the refusal of unknown
	// fields), converts no format by itself (it replays the recorded
	// migrate events) and keeps no backups.
	replaying bool
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

// Do runs one operation (see Specs). Args hold the command's flags as an
// object and Input its stdin object, or null. The call is checked against
// the operation's Spec before anything is read or locked. A failed call
// returns an *Error and changes no file.
func (b *Bridge) Do(c Call) (pyjson.Value, error) {
	sp := Lookup(c.Op)
	if sp == nil {
		return pyjson.Value{}, badInput("unknown_command", "run `ucs --help` for the commands", "unknown command %q", c.Op)
	}
	if c.Args.Kind() != pyjson.Object {
		c.Args = pyjson.Obj()
	}
	// The journal records the input in canonical JSON (sorted keys), and a
	// replay sees it so; the call itself must see it so too, or whatever
	// it stores of the input (a reasoning trace, imported entries) would
	// differ from the replay's.
	c.Input = pyjson.SortKeys(c.Input)
	c, err := sp.validate(c, b.replaying)
	if err != nil {
		return pyjson.Value{}, err
	}
	// c is what the journal records; the operation runs with the defaults.
	run := sp.complete(c)
	if sp.tool != nil {
		return sp.tool(b, run)
	}
	if !exists(b.l, relState) {
		return pyjson.Value{}, errNotInitialized
	}
	tm := newTimings(b.opts.Timings)
	defer tm.done(c.Op)
	lock, loaded, recovered, err := b.lockAndRecover(sp.Mutating)
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
	s.exclusive, s.noIndex, s.replaying = sp.Mutating, b.noIndex, b.replaying
	for _, r := range recovered {
		s.warn("recovered: " + r)
	}
	// (verify's replay converts nothing by itself: it replays the
	// recorded migrate events.)
	if sp.Mutating && c.Op != "migrate" && (s.ref != nil || s.meta.Format < WorkspaceFormat && !b.replaying) {
		// A reference workspace is adopted, and one of an older format
		// migrated, by its first change, never by a call that fails: run
		// the call on the old view first, and only if it succeeds convert
		// the workspace and run it again (it is deterministic).
		if _, err := sp.run(s, run); err != nil {
			return pyjson.Value{}, err
		}
		if s, err = openSession(b.l, loaded, b.now(), b.opts.AgentID); err != nil {
			return pyjson.Value{}, err
		}
		s.snapshotEvery = max(b.opts.SnapshotEvery, 0)
		s.exclusive, s.noIndex, s.replaying = true, b.noIndex, b.replaying
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
	if sp.Retries {
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
	out, err := sp.run(s, run)
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
	if sp.Mutating {
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
