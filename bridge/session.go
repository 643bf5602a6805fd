package bridge

import (
	"crypto/sha256"
	"encoding/hex"
	"time"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// A session is one call's view of the workspace: what it loaded, lazily,
// and what it will change. Operations read and change the session; only
// commit touches the disk.
type session struct {
	l        layout
	now      time.Time
	agentID  string
	manifest *torusfield.Manifest
	engine   *torusfield.Engine
	model    *Model // the workspace's learning model (meta.Model)
	// learnRaw is a v3 workspace's learned state as read (the state
	// file's "learn" member), and v3 its decoded form once a call needs it.
	learnRaw []byte
	v3       *v3State
	meta     meta
	// stateHash is the SHA-256 of the state file as read: the next event's
	// state_before.
	stateHash string
	// journal is the journal's end as the call read it under its lock:
	// the commit's parent event, unless only a big event's end was read.
	journal journalTail
	// ref holds a reference-layout workspace's ucs_index.json; nil in the
	// ucs layout.
	ref *refWorkspace

	lists   map[string][]pyjson.Value // data files as read
	added   map[string][]pyjson.Value // entries this call appends
	pending []pendingAppend
	// storedState is the engine's state in compact JSON, when the call
	// has it without encoding (an init from the stored warm-up) and has
	// not changed the engine since: the commit then saves these bytes.
	storedState []byte
	// dirsSynced reports the sync of the directories a call changed by
	// creating directories before its commit (an init's), started early
	// so that it overlaps the call's work; the commit waits for it before
	// its rename. Nil when there is none.
	dirsSynced <-chan error
	warnings   []string
	// replaying is set in verify's scratch workspace (no backups).
	replaying bool
	// backupRel is where the last migration kept the previous state.
	backupRel string
	// snapshotEvery is how many events apart snapshots are kept (0: never).
	snapshotEvery int
	tm            *timings
	// exclusive is set when the call holds the workspace exclusively (it
	// may rebuild a stale index).
	exclusive    bool
	index        indexState
	rebuildAfter bool  // the commit left the index stale: rebuild it
	indexFailed  error // why a rebuild failed
	noIndex      bool  // tests: search the data files as if there were no index
	postings     map[int][]capPosting
}

type pendingAppend struct {
	rel  string
	data []byte
}

// openSession loads an initialized workspace from the state file's bytes:
// its meta (or a reference workspace's index) and the engine.
func openSession(l layout, ls loadedState, now time.Time, agentID string) (*session, error) {
	data := ls.data
	s := newSession(l, now, agentID)
	s.journal = ls.journal
	m, ours, err := metaOf(data)
	if err != nil {
		return nil, corrupt(err, relState)
	}
	if ours {
		s.meta = m
		raw, err := readFile(l.path(relPinned))
		if err != nil {
			return nil, corrupt(err, relPinned)
		}
		if s.manifest, err = torusfield.ParseManifest(raw); err != nil {
			return nil, corrupt(err, relPinned)
		}
	} else {
		ref, err := openReference(l)
		if err != nil {
			return nil, err
		}
		s.ref = ref
		s.meta = s.ref.meta
		s.manifest = s.ref.manifest
	}
	if s.meta.AgentID == "" {
		s.meta.AgentID = agentID
	}
	s.model = lookupModel(s.meta.Model)
	// The state's hash is the last event's state_after (check and verify
	// prove the file still matches it); only a workspace without a journal
	// needs hashing.
	if after := strField(ls.journal.event, "state_after"); ls.journal.seq == s.meta.Seq && after != "" {
		s.stateHash = after
	} else {
		sum := sha256.Sum256(data)
		s.stateHash = hex.EncodeToString(sum[:])
	}
	s.engine = torusfield.New(s.manifest, torusfield.Options{})
	var visit func(key string, raw []byte) error
	if s.meta.Model == ModelV3 {
		visit = func(key string, raw []byte) error {
			if key == learnMember {
				s.learnRaw = raw
			}
			return nil
		}
	}
	if err := s.engine.RestoreBytes(data, visit); err != nil {
		return nil, corrupt(err, relState)
	}
	return s, nil
}

func newSession(l layout, now time.Time, agentID string) *session {
	return &session{l: l, now: now, agentID: agentID,
		lists: map[string][]pyjson.Value{}, added: map[string][]pyjson.Value{}}
}

// list returns the entries of a data file, loading it on first use, with
// what this call added to it.
func (s *session) list(rel string) ([]pyjson.Value, error) {
	if v, ok := s.lists[rel]; ok {
		return append(v[:len(v):len(v)], s.added[rel]...), nil
	}
	var v []pyjson.Value
	var err error
	if s.ref != nil && rel != relActionLog {
		v = s.ref.list(rel)
	} else if v, err = readJSONL(s.l, rel); err != nil {
		return nil, err
	}
	s.lists[rel] = v
	return append(v[:len(v):len(v)], s.added[rel]...), nil
}

// window returns at most the last n entries of a data file, with what
// this call added. It reads only the file's tail.
func (s *session) window(rel string, n int) ([]pyjson.Value, error) {
	if s.decodedFile(rel) || s.ref == nil && n >= s.meta.Files[rel].Lines+len(s.added[rel]) {
		all, err := s.list(rel)
		if err != nil {
			return nil, err
		}
		return all[max(0, len(all)-n):], nil
	}
	added := s.added[rel]
	var out []pyjson.Value
	if need := n - len(added); need > 0 {
		lines, err := readTail(s.l, rel, need, 0)
		if err != nil {
			return nil, err
		}
		if out, err = decodeTail(s.l, rel, lines); err != nil {
			return nil, err
		}
	}
	out = append(out, added...)
	return out[max(0, len(out)-n):], nil
}

// add appends an entry to a data file: in the session's view now, on disk
// at commit. It does not read the file: appending costs the same however
// long the file is.
func (s *session) add(rel string, v pyjson.Value) error {
	s.added[rel] = append(s.added[rel], v)
	s.pending = append(s.pending, pendingAppend{rel, append(pyjson.AppendDumps(nil, v), '\n')})
	return nil
}

// appendText queues text for a Markdown file, as the reference appends it
// (a blank line, the text, a newline), made safe for the file's structure
// by knowledge.MarkdownBlock.
func (s *session) appendText(rel, text string) {
	s.pending = append(s.pending, pendingAppend{rel, []byte("\n" + knowledge.MarkdownBlock(text) + "\n")})
}

// annotations returns the annotation of each annotated artifact. The last
// line for an artifact wins.
func (s *session) annotations() (map[string]pyjson.Value, error) {
	lines, err := s.list(relAnnotations)
	if err != nil {
		return nil, err
	}
	out := make(map[string]pyjson.Value, len(lines))
	for _, l := range lines {
		id := knowledge.Str(l, "artifact_id")
		if ann, ok := l.Get("annotation"); ok && id != "" {
			out[id] = ann
		}
	}
	return out, nil
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

// entryID is the reference's id for a knowledge entry: the first 12 hex
// digits of SHA-256 over its stable JSON.
func entryID(e pyjson.Value) string {
	sum := sha256.Sum256(pyjson.Canonical(e))
	return hex.EncodeToString(sum[:6])
}

func (s *session) warn(msg string) { s.warnings = append(s.warnings, msg) }

// judgmentCount is how many judgment nodes the workspace holds.
func (s *session) judgmentCount() int {
	if s.ref != nil {
		return len(s.ref.list(relJudgment))
	}
	return s.meta.Files[relJudgment].Lines
}
