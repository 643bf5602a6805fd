package bridge

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/unified-cognitive-substrate/ucs/internal/contract"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/internal/initmanifest"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
	"github.com/unified-cognitive-substrate/ucs/policy"
)

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
	// Surface is who the calls come through: SurfaceOperator (a person:
	// the command line, an operator's MCP client), the default, or
	// SurfaceAgent (the agent's MCP tools). A verdict that claims to be a
	// person's counts as one only on the operator's (Spec.Verdict).
	Surface string
	// NoSync commits without fsync: the workspace is a copy whose
	// durability a store provides (workspace.Options.NoSync).
	NoSync bool
	// Writes, when set, logs what the commits write to the workspace
	// (workspace.Options.Writes): a store copies them from it.
	Writes *workspace.WriteLog
	// PolicyFile is the operator's policy file (policy.LoadFile): when set,
	// it is the policy, and a call refuses to run if this user can write
	// it. Verify's replay never reads it: events record what they used.
	PolicyFile string
	// Warm, when set, is what a long-lived server keeps of the workspace
	// between its calls (NewWarm): a call whose state file is the one it
	// kept skips decoding it. Nil decodes every call's.
	Warm *Warm
}

// The surfaces a call comes through (Options.Surface).
const (
	SurfaceOperator = "operator"
	SurfaceAgent    = "agent"
)

// surfaceArg is the member of a verdict's recorded args that says it came
// through the agent's surface; it is absent for the operator's, so every
// event written before surfaces existed replays as it did.
const surfaceArg = "surface"

// A Bridge runs operations on one workspace. Each call to Do is one whole
// operation: lock, load, operate, commit, unlock. A Bridge holds no state
// between calls, so a process may make one call and exit; a long-lived
// server keeps what is worth keeping in a Warm (Options.Warm).
type Bridge struct {
	opts Options
	ws   *workspace.Workspace
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
	// draining is set while the pending queue is applied (pending.go).
	draining bool
	// peers are the fleet's other workspaces whose knowledge a consult
	// searches beside this one's (AddPeer).
	peers []peer
	// fleet is a store's listing for view --fleet and show --fleet
	// (SetFleet); nil on a directory.
	fleet []openMember
}

// A peer is another agent's workspace of the fleet, read-only.
type peer struct {
	name string
	ws   *workspace.Workspace
}

// AddPeer adds another agent's workspace (a directory, read-only) whose
// methodology, dead ends and judgment nodes a consult ranks beside this
// workspace's, each hit naming its agent, weighted by relevance.FleetWeight.
func (b *Bridge) AddPeer(name, dir string) {
	b.peers = append(b.peers, peer{name: name, ws: openWorkspace(dir, b.opts)})
}

// LockTimeout is how long a call waits for the workspace.
func (b *Bridge) LockTimeout() time.Duration { return b.opts.LockTimeout }

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
	ms := manifests
	if opts.Warm != nil {
		ms = opts.Warm.manifests()
	}
	return workspace.New(root, workspace.Options{LockTimeout: opts.LockTimeout,
		SnapshotEvery: max(opts.SnapshotEvery, 0), Models: advice.Models, NoSync: opts.NoSync, Writes: opts.Writes,
		Features:  workspace.Features{Append: knowledge.AppendFeatures, Fields: knowledge.FeatureFields},
		Manifests: ms})
}

// Do runs one operation (see Specs). Args hold the command's flags as an
// object and Input its stdin object, or null. The call is checked against
// the operation's Spec before anything is read or locked. A failed call
// returns an *Error and changes no file.
//
// Every operation on the engine's state runs the same way: open (begin the
// workspace's transaction and load the session), run, commit (a changing
// operation).
func (b *Bridge) Do(c Call) (pyjson.Value, error) {
	sp := Lookup(c.Op)
	if sp == nil {
		return pyjson.Value{}, fault.BadInput(fault.CodeUnknownCommand, "run `ucs --help` for the commands", "unknown command %q", c.Op)
	}
	if c.Args.Kind() != pyjson.Object {
		c.Args = pyjson.Obj()
	}
	// The agent id tags every event: it comes from the environment.
	if err := field.CheckUTF8("the agent id (UCS_AGENT_ID)", b.opts.AgentID); err != nil {
		return pyjson.Value{}, err
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
	if sp.Verdict && b.opts.Surface == SurfaceAgent && !b.replaying {
		c.Args = c.Args.With(surfaceArg, SurfaceAgent)
	}
	// c is what the journal records; the operation runs with the defaults.
	run := sp.complete(c)
	if sp.tool != nil {
		return sp.tool(b, run)
	}
	if sp.fleet != nil && argBool(run, "fleet") {
		return sp.fleet(b, run) // the store's workspaces, not this one
	}
	pf, err := b.policyFileFor(c)
	if err != nil {
		return pyjson.Value{}, err
	}
	var applied []string
	if sp.mutates(run) && sp.open == nil {
		applied = b.applyPending("").Notes
	}
	tm := newTimings(b.opts.Timings)
	defer tm.done(c.Op)
	var s *session
	if sp.open != nil {
		s, err = sp.open(b, run, tm)
	} else {
		s, err = b.open(sp, run, tm)
	}
	if errors.Is(err, workspace.ErrInitialized) {
		return initmanifest.AlreadyInitialized(b.opts.Workspace), nil
	}
	if err != nil {
		return pyjson.Value{}, err
	}
	defer s.tx.Close()
	s.decisions.File = pf
	if b.replaying {
		_, deny := c.Input.Get(policy.DefaultMember)
		s.decisions.UngatedAllowed = !deny
	}
	var reqID string
	if sp.Retries {
		if reqID, err = contract.RequestID(c.Input); err != nil {
			return pyjson.Value{}, err
		}
		if reqID != "" {
			if prev, ok, err := s.tx.FindRequest(reqID, c.Input); err != nil || ok {
				return prev.With("replayed", true), err
			}
		}
	}
	tBefore := s.tBefore
	out, err := sp.run(s, run)
	if err != nil {
		return pyjson.Value{}, err
	}
	tm.mark("operate")
	s.warnings = append(applied, s.warnings...)
	if len(s.warnings) > 0 {
		out = out.With("warnings", s.warnings)
	}
	if sp.table != nil && run.Args.StrOf("format") == "table" && b.opts.Output != nil {
		_, err := io.WriteString(b.opts.Output, sp.table(out))
		return pyjson.NullValue(), err
	}
	if sp.Mutating && argBool(run, "dry_run") {
		return out.With("dry_run", true), nil // nothing is recorded or committed
	}
	if reqID != "" {
		s.tx.RecordRequest(reqID, c.Op, c.Input, out)
	}
	if sp.mutates(run) && !s.unchanged {
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
func (b *Bridge) open(sp *Spec, c Call, tm *timings) (*session, error) {
	tx, err := b.ws.Begin(sp.mutates(c))
	if err != nil {
		return nil, err
	}
	tm.mark("lock+read")
	tx.NoIndex, tx.Mark = b.noIndex, tm.mark
	use := warmClone
	if sp.mutates(c) && !argBool(c, "dry_run") {
		use = warmTake
	}
	s, err := b.openSessionWarm(tx, use)
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
	if sp.mutates(c) && c.Op != "migrate" && (tx.Legacy() || s.meta.Format < WorkspaceFormat && !b.replaying) {
		if s, err = b.convert(s, sp, c); err != nil {
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
func (b *Bridge) convert(s *session, sp *Spec, c Call) (*session, error) {
	if _, err := sp.run(s, c); err != nil {
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

// now is the call's clock, at the journal's precision (microseconds, as
// isoTime writes it): a replay reads the clock back from the event, so
// whatever the call keeps of it must not hold more.
func (b *Bridge) now() time.Time {
	if b.opts.Now.IsZero() {
		return time.Now().UTC().Truncate(time.Microsecond)
	}
	return b.opts.Now.UTC().Truncate(time.Microsecond)
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
