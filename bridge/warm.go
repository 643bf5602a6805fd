package bridge

import (
	"bytes"
	"sync"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// A Warm is what a long-lived server (internal/mcpserver) keeps of its
// workspace from one call to the next, so that a call need not decode
// what the previous one wrote: the engine and the state file's other
// members as decoded from the state file's exact bytes, and the pinned
// manifests it parsed last, by their exact bytes. Options.Warm hands it to every
// call's Bridge; a process that makes one call has none, and decodes as
// it always did.
//
// A call uses what the Warm keeps only when the state file its
// transaction read under its lock is byte for byte the one the Warm
// holds, and its manifest the one the Warm parsed: never on a file's time
// or size, since another process may commit between two calls and a
// store rebuilds its mirror from rows. A call that will commit takes the
// engine (the Warm holds none until that call's commit succeeds, so a
// failed call leaves nothing behind); any other call gets a clone. After
// a commit the Warm keeps the committed engine, settled
// (torusfield.Engine.Settle) so that it is what decoding the bytes just
// written gives, with a copy of those bytes. So every answer and every
// byte a call writes is what it would be without the Warm.
//
// A Warm is safe for concurrent use: of calls that run at once on one
// workspace (an MCP server runs one at a time), one takes the engine and
// the others decode.
type Warm struct {
	mu sync.Mutex
	// state is the state file the engine and members were decoded from
	// (a copy of its own); nil: the Warm holds no engine.
	state    []byte
	manifest *torusfield.Manifest // the engine's
	engine   *torusfield.Engine
	members  []rawMember // the state file's members besides the engine's, as decoded
	// parsed are the manifests parsed last, newest first (at most
	// maxParsed: the workspace's and its fleet peers'; a workspace's
	// changes only with a new pin).
	parsed []*torusfield.Manifest
	// hits and misses count the calls that used the engine, and those
	// that decoded it (tests, measurements).
	hits, misses int
}

// NewWarm returns an empty Warm.
func NewWarm() *Warm { return &Warm{} }

// Stats says how many calls used the kept engine (hits) and how many
// decoded the state file (misses).
func (w *Warm) Stats() (hits, misses int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.hits, w.misses
}

// A rawMember is a member of the state file that is not the engine's, as
// RestoreBytes hands it to its visitor.
type rawMember struct {
	key string
	raw []byte
}

// How a call uses the Warm's engine (session.restore).
type warmUse int

const (
	warmNone  warmUse = iota // decode, and leave the Warm as it is
	warmTake                 // a call that will commit: take the engine
	warmClone                // any other: a clone, and keep a clone of what it decodes
)

// manifests is the manifests' parser a workspace of the Warm's uses: the
// bytes of a manifest parsed lately give the same manifest, which no call
// changes (a torusfield.Manifest is read-only once parsed).
func (w *Warm) manifests() workspace.Manifests {
	m := manifests
	m.Parse = func(raw []byte) (workspace.Manifest, error) {
		w.mu.Lock()
		for i, p := range w.parsed {
			if bytes.Equal(raw, p.Bytes()) {
				copy(w.parsed[1:i+1], w.parsed[:i])
				w.parsed[0] = p
				w.mu.Unlock()
				return p, nil
			}
		}
		w.mu.Unlock()
		p, err := torusfield.ParseManifest(bytes.Clone(raw))
		if err != nil {
			return nil, err
		}
		w.mu.Lock()
		w.parsed = append([]*torusfield.Manifest{p}, w.parsed[:min(len(w.parsed), maxParsed-1)]...)
		w.mu.Unlock()
		return p, nil
	}
	return m
}

// maxParsed is how many manifests a Warm keeps parsed.
const maxParsed = 4

// engineFor returns the engine and members decoded from state with
// manifest m, when the Warm holds them: taken for warmTake, cloned for
// warmClone.
func (w *Warm) engineFor(state []byte, m *torusfield.Manifest, use warmUse) (*torusfield.Engine, []rawMember, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.engine == nil || w.manifest != m || !bytes.Equal(state, w.state) {
		w.misses++
		return nil, nil, false
	}
	w.hits++
	e, members := w.engine, w.members
	if use == warmTake {
		w.drop()
		return e, members, true
	}
	return e.Clone(), members, true
}

// keep makes the Warm hold e, decoded from state (a buffer it may keep)
// with manifest m, and the state's other members.
func (w *Warm) keep(state []byte, m *torusfield.Manifest, e *torusfield.Engine, members []rawMember) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if e == nil {
		w.drop()
		return
	}
	w.state, w.manifest, w.engine, w.members = state, m, e, members
}

func (w *Warm) drop() { w.state, w.manifest, w.engine, w.members = nil, nil, nil, nil }

// keepCommitted makes the Warm hold the engine of a session whose commit
// wrote state (the state file, in the workspace's buffer: copied), whose
// members after the engine's end at the offsets ends (each member is
// `,"key":value` before the closing brace).
//
// A decode hands its visitor each member as the file holds it when its
// fast path reads the file, and in pyjson's compact form when the slow
// path does (torusfield.Engine.RestoreBytes); a member kept undecoded is
// written back as handed over. The members as written are what a decode
// hands over when the two agree (each is in compact form: the goals, for
// one, are not), or when the fast path reads the file: a state AppendState
// wrote is in the shape it reads, but for a string with an escape among
// the engine's members, a number that is not finite (NaN, Infinity: the
// slow path's) and more than 16 members besides the engine's. Otherwise
// the Warm decodes the state as the next call would have: it costs that
// call's decode, no more. (The tests check every kept engine and member
// against a decode.)
func (w *Warm) keepCommitted(s *session, state []byte, ends []int) {
	state = bytes.Clone(state)
	members := make([]rawMember, 0, len(ends))
	for i := 1; i < len(ends); i++ {
		key, raw, ok := splitMember(state[ends[i-1]-1 : ends[i]-1])
		if !ok {
			w.keepDecoded(s, state)
			return
		}
		members = append(members, rawMember{key, raw})
	}
	engine := state[:ends[0]]
	fast := bytes.IndexByte(engine, '\\') < 0 && !bytes.Contains(engine, []byte("NaN")) &&
		!bytes.Contains(engine, []byte("Infinity")) && len(members)+1 <= 16 // and "ucs"
	if !fast && !compactMembers(members) {
		w.keepDecoded(s, state)
		return
	}
	s.engine.Settle()
	w.keep(state, s.manifest, s.engine, members)
}

// keepDecoded makes the Warm hold the engine and members decoded from
// state (a copy of its own), as the next call would decode them.
func (w *Warm) keepDecoded(s *session, state []byte) {
	e := torusfield.New(s.manifest, torusfield.Options{})
	var members []rawMember
	err := e.RestoreBytes(state, func(key string, raw []byte) error {
		members = append(members, rawMember{key, raw})
		return nil
	})
	if err != nil {
		e = nil // the next call says what is wrong with it
	}
	w.keep(state, s.manifest, e, members)
}

// splitMember reads `,"key":value` (keys are the bridge's own: no
// escapes).
func splitMember(chunk []byte) (string, []byte, bool) {
	if len(chunk) < 2 || chunk[0] != ',' || chunk[1] != '"' {
		return "", nil, false
	}
	i := bytes.Index(chunk[2:], []byte(`":`))
	if i < 0 || bytes.IndexByte(chunk[2:2+i], '\\') >= 0 {
		return "", nil, false
	}
	return string(chunk[2 : 2+i]), chunk[2+i+2:], true
}

// compactMembers reports whether each member's bytes are the compact form
// pyjson writes of them.
func compactMembers(members []rawMember) bool {
	var buf []byte
	for _, m := range members {
		v, err := pyjson.Parse(m.raw)
		if err != nil {
			return false
		}
		if buf = pyjson.AppendCompact(buf[:0], v); !bytes.Equal(buf, m.raw) {
			return false
		}
	}
	return true
}
