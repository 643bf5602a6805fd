package torusfield

import (
	"cmp"
	"slices"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// Artifact kinds the harvester promotes.
const (
	KindWormhole  = "wormhole"  // a validated shortcut: an edge with high net reward
	KindAttractor = "attractor" // a routing basin: a node visited often
	KindResonance = "resonance" // a cadence: an edge traversed at a regular period
)

// An Artifact is a durable structure promoted from the trace. Its ID hashes
// only its kind and location, so a pattern keeps its ID as evidence grows.
type Artifact struct {
	ID       string
	Kind     string
	Payload  pyjson.Value // object; its keys depend on the kind
	Score    float64
	CreatedT int
	Meta     []pyjson.Member // "last_detected_t" and whatever a loaded file held
}

// EdgeIndex returns the payload's edge_index (wormholes and resonances).
func (a *Artifact) EdgeIndex() (int, bool) {
	v, ok := a.Payload.Get("edge_index")
	if !ok {
		return 0, false
	}
	i, ok := v.Int()
	return int(i), ok
}

// Node returns the payload's node (attractors).
func (a *Artifact) Node() (string, bool) {
	v, ok := a.Payload.Get("node")
	if !ok || v.Kind() != pyjson.String {
		return "", false
	}
	return v.Str(), true
}

// LastDetectedT is the θ-step at which a φ-cycle last detected the
// artifact, or its creation step.
func (a *Artifact) LastDetectedT() int {
	for _, m := range a.Meta {
		if m.Key == "last_detected_t" {
			if i, ok := m.Value.Int(); ok {
				return int(i)
			}
		}
	}
	return a.CreatedT
}

func (a *Artifact) setLastDetectedT(t int) {
	v := pyjson.IntValue(int64(t))
	for i := range a.Meta {
		if a.Meta[i].Key == "last_detected_t" {
			a.Meta[i].Value = v
			return
		}
	}
	a.Meta = append(a.Meta, pyjson.Member{Key: "last_detected_t", Value: v})
}

// An ArtifactStore holds artifacts in promotion order, the order in which
// the reference's dict iterates them.
type ArtifactStore struct {
	list []*Artifact
	byID map[string]*Artifact
}

func newArtifactStore() *ArtifactStore {
	return &ArtifactStore{byID: map[string]*Artifact{}}
}

// Len returns the number of artifacts.
func (s *ArtifactStore) Len() int { return len(s.list) }

// All returns the artifacts in promotion order.
func (s *ArtifactStore) All() []*Artifact { return s.list }

// Get returns an artifact by ID.
func (s *ArtifactStore) Get(id string) (*Artifact, bool) {
	a, ok := s.byID[id]
	return a, ok
}

// Promote adds a new artifact and reports true, or updates the payload and
// score of the artifact with the same ID and stamps it as detected at the
// candidate's creation step.
func (s *ArtifactStore) Promote(a *Artifact) bool {
	if prev, ok := s.byID[a.ID]; ok {
		prev.Payload = a.Payload
		prev.Score = a.Score
		prev.setLastDetectedT(a.CreatedT)
		return false
	}
	s.byID[a.ID] = a
	s.list = append(s.list, a)
	return true
}

// ByKind returns the artifacts of one kind in promotion order.
func (s *ArtifactStore) ByKind(kind string) []*Artifact {
	var out []*Artifact
	for _, a := range s.list {
		if a.Kind == kind {
			out = append(out, a)
		}
	}
	return out
}

// CountKind returns how many artifacts are of one kind.
func (s *ArtifactStore) CountKind(kind string) int {
	n := 0
	for _, a := range s.list {
		if a.Kind == kind {
			n++
		}
	}
	return n
}

// Top returns up to n artifacts by descending score; ties keep promotion order.
func (s *ArtifactStore) Top(n int) []*Artifact {
	out := slices.Clone(s.list)
	slices.SortStableFunc(out, func(a, b *Artifact) int { return cmp.Compare(b.Score, a.Score) })
	return out[:min(n, len(out))]
}

// StaleAfter is the default number of θ-steps after which an artifact that
// was not detected again counts as stale (about ten φ-cycles of reports).
const StaleAfter = 500

// Stale returns the artifacts not detected since now-after, in promotion order.
func (s *ArtifactStore) Stale(now, after int) []*Artifact {
	var out []*Artifact
	for _, a := range s.list {
		if a.LastDetectedT() < now-after {
			out = append(out, a)
		}
	}
	return out
}

// Prune removes the stale artifacts and returns their IDs.
func (s *ArtifactStore) Prune(now, after int) []string {
	var ids []string
	for _, a := range s.Stale(now, after) {
		ids = append(ids, a.ID)
		delete(s.byID, a.ID)
	}
	s.list = slices.DeleteFunc(s.list, func(a *Artifact) bool { _, ok := s.byID[a.ID]; return !ok })
	return ids
}

// sorted returns the artifacts in the state file's order: descending score,
// then ascending ID.
func (s *ArtifactStore) sorted() []*Artifact {
	out := slices.Clone(s.list)
	slices.SortStableFunc(out, func(a, b *Artifact) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out
}
