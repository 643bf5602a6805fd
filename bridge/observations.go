package bridge

import (
	"time"

	"github.com/unified-cognitive-substrate/ucs/belief"
	"github.com/unified-cognitive-substrate/ucs/internal/bookstore"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
)

// The observation book (package belief) in a workspace of model v4 and
// later: what the agent believes, governed. This file adapts the session
// to it; where the book is kept and how the transaction writes it are
// package bookstore's.

// book returns the workspace's observations, reading them on first use.
func (s *session) book() (*belief.Book, error) {
	return s.state.observations.get(s)
}

// prepareBook, before a commit, hands the transaction the book and its
// context index when the call changed either (bookstore.Stage).
func (s *session) prepareBook() {
	m := &s.state.observations
	if m.decoded && (len(m.val.Observations()) > 0 || m.raw != nil) {
		m.raw = bookstore.Stage(s.tx, m.val, m.raw, s.obsCtx.Index, s.obsCtx.Built, s.analyzer())
	}
}

// Agent is the agent the call acts for: the session is the book's
// belief.Witness.
func (s *session) Agent() string { return s.agentID }

// Now is the call's time (UCS_NOW or the clock, read once per call).
func (s *session) Now() time.Time { return s.now }

// believe makes the reflection r, made of the record raw at at, evidence
// for the observation it speaks to (belief.Book.Believe).
func (s *session) believe(r belief.Reflection, raw pyjson.Value, at time.Time) (pyjson.Value, error) {
	b, err := s.book()
	if err != nil {
		return pyjson.Value{}, err
	}
	o, ch, err := b.Believe(s, r, raw, at, s.analyzer())
	if err != nil {
		return pyjson.Value{}, belief.Refusal(err, "")
	}
	return belief.ChangeValue(o, ch), nil
}

// attributeOutcome makes an action's outcome evidence of a kind
// (belief.OutcomeKind, or FromRating) by by ("": the agent) on the
// observations the advice it followed put in context that are about that
// action's capability (belief.Book.Attribute). It returns the answer's
// member (nothing when none applies).
func (s *session) attributeOutcome(ids []string, action string, y, confidence float64, kind, by string, seq int64) (pyjson.Value, bool, error) {
	b, err := s.book()
	if err != nil {
		return pyjson.Value{}, false, err
	}
	v, ok, err := b.Attribute(s, ids, action, y, confidence, kind, by, seq)
	if err != nil {
		return pyjson.Value{}, false, belief.Refusal(err, "")
	}
	return v, ok, nil
}

// observeEntries makes the methodology and dead ends a workspace already
// holds into observations (belief.Book.ObserveEntries: a workspace moving
// to v4, migrate --model v4). It returns how many entries it read.
func (s *session) observeEntries() (int, error) {
	b, err := s.book()
	if err != nil {
		return 0, err
	}
	meth, err := s.list(workspace.RelMethodology)
	if err != nil {
		return 0, err
	}
	dead, err := s.list(workspace.RelDeadEnds)
	if err != nil {
		return 0, err
	}
	n, err := b.ObserveEntries(s, meth, dead, s.analyzer())
	if err != nil {
		return n, belief.Refusal(err, "")
	}
	return n, nil
}
