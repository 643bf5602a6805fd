package belief

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// An Observation is a claim the agent believes, or believed, under a key,
// with the evidence for and against it. Its claim never changes once
// written: a new claim is a new observation that supersedes it.
type Observation struct {
	ID            string // "obs:" and 16 hex digits, computed from its key, claim and creation (see Book)
	Key           Key
	Claim         string
	Status        Status
	Supersedes    string // the observation it replaced, "" for none
	SupersededBy  string // the observation that replaced it, "" while none did
	Retired       string // the Source of the evidence that retired it (Retire), "" otherwise
	Created       time.Time
	LastSupported time.Time  // the time of its latest supporting evidence
	Confidence    Confidence // as of the last change or Revalidate
	Evidence      []Evidence // in the order it arrived; only ever appended to
}

// A Change says what an operation did, for the caller's answer and
// journal.
type Change struct {
	ID            string // the observation the evidence went to (the new one after a supersession)
	Created       bool   // ID is a new observation
	Superseded    string // the observation a new claim replaced, "" for none
	Duplicate     bool   // the evidence was there already (same source and stance): nothing changed
	Before, After Status // ID's status before ("" when created) and after
}

// A Book holds an agent's observations, in the order they were created.
// Operations check their input and return what they changed; an error
// leaves the book as it was. The observations a book returns are its own:
// read them, never modify them. The zero Book is empty and ready to use.
//
// An observation's id is ContentID("obs", …) of the canonical JSON of its
// kind, subject, slot, claim, creation time and seq, the number of
// observations of the same key created before it: the same operations
// give the same ids, and Check recomputes them, so a claim rewritten in
// place is found.
type Book struct {
	obs     []*Observation
	byID    map[string]*Observation
	current map[Key]*Observation
}

// NewBook returns an empty book.
func NewBook() *Book { return &Book{} }

func (b *Book) init() {
	if b.byID == nil {
		b.byID, b.current = map[string]*Observation{}, map[Key]*Observation{}
	}
}

// Observations lists every observation, in the order they were created.
func (b *Book) Observations() []*Observation { return slices.Clone(b.obs) }

// Get returns the observation with an id, or nil.
func (b *Book) Get(id string) *Observation { return b.byID[id] }

// Active returns the observation believed under a key (active or stale),
// or nil. A superseded or invalidated observation is never returned.
func (b *Book) Active(key Key) *Observation { return b.current[key] }

// Observe records evidence for a claim under a key, and returns the
// observation it went to:
//
//   - when the key has a current observation of the same claim, the
//     evidence is added to it (support or context);
//   - when it has one of another claim, supporting evidence makes a new
//     observation that supersedes it (see Supersede);
//   - when it has none, supporting evidence creates one.
//
// The key must be canonical (CanonicalKey or DeriveKey). Evidence's stance
// defaults to support; a contradiction names what it contradicts, so it
// goes through Contradict.
func (b *Book) Observe(key Key, claim string, ev Evidence, now time.Time) (*Observation, Change, error) {
	b.init()
	claim = strings.TrimSpace(claim)
	if err := checkKey(key); err != nil {
		return nil, Change{}, err
	}
	if err := checkClaim(claim); err != nil {
		return nil, Change{}, err
	}
	if ev.Stance == "" {
		ev.Stance = Support
	}
	ev, err := ev.normalize(now)
	if err != nil {
		return nil, Change{}, err
	}
	cur := b.current[key]
	switch {
	case ev.Stance == Contradict:
		return nil, Change{}, fmt.Errorf("%w: a contradiction names the observation it contradicts (Contradict)", ErrInvalid)
	case cur != nil && cur.Claim == claim:
		return b.add(cur, ev, now)
	case ev.Stance == Context:
		return nil, Change{}, fmt.Errorf("%w: context evidence goes to a believed observation of the same claim; %s has none", ErrInvalid, key)
	case cur != nil:
		return b.supersede(cur, claim, ev, now)
	}
	o := b.create(key, claim, "", ev, now)
	return o, Change{ID: o.ID, Created: true, After: o.Status}, nil
}

// Confirm adds supporting evidence to a believed observation; an
// operator's (By Operator) weighs OperatorFactor times and marks the
// observation confirmed (Confidence.Operator). The source kind defaults to
// operator: a confirmation is a statement of whoever gives it.
func (b *Book) Confirm(id string, ev Evidence, now time.Time) (*Observation, Change, error) {
	return b.stance(id, Support, ev, now)
}

// Contradict adds contradicting evidence to a believed observation: an
// explicit contradiction, a reflection that names what it contradicts, or
// an outcome that failed when the observation's advice was followed. It is
// never guessed. The observation is invalidated when contradiction
// outweighs support (Confidence.Outweighed); the evidence is kept either
// way. The source kind defaults to operator.
func (b *Book) Contradict(id string, ev Evidence, now time.Time) (*Observation, Change, error) {
	return b.stance(id, Contradict, ev, now)
}

func (b *Book) stance(id string, s Stance, ev Evidence, now time.Time) (*Observation, Change, error) {
	o, err := b.believed(id)
	if err != nil {
		return nil, Change{}, err
	}
	if ev.Stance == "" {
		ev.Stance = s
	}
	if ev.Stance != s {
		return nil, Change{}, fmt.Errorf("%w: evidence of stance %q given as %s", ErrInvalid, ev.Stance, s)
	}
	if ev.SourceKind == "" {
		ev.SourceKind = FromOperator
	}
	if ev, err = ev.normalize(now); err != nil {
		return nil, Change{}, err
	}
	return b.add(o, ev, now)
}

// Retire invalidates a believed observation on someone's word (the
// operator's, as a rule), recorded as such: contradicting evidence from
// source kind operator, whose Source ("retire:…", the content id of the
// retirement) is the observation's Retired. Its evidence is kept, and it
// stays invalidated whatever evidence follows.
func (b *Book) Retire(id, by, note string, now time.Time) (*Observation, Change, error) {
	o, err := b.believed(id)
	if err != nil {
		return nil, Change{}, err
	}
	now = now.UTC()
	record := pyjson.Canonical(pyjson.Obj(
		pyjson.KV("at", now.Format(time.RFC3339Nano)),
		pyjson.KV("by", by),
		pyjson.KV("note", note),
		pyjson.KV("observation", id),
	))
	ev, err := Evidence{Source: ContentID("retire", record), SourceKind: FromOperator, Stance: Contradict, By: by, Note: note}.normalize(now)
	if err != nil {
		return nil, Change{}, err
	}
	before := o.Status
	o.Evidence = append(o.Evidence, ev)
	o.Retired, o.Status = ev.Source, Invalidated
	delete(b.current, o.Key)
	b.settle(o, now)
	return o, Change{ID: o.ID, Before: before, After: o.Status}, nil
}

// Supersede replaces a believed observation by a new claim under the same
// key, on supporting evidence (a material change). The new observation
// links to the old (Supersedes); the old is kept, linked to the new
// (SupersededBy), with the evidence added as contradicting it, and is
// never believed again. The same claim is no change: give it to Observe
// or Confirm.
func (b *Book) Supersede(oldID, claim string, ev Evidence, now time.Time) (*Observation, Change, error) {
	old, err := b.believed(oldID)
	if err != nil {
		return nil, Change{}, err
	}
	claim = strings.TrimSpace(claim)
	if err := checkClaim(claim); err != nil {
		return nil, Change{}, err
	}
	if claim == old.Claim {
		return nil, Change{}, fmt.Errorf("%w: %s already claims this: a supersession changes the claim", ErrInvalid, oldID)
	}
	if ev.Stance == "" {
		ev.Stance = Support
	}
	if ev.Stance != Support {
		return nil, Change{}, fmt.Errorf("%w: a new claim rests on supporting evidence, not %q", ErrInvalid, ev.Stance)
	}
	if ev, err = ev.normalize(now); err != nil {
		return nil, Change{}, err
	}
	return b.supersede(old, claim, ev, now)
}

func (b *Book) supersede(old *Observation, claim string, ev Evidence, now time.Time) (*Observation, Change, error) {
	delete(b.current, old.Key)
	o := b.create(old.Key, claim, old.ID, ev, now)
	against := ev
	against.Stance = Contradict
	if !has(old.Evidence, against) {
		old.Evidence = append(old.Evidence, against)
	}
	old.Status, old.SupersededBy = Superseded, o.ID
	b.settle(old, now)
	return o, Change{ID: o.ID, Created: true, Superseded: old.ID, After: o.Status}, nil
}

// Revalidate recomputes every believed observation's confidence and
// status as of now, and returns those due for revalidation (stale),
// grouped by kind, each group ordered as Due orders it.
func (b *Book) Revalidate(now time.Time) map[Kind][]*Observation {
	due := map[Kind][]*Observation{}
	for _, o := range b.obs {
		if o.Status.Current() {
			b.settle(o, now)
		}
	}
	for _, o := range b.Due(now) {
		due[o.Key.Kind] = append(due[o.Key.Kind], o)
	}
	return due
}

// Due lists the believed observations whose freshness is below StaleBelow
// at now, by kind (in the order of Kinds), then oldest due first, then by
// id. It changes nothing: Revalidate records their status.
func (b *Book) Due(now time.Time) []*Observation {
	var out []*Observation
	for _, o := range b.obs {
		if o.Status.Current() && Freshness(o, now) < StaleBelow {
			out = append(out, o)
		}
	}
	slices.SortStableFunc(out, func(x, y *Observation) int {
		return cmp.Or(
			cmp.Compare(slices.Index(Kinds, x.Key.Kind), slices.Index(Kinds, y.Key.Kind)),
			DueAt(x).Compare(DueAt(y)),
			strings.Compare(x.ID, y.ID),
		)
	})
	return out
}

// believed returns the observation of an id if it is believed now.
func (b *Book) believed(id string) (*Observation, error) {
	o := b.byID[id]
	switch {
	case o == nil:
		return nil, fmt.Errorf("%w: %q", ErrNotFound, id)
	case !o.Status.Current():
		return nil, fmt.Errorf("%w: %s is %s", ErrNotCurrent, id, o.Status)
	}
	return o, nil
}

// create adds a new observation of a claim under a key, on its first
// (supporting) evidence, and makes it the key's current one.
func (b *Book) create(key Key, claim, supersedes string, ev Evidence, now time.Time) *Observation {
	b.init()
	o := &Observation{
		Key: key, Claim: claim, Status: Active, Supersedes: supersedes,
		Created: now.UTC(), LastSupported: ev.At, Evidence: []Evidence{ev},
	}
	o.ID = observationID(o, b.seq(key, len(b.obs)))
	b.obs = append(b.obs, o)
	b.byID[o.ID], b.current[key] = o, o
	b.settle(o, now)
	return o
}

// seq is how many observations of a key the book's first n hold.
func (b *Book) seq(key Key, n int) int {
	s := 0
	for _, o := range b.obs[:n] {
		if o.Key == key {
			s++
		}
	}
	return s
}

func observationID(o *Observation, seq int) string {
	return ContentID("obs", pyjson.Canonical(pyjson.Obj(
		pyjson.KV("claim", o.Claim),
		pyjson.KV("created", o.Created.Format(time.RFC3339Nano)),
		pyjson.KV("kind", string(o.Key.Kind)),
		pyjson.KV("seq", seq),
		pyjson.KV("slot", o.Key.Slot),
		pyjson.KV("subject", o.Key.Subject),
	)))
}

// add appends evidence to a believed observation, unless it is there
// already.
func (b *Book) add(o *Observation, ev Evidence, now time.Time) (*Observation, Change, error) {
	c := Change{ID: o.ID, Before: o.Status}
	if has(o.Evidence, ev) {
		c.Duplicate, c.After = true, o.Status
		return o, c, nil
	}
	o.Evidence = append(o.Evidence, ev)
	if ev.Stance == Support && ev.At.After(o.LastSupported) {
		o.LastSupported = ev.At
	}
	b.settle(o, now)
	c.After = o.Status
	return o, c, nil
}

// settle recomputes an observation's confidence as of now and, while it is
// believed, its status: invalidated when contradiction outweighs support,
// stale when its freshness is below StaleBelow, else active.
func (b *Book) settle(o *Observation, now time.Time) {
	o.Confidence = ComputeConfidence(o.Evidence, now, o.Key.Kind)
	if !o.Status.Current() {
		return
	}
	switch {
	case o.Confidence.Outweighed():
		o.Status = Invalidated
		delete(b.current, o.Key)
	case Freshness(o, now) < StaleBelow:
		o.Status = Stale
	default:
		o.Status = Active
	}
}

func checkKey(k Key) error {
	switch {
	case !k.Kind.Valid():
		return fmt.Errorf("%w: kind %q is none of %s", ErrInvalid, k.Kind, joinKinds())
	case k != CanonicalKey(k.Kind, k.Subject, k.Slot):
		return fmt.Errorf("%w: key %s is not canonical (CanonicalKey gives %s)", ErrInvalid, k, CanonicalKey(k.Kind, k.Subject, k.Slot))
	}
	return nil
}

func checkClaim(claim string) error {
	if claim == "" || len(claim) > MaxText || !utf8.ValidString(claim) {
		return fmt.Errorf("%w: a claim is valid UTF-8 of 1 to %d bytes", ErrInvalid, MaxText)
	}
	return nil
}
