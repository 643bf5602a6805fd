package bridge

import (
	"bytes"
	"errors"
	"strconv"
	"time"

	"github.com/unified-cognitive-substrate/ucs/internal/bookstore"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/initmanifest"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/relevance"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
	"github.com/unified-cognitive-substrate/ucs/policy"
	"github.com/unified-cognitive-substrate/ucs/recall"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// A session is one call's view of the workspace for the operations: the
// engine, the meta and the warnings of the answer, over the call's
// transaction (package workspace), which reads the data files lazily and
// queues what the call appends. Operations read and change the session;
// the disk changes only at commit, but for one exception the transaction
// documents: a search on a workspace whose index is stale may rebuild it
// first (workspace.Tx.RefreshIndex).
//
// Its fields are grouped by concept; the groups are embedded so an
// operation names a field (s.tx, s.engine) without its group.
type session struct {
	sessionCall
	sessionEngine
	// state holds the state file's members besides the engine's and the
	// learning model's, each decoded only when the call needs it.
	state stateMembers
	// learning is what the learning model learned (the state file's
	// advice.Member), as read and as the call changes it.
	learning advice.Memory
	// decisions is what the call's policy decisions rest on (the
	// operator's file, the manifest's declarations), and what the commit
	// records of them.
	decisions policy.Decisions
	// fleetRead is what a consult's ranking read of the fleet's evidence,
	// for its event (useFleet); nil without peers.
	fleetRead *nextstep.Recorder
	sessionCaches
	sessionOutput
}

// sessionCall is the call's context: its transaction and workspace, the
// clock and the agent.
type sessionCall struct {
	tx      *workspace.Tx
	peers   []peer // the fleet's other workspaces (Bridge.AddPeer)
	ws      *workspace.Workspace
	now     time.Time
	agentID string
	meta    *workspace.Meta // the transaction's
	// replaying is set in verify's scratch workspace (no backups).
	replaying bool
}

// sessionEngine is the workspace's engine and learning model.
type sessionEngine struct {
	manifest *torusfield.Manifest
	engine   *torusfield.Engine
	model    *advice.Model // the workspace's learning model (meta.Model)
	tBefore  int           // the engine's t when the call began; 0 for a new workspace
	// storedState is the engine's state in compact JSON, when the call
	// has it without encoding (an init from the stored warm-up) and has
	// not changed the engine since: the commit then saves these bytes.
	storedState []byte
	// warm, when set, keeps the engine this session commits (Warm); its
	// engine is the session's alone until then.
	warm *Warm
	// memberEnds is where the members after the engine's end in the
	// state appendState last wrote.
	memberEnds []int
}

// sessionCaches are the knowledge and recall indexes a call builds or
// loads once.
type sessionCaches struct {
	// recallAnalyzer is the workspace's term analyzer (relevance.go).
	recallAnalyzer *recall.Analyzer
	// knowledgeSrc is the call's reader of the knowledge (relevance.go).
	knowledgeSrc *relevance.Source
	// obsCtx is consult's index of the believed observations, loaded from
	// the files derived from the book or built from it.
	obsCtx bookstore.Context
}

// sessionOutput is what the call gives besides its answer: warnings, and
// what the commit records or skips.
type sessionOutput struct {
	warnings []string
	// init is what an init call decided (openInit); nil for any other.
	init *initmanifest.Plan
	// journaled, when set, is what the commit records instead of the call
	// (init records its manifest's hash, not its path).
	journaled *Call
	// unchanged says the changing call changed nothing (a migrate to the
	// model the workspace uses): Do commits no event for it.
	unchanged bool
}

// manifests are the engine's manifests as storage takes them: openSession
// reads the *torusfield.Manifest back from Tx.Manifest.
var manifests = workspace.Manifests{
	Parse:   func(raw []byte) (workspace.Manifest, error) { return torusfield.ParseManifest(raw) },
	Default: torusfield.DefaultManifestJSON,
}

// openSession loads an initialized workspace from the transaction: its
// meta (or a reference workspace's) and the engine, from the state file's
// bytes as the transaction read them.
func (b *Bridge) openSession(tx *workspace.Tx) (*session, error) {
	return b.openSessionWarm(tx, warmNone)
}

// openSessionWarm is openSession, using the Bridge's Warm as use says.
func (b *Bridge) openSessionWarm(tx *workspace.Tx, use warmUse) (*session, error) {
	s := b.newSession(tx)
	if s.meta.AgentID == "" {
		s.meta.AgentID = s.agentID
	}
	s.model = advice.LookupModel(s.meta.Model)
	// Storage holds the manifest its caller's parser made: the bridge's
	// (openWorkspace) is torusfield's.
	m, ok := tx.Manifest().(*torusfield.Manifest)
	if !ok {
		return nil, fault.Internal(errors.New("not the engine's manifest"), "open the session")
	}
	s.manifest = m
	if b.opts.Warm == nil {
		use = warmNone
	}
	if w := b.opts.Warm; use != warmNone {
		if e, members, ok := w.engineFor(tx.State(), m, use); ok {
			s.engine = e
			s.visitMembers(members)
			if use == warmTake {
				s.warm = w
			}
			s.tBefore = s.engine.Grid.T
			return s, nil
		}
	}
	var kept []rawMember
	if err := s.restoreVisit(func(key string, raw []byte) {
		if use != warmNone {
			kept = append(kept, rawMember{key, raw})
		}
	}); err != nil {
		return nil, err
	}
	switch use {
	case warmTake:
		s.warm = b.opts.Warm // it keeps what the call commits
	case warmClone:
		// The state as the call found it: the next call that reads the
		// same bytes (after another process's commit) uses it.
		for i := range kept {
			kept[i].raw = bytes.Clone(kept[i].raw)
		}
		b.opts.Warm.keep(bytes.Clone(tx.State()), m, s.engine.Clone(), kept)
	}
	s.tBefore = s.engine.Grid.T
	return s, nil
}

// visitMembers keeps the state file's members besides the engine's, each
// as restore's visitor does.
func (s *session) visitMembers(members []rawMember) {
	for _, m := range members {
		s.visitMember(m.key, m.raw)
	}
}

// restore decodes the engine, and keeps the members of the state file the
// call decodes when it needs them, from the state as the transaction read
// it.
func (s *session) restore() error { return s.restoreVisit(nil) }

// restoreVisit is restore, telling seen each member it keeps.
func (s *session) restoreVisit(seen func(key string, raw []byte)) error {
	s.engine = torusfield.New(s.manifest, torusfield.Options{})
	visit := func(key string, raw []byte) error {
		if seen != nil {
			seen(key, raw)
		}
		s.visitMember(key, raw)
		return nil
	}
	if err := s.engine.RestoreBytes(s.tx.State(), visit); err != nil {
		return fault.Corrupt(err, workspace.RelState)
	}
	return nil
}

// visitMember keeps a member of the state file besides the engine's.
func (s *session) visitMember(key string, raw []byte) {
	if key == advice.Member {
		if s.model.Learns() || s.model.NextSteps() {
			s.learning.Raw = raw
		}
		return
	}
	for _, m := range s.state.all() {
		if m.key() == key {
			m.read(raw)
			break
		}
	}
}

// reloaded returns a fresh session over the same transaction, as the call
// found the workspace: what an operation does on it (consult's warm-up
// steps, an advisory remembered) leaves this one as it is. It reads what
// the call appended, as any operation on the transaction does.
func (s *session) reloaded() (*session, error) {
	meta := *s.meta
	f := &session{}
	f.tx, f.ws, f.now, f.agentID, f.meta, f.replaying = s.tx, s.ws, s.now, s.agentID, &meta, s.replaying
	f.model, f.manifest = s.model, s.manifest
	f.recallAnalyzer, f.obsCtx.Index = s.recallAnalyzer, s.obsCtx.Index
	f.decisions.File, f.decisions.UngatedAllowed = s.decisions.File, s.decisions.UngatedAllowed
	if err := f.restore(); err != nil {
		return nil, err
	}
	f.tBefore = f.engine.Grid.T
	return f, nil
}

func (b *Bridge) newSession(tx *workspace.Tx) *session {
	return &session{sessionCall: sessionCall{tx: tx, ws: b.ws, now: b.now(), agentID: b.opts.AgentID, meta: &tx.Meta, replaying: b.replaying, peers: b.peers}}
}

// list returns the entries of a data file, with what this call added.
func (s *session) list(rel string) ([]pyjson.Value, error) { return s.tx.List(rel) }

// window returns at most the last n entries of a data file, with what
// this call added. It reads only the file's tail.
func (s *session) window(rel string, n int) ([]pyjson.Value, error) { return s.tx.Tail(rel, n) }

// rawWindow is window for a caller that only writes the entries out
// (export): their JSON text, undecoded (workspace.Tx.RawTail).
func (s *session) rawWindow(rel string, n int) (pyjson.Value, error) { return s.tx.RawTail(rel, n) }

// add appends an entry to a data file: in the session's view now, on disk
// at commit. It does not read the file: appending costs the same however
// long the file is.
func (s *session) add(rel string, v pyjson.Value) error {
	s.tx.Add(rel, v)
	return nil
}

// appendText queues text for a Markdown file, as the reference appends it
// (a blank line, the text, a newline), made safe for the file's structure
// by knowledge.MarkdownBlock.
func (s *session) appendText(rel, text string) {
	s.tx.Append(rel, []byte("\n"+knowledge.MarkdownBlock(text)+"\n"))
}

// commit commits the call as one journal event (workspace.Tx.Commit):
// the call as recorded, the clock, t before and after, and the state the
// session's engine holds.
func (s *session) commit(c Call, tBefore int) error {
	if s.journaled != nil {
		c = *s.journaled
	}
	c.Input = s.recordFleet(s.decisions.Record(c.Input))
	s.prepareBook()
	if err := s.prepareSteps(); err != nil {
		return err
	}
	state := s.appendState
	var written []byte
	if s.warm != nil && s.storedState == nil {
		state = func(dst []byte, lead pyjson.Member) []byte {
			written = s.appendState(dst, lead)
			return written
		}
	}
	warnings, err := s.tx.Commit(s.event(c, tBefore), state)
	if err != nil {
		return err
	}
	s.warnings = append(s.warnings, warnings...)
	s.storedState = nil
	if written != nil {
		s.warm.keepCommitted(s, written, s.memberEnds)
		s.warm = nil // the Warm's now: this session no longer changes it
	}
	return nil
}

// adopt converts a reference workspace before its first change, in a
// commit of its own (workspace.Tx.Adopt).
func (s *session) adopt() error {
	warnings, err := s.tx.Adopt(s.event(Call{}, s.engine.Grid.T), s.appendState)
	if err != nil {
		return err
	}
	s.warnings = append(s.warnings, warnings...)
	return nil
}

// event is the journal event of a call, as far as the session knows it;
// the transaction fills in the rest.
func (s *session) event(c Call, tBefore int) workspace.Event {
	return workspace.Event{Op: c.Op, Args: c.Args, Input: c.Input, Now: pyjson.ISOTime(s.now),
		TBefore: int64(tBefore), TAfter: int64(s.engine.Grid.T), Agent: s.agentID}
}

// appendState is the state file's content: the meta, then the engine's
// state. Compact: a third smaller than the reference's indented form,
// which every call writes, hashes and syncs; the reference reads it the
// same, and ignores the "ucs" member.
func (s *session) appendState(dst []byte, lead pyjson.Member) []byte {
	if s.storedState != nil {
		dst = torusfield.AppendStoredState(dst, s.storedState, lead)
	} else {
		dst = s.engine.AppendState(dst, lead)
	}
	// Where each member ends, for the Warm to keep them (keepCommitted).
	s.memberEnds = s.memberEnds[:0]
	end := func(n int) {
		if s.warm != nil && len(dst) != n {
			s.memberEnds = append(s.memberEnds, len(dst))
		}
	}
	end(-1)
	n := len(dst)
	dst = s.learning.AppendMember(s.model, dst)
	end(n)
	for _, m := range s.state.all() {
		n = len(dst)
		dst = m.appendTo(dst)
		end(n)
	}
	return dst
}

// annotations returns the annotation of each annotated artifact
// (knowledge.Annotations).
func (s *session) annotations() (map[string]pyjson.Value, error) {
	lines, err := s.list(workspace.RelAnnotations)
	return knowledge.Annotations(lines), err
}

// unannotated returns the IDs of artifacts with no annotation, in the
// engine's order.
func (s *session) unannotated() ([]string, error) {
	anns, err := s.annotations()
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, a := range s.engine.Artifacts.All() {
		if _, ok := anns[a.ID]; !ok {
			ids = append(ids, a.ID)
		}
	}
	return ids, nil
}

func (s *session) warn(msg string) { s.warnings = append(s.warnings, msg) }

// judgmentCount is how many judgment nodes the workspace holds.
func (s *session) judgmentCount() int { return s.meta.Files[workspace.RelJudgment].Lines }

func itoa(n int) string { return strconv.Itoa(n) }
