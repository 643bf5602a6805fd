package bridge

import (
	"errors"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/belief"
	"github.com/unified-cognitive-substrate/ucs/goal"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
	"github.com/unified-cognitive-substrate/ucs/learn"
)

// Observations (issue 18): what the agent currently believes, governed
// (package belief). In a workspace of model v4 every reflection
// that states something (post_task, dead_end, annotation, experiment)
// speaks to one observation, under a key derived by code (or named:
// kind, subject, slot): a reflection close to the believed claim under its
// key (recall.NearDuplicate) becomes supporting evidence on it, a
// different claim supersedes it (the old one is kept, linked, with the
// new evidence as contradicting it), and so does a reflection that names
// the observation it contradicts (word overlap cannot see a negation, so
// an agent that changes its mind says so).
// confirm, contradict and retire act on an observation by id; an
// operator (--by operator) weighs three times as much.
//
// The book is its own file (workspace.RelObservations), which the state
// file's "observations" member names by its SHA-256 ({"sha256", "count"}):
// a call that does not touch the observations neither reads nor writes
// it, so a report stays as cheap however much the agent believes. A call
// that changes the book writes the new file before the state that names it
// is committed, keeping the previous one as .prev: a call cut short leaves
// the state naming the .prev, which is read then. The state's hash covers
// the book's, so verify proves the book too.

const observationsMember = "observations"

// book returns the workspace's observations, reading them on first use.
func (s *session) book() (*belief.Book, error) {
	return s.state.observations.get(s)
}

// bookRef is the state's member: which book file, by hash.
func bookRef(raw []byte) (sum string, count int64) {
	return gjson.GetBytes(raw, "sha256").Str, gjson.GetBytes(raw, "count").Int()
}

// readBook reads the book the state's member names: the file, or its
// .prev when a call was cut short after writing a new one.
func readBook(read func(string) ([]byte, error), member []byte) ([]byte, error) {
	want, _ := bookRef(member)
	return workspace.ReadSideFile(read, workspace.RelObservations, want)
}

// prepareBook, before a commit, hands the book's file to the transaction
// when the call changed the book (the commit writes it, keeping the
// previous one as .prev: workspace.Tx.SetSideFile), and sets the state's
// member to name it.
func (s *session) prepareBook() error {
	if !s.state.observations.decoded || len(s.state.observations.val.Observations()) == 0 && s.state.observations.raw == nil {
		return nil
	}
	data := s.state.observations.val.AppendJSON(nil)
	sum := sha256hex(data)
	old, _ := bookRef(s.state.observations.raw)
	if old != sum {
		s.tx.SetSideFile(workspace.RelObservations, data, old)
	}
	changed := old != sum
	s.state.observations.raw = pyjson.AppendCompact(nil, pyjson.Obj(pyjson.KV("sha256", sum), pyjson.KV("count", len(s.state.observations.val.Observations()))))
	if changed || s.obsCtxDirty {
		return s.writeContextIndex(sum, changed)
	}
	return nil
}

// checkBook is check's judgment of the state's observations member: the
// book it names is there and decodes.
func checkBook(read func(string) ([]byte, error), member []byte) error {
	data, err := readBook(read, member)
	if err != nil {
		return err
	}
	if _, err := belief.DecodeBook(data); err != nil {
		return err
	}
	return nil
}

// Agent is the agent the call acts for: the session is the book's
// belief.Witness.
func (s *session) Agent() string { return s.agentID }

// Now is the call's time (UCS_NOW or the clock, read once per call).
func (s *session) Now() time.Time { return s.now }

// evidence is a piece of evidence given by this call (belief.NewEvidence).
func (s *session) evidence(source, kind string, stance belief.Stance, by, note string) belief.Evidence {
	return belief.NewEvidence(s, source, kind, stance, by, note)
}

// observeReflection makes a reflection evidence for the observation it
// speaks to (belief.Book.ObserveReflection), and returns the answer's
// "observation" member.
func (s *session) observeReflection(in reflectInput, raw pyjson.Value, at time.Time) (pyjson.Value, error) {
	b, err := s.book()
	if err != nil {
		return pyjson.Value{}, err
	}
	r := belief.Reflection{Type: in.Type, Text: in.Text, Topic: in.Topic, WhyClosed: in.WhyClosed,
		GeneralizedPattern: in.GeneralizedPattern, ArtifactID: in.ArtifactID,
		Capabilities: in.Capabilities, Keywords: in.Keywords,
		Kind: strField(raw, "kind"), Subject: strField(raw, "subject"), Slot: strField(raw, "slot"),
		Contradicts: strField(raw, "contradicts")}
	source := belief.ContentID("reflection", pyjson.Canonical(withoutMember(raw, "request_id")))
	ev := s.evidence(source, belief.FromReflection, belief.Support, "", "")
	ev.At = at
	o, ch, err := b.ObserveReflection(r, ev, at, s.analyzer())
	if err != nil {
		return pyjson.Value{}, actError(err)
	}
	return belief.ChangeValue(o, ch), nil
}

// actError is beliefError for a refusal that may name its observation
// (a belief.ActError).
func actError(err error) error {
	var ae *belief.ActError
	if errors.As(err, &ae) {
		return beliefError(err, ae.ID)
	}
	return beliefError(err, "")
}

// beliefError turns the book's refusals into bad input.
func beliefError(err error, id string) error {
	switch {
	case id != "" && strings.Contains(err.Error(), belief.ErrNotFound.Error()):
		return badInput("unknown_observation", "list them with: ucs observations", "there is no observation %s", quote(id))
	case strings.Contains(err.Error(), belief.ErrNotCurrent.Error()):
		return badInput("invalid_state", "a superseded or invalidated observation is final; act on the one that replaced it", "%v", err)
	}
	return badInput("invalid_value", "see ucs observations", "%v", err)
}

// observationReview is synthesize's view of the observations
// (belief.Review).
func (s *session) observationReview(since string) (pyjson.Value, error) {
	b, err := s.book()
	if err != nil {
		return pyjson.Value{}, err
	}
	return belief.Review(b, since, s.now), nil
}

// observationContext is consult's context of observations
// (belief.RankContext): the agent's own believed observations and, with a
// fleet, its peers' (weighing fleetWeight), ranked for the context.
func (s *session) observationContext(context string) (pyjson.Value, error) {
	ci, err := s.contextIndex()
	if err != nil {
		return pyjson.Value{}, err
	}
	var goalTerms []string
	if gb, err := s.goals(); err == nil {
		for _, g := range gb.Open {
			if g.State == goal.Active {
				goalTerms = append(goalTerms, s.analyzer().Terms(g.Content)...)
			}
		}
	}
	own := ""
	if len(s.peers) > 0 {
		own = s.agentID
	}
	sources := []belief.ContextSource{{Index: ci, Agent: own, Weight: 1}}
	for _, p := range s.peers {
		if pci := s.peerContextIndex(p); pci != nil {
			sources = append(sources, belief.ContextSource{Index: pci, Agent: p.name, Weight: fleetWeight})
		}
	}
	return belief.RankContext(context, goalTerms, s.now, sources), nil
}

// peerContextIndex is a fleet peer's believed observations, indexed: its
// derived files when they match its book, else built from the book; nil
// when it keeps none or they cannot be read (a peer is left out, never an
// error of this workspace's).
func (s *session) peerContextIndex(p peer) *belief.ContextIndex {
	raw, err := p.ws.ReadFile(relState)
	if err != nil {
		return nil
	}
	member := gjson.GetBytes(raw, "observations")
	if !member.Exists() {
		return nil
	}
	sum, _ := bookRef([]byte(member.Raw))
	if ci := s.loadContextIndexOf(p.ws, sum); ci != nil {
		return ci
	}
	data, err := readBook(p.ws.ReadFile, []byte(member.Raw))
	if err != nil {
		return nil
	}
	b, err := belief.DecodeBook(data)
	if err != nil {
		return nil
	}
	return belief.BuildContextIndex(b, s.analyzer())
}

// rememberContext keeps with the consult's advisory the observations it
// put in its context (its own: a peer's are not its evidence to weigh).
func (s *session) rememberContext(advisoryID string, obs pyjson.Value) {
	advs := s.advisories()
	if advisoryID == "" || len(advs) == 0 {
		return
	}
	adv := &advs[len(advs)-1]
	if adv.ID != advisoryID {
		return
	}
	hits, _ := obs.Get("hits")
	for _, h := range hits.Items() {
		if a := strField(h, "agent"); a == "" || a == s.agentID {
			adv.Observations = append(adv.Observations, strField(h, "id"))
		}
	}
}

// attributeOutcome makes an action's outcome evidence on the observations
// the advice it followed put in context that are about that action's
// capability (belief.Book.Attribute): a report's, or an observed
// command's. It returns the answer's member (nothing when none applies).
func (s *session) attributeOutcome(ids []string, action string, y, confidence float64, observed bool, seq int64) (pyjson.Value, bool, error) {
	kind := belief.FromReport
	if observed {
		kind = belief.FromExec
	}
	return s.attributeOutcomeBy(ids, action, y, confidence, kind, "", seq)
}

// attributeOutcomeBy is attributeOutcome for evidence of a given kind and
// author (a rating: FromRating, by whoever rated).
func (s *session) attributeOutcomeBy(ids []string, action string, y, confidence float64, kind, by string, seq int64) (pyjson.Value, bool, error) {
	b, err := s.book()
	if err != nil {
		return pyjson.Value{}, false, err
	}
	v, ok, err := b.Attribute(s, ids, action, y, confidence, kind, by, seq)
	if err != nil {
		return pyjson.Value{}, false, actError(err)
	}
	return v, ok, nil
}

// aboutCapability is rate's name for belief.AboutCapability.
var aboutCapability = belief.AboutCapability

// observeEntries makes the methodology and dead ends a workspace already
// holds into observations, each entry the evidence of its claim, dated by
// the entry (a workspace moving to v4: migrate --model v4). It returns how
// many entries it read.
func (s *session) observeEntries() (int, error) {
	n := 0
	for _, f := range []struct {
		rel, typ string
	}{{relMethodology, "post_task"}, {relDeadEnds, "dead_end"}} {
		entries, err := s.list(f.rel)
		if err != nil {
			return n, err
		}
		for _, e := range entries {
			in := reflectInput{Type: f.typ, Text: knowledge.Str(e, "text"), Capabilities: knowledge.Strings(e, "capabilities"),
				Keywords: knowledge.Strings(e, "keywords"), Topic: knowledge.Str(e, "topic"),
				WhyClosed: knowledge.Str(e, "why_closed"), ReopenConditions: knowledge.Str(e, "reopen_conditions")}
			if in.Text == "" && f.typ == "post_task" {
				in.Text = knowledge.Str(e, "summary")
			}
			if strings.TrimSpace(in.Text) == "" && in.Topic == "" {
				continue
			}
			at := s.now
			if d, err := time.Parse("2006-01-02", knowledge.Str(e, "date")); err == nil && d.Before(s.now) {
				at = d
			}
			if _, err := s.observeReflection(in, e, at); err != nil {
				return n, err
			}
			n++
		}
	}
	return n, nil
}

// The book's context index (belief.ContextIndex) is kept beside it in two
// files, each naming the book's hash, so a consult reads a small binary
// index and a summary file instead of decoding the book; stale or missing
// files are rebuilt from the book, and written by the call's commit.
// contextIndex is the session's name for it.
type contextIndex = belief.ContextIndex

const (
	relObsIndex   = workspace.RelObservations + ".idx"
	relObsSummary = workspace.RelObservations + ".sum"
)

// contextIndex is the call's context index: read once, from the derived
// files when they match the book and the call has not decoded it, else
// built from the book (and then written by the commit).
func (s *session) contextIndex() (*belief.ContextIndex, error) {
	if s.obsCtx != nil {
		return s.obsCtx, nil
	}
	sum, _ := bookRef(s.state.observations.raw)
	if !s.state.observations.decoded && sum != "" {
		if ci := s.loadContextIndexOf(s.ws, sum); ci != nil {
			s.obsCtx = ci
			return ci, nil
		}
	}
	b, err := s.book()
	if err != nil {
		return nil, err
	}
	s.obsCtx = belief.BuildContextIndex(b, s.analyzer())
	s.obsCtxDirty = true
	return s.obsCtx, nil
}

// loadContextIndexOf reads the derived files of the book of that hash in
// the workspace ws (the agent's or a fleet peer's), or returns nil when
// they are missing, stale or damaged.
func (s *session) loadContextIndexOf(ws *workspace.Workspace, book string) *belief.ContextIndex {
	idx, err := ws.ReadFile(relObsIndex)
	if err != nil {
		return nil
	}
	sum, err := ws.ReadFile(relObsSummary)
	if err != nil {
		return nil
	}
	return belief.DecodeContextIndex(idx, sum, book, s.analyzer())
}

// writeContextIndex hands the transaction the derived files for the book
// of that hash (written unsynced by the commit: they are rebuilt whenever
// they do not match), from the call's index unless the call changed the
// book after building it.
func (s *session) writeContextIndex(book string, changed bool) error {
	ci := s.obsCtx
	if ci == nil || changed {
		b, err := s.book()
		if err != nil {
			return err
		}
		ci = belief.BuildContextIndex(b, s.analyzer())
	}
	idx, sum := ci.AppendFiles(book)
	s.tx.SetDerived(relObsIndex, idx)
	s.tx.SetDerived(relObsSummary, sum)
	return nil
}

// advisories are the consults the learned state remembers, oldest first.
func (s *session) advisories() []learn.Advisory {
	switch {
	case s.stepsSt != nil:
		return s.stepsSt.Advisories
	case s.learnt != nil:
		return s.learnt.Advisories
	}
	return nil
}
