package belief

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Errors a caller may branch on with errors.Is.
var (
	ErrInvalid    = errors.New("belief: invalid input")                     // a bad key, claim or evidence
	ErrNotFound   = errors.New("belief: no such observation")               // an id the book does not hold
	ErrNotCurrent = errors.New("belief: observation is no longer believed") // superseded or invalidated
)

// An Evidence is a link from an observation to one raw record that bears
// on its claim. Evidence is only ever appended: what supported or
// contradicted a claim stays reachable after the claim is replaced.
type Evidence struct {
	// Source is the raw record's content id (ContentID): "reflection:3f2a…",
	// "report:ab12…", "exec:…", "rating:…". Never an observation's id.
	Source     string
	SourceKind string    // one of SourceKinds
	Stance     Stance    // support, contradict or context
	Weight     float64   // how much it counts, in (0, MaxWeight]; 0 when given means 1
	At         time.Time // when the record was made (UTC); zero when given means now
	By         string    // who gave it: an agent id, or Operator
	Note       string    // why, in the giver's words (optional)
}

// Limits of what evidence and claims may hold.
const (
	MaxWeight = 10     // the largest weight one piece of evidence may carry
	MaxText   = 4096   // bytes of a claim or a note
	maxSource = 256    // bytes of a source id or a giver's name
	idPrefix  = "obs:" // the prefix of every observation id, which no evidence may cite
)

// OperatorFactor is how many times an operator's evidence counts an
// agent's of the same weight: one confirmation (3) outweighs two ordinary
// contradictions (2).
const OperatorFactor = 3

// ContentID is the id of a raw record: its kind, ":" and the first 16 hex
// digits of the SHA-256 of its canonical JSON (pyjson.Canonical: sorted
// keys, no spaces). It depends only on the record's content, so the same
// record has the same id after an export and an import, on any machine,
// and evidence that cites it stays reachable.
// The kind "obs" is the observations' own: evidence citing it is refused.
func ContentID(kind string, canonicalJSON []byte) string {
	sum := sha256.Sum256(canonicalJSON)
	return kind + ":" + hex.EncodeToString(sum[:8])
}

// effective is what a piece of evidence weighs: its weight, times
// OperatorFactor when the operator gave it.
func (e Evidence) effective() float64 {
	if e.By == Operator {
		return e.Weight * OperatorFactor
	}
	return e.Weight
}

// normalize fills in what a caller may leave out (weight 1, time now, UTC)
// and checks the rest.
func (e Evidence) normalize(now time.Time) (Evidence, error) {
	if e.Weight == 0 {
		e.Weight = 1
	}
	if e.At.IsZero() {
		e.At = now
	}
	e.At = e.At.UTC()
	if err := e.check(); err != nil {
		return e, err
	}
	if e.At.After(now) {
		return e, fmt.Errorf("%w: evidence %s is dated %s, after now (%s)", ErrInvalid, e.Source, e.At.Format(time.RFC3339Nano), now.UTC().Format(time.RFC3339Nano))
	}
	return e, nil
}

// check is what every stored piece of evidence satisfies.
func (e Evidence) check() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: evidence %q: "+format, append([]any{ErrInvalid, e.Source}, args...)...)
	}
	switch {
	case strings.TrimSpace(e.Source) == "":
		return bad("no source: evidence points to a raw record")
	case strings.HasPrefix(e.Source, idPrefix):
		return bad("cites an observation: evidence points to raw records only")
	case len(e.Source) > maxSource || !utf8.ValidString(e.Source):
		return bad("source must be valid UTF-8 of at most %d bytes", maxSource)
	case !slices.Contains(SourceKinds, e.SourceKind):
		return bad("source kind %q is none of %s", e.SourceKind, strings.Join(SourceKinds, ", "))
	case !e.Stance.Valid():
		return bad("stance %q is none of support, contradict, context", e.Stance)
	case math.IsNaN(e.Weight) || e.Weight <= 0 || e.Weight > MaxWeight:
		return bad("weight %v is not in (0, %d]", e.Weight, MaxWeight)
	case e.At.IsZero():
		return bad("no time")
	case strings.TrimSpace(e.By) == "" || len(e.By) > maxSource || !utf8.ValidString(e.By):
		return bad("by must name who gave it (an agent id or %q), in at most %d bytes", Operator, maxSource)
	case len(e.Note) > MaxText || !utf8.ValidString(e.Note):
		return bad("note must be valid UTF-8 of at most %d bytes", MaxText)
	}
	return nil
}

// has reports whether ev holds evidence from the same source with the same
// stance: a repeat that changes nothing (a retried call).
func has(ev []Evidence, e Evidence) bool {
	return slices.ContainsFunc(ev, func(x Evidence) bool { return x.Source == e.Source && x.Stance == e.Stance })
}
