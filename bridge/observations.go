package bridge

import (
	"strings"
	"time"

	"github.com/unified-cognitive-substrate/ucs/belief"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/recall"
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
// The book is the state file's "observations" member (absent until the
// first observation), so every change is journaled and verify replays it.
// It grows with the distinct keys, not with the reflections, since a
// near-duplicate is evidence; a workspace with very many keys pays for
// them in every call's state write (issue 18's storage step moves the
// book into a data file of its own with a derived index).

const observationsMember = "observations"

// book returns the workspace's observations, decoding them on first use.
func (s *session) book() (*belief.Book, error) {
	if s.obsBook == nil {
		if s.obsRaw == nil {
			s.obsBook = belief.NewBook()
		} else {
			b, err := belief.DecodeBook(s.obsRaw)
			if err != nil {
				return nil, corrupt(err, relState)
			}
			s.obsBook = b
		}
	}
	return s.obsBook, nil
}

// evidence is a piece of evidence given by this call.
func (s *session) evidence(source, kind string, stance belief.Stance, by, note string) belief.Evidence {
	if by == "" {
		by = s.agentID
	}
	return belief.Evidence{Source: source, SourceKind: kind, Stance: stance, Weight: 1, At: s.now, By: by, Note: note}
}

// observeReflection makes a reflection evidence for the observation it
// speaks to, and returns the answer's "observation" member.
func (s *session) observeReflection(in reflectInput, raw pyjson.Value) (pyjson.Value, error) {
	b, err := s.book()
	if err != nil {
		return pyjson.Value{}, err
	}
	claim := in.Text
	if in.Type == "dead_end" && strings.TrimSpace(claim) == "" {
		claim = "Dead end: " + in.Topic + ". " + in.WhyClosed
	}
	if in.Type == "annotation" && in.GeneralizedPattern != "" {
		claim = in.GeneralizedPattern
	}
	if len(claim) > belief.MaxText {
		claim = claim[:belief.MaxText]
	}
	topic := in.Topic
	if topic == "" && in.Type == "annotation" {
		topic = "artifact " + in.ArtifactID
	}
	key := belief.DeriveKey(strField(raw, "kind"), strField(raw, "subject"), strField(raw, "slot"), in.Type, in.Capabilities, in.Keywords, topic)
	source := belief.ContentID("reflection", pyjson.Canonical(withoutRequestID(raw)))
	ev := s.evidence(source, belief.FromReflection, belief.Support, "", "")
	if target := strField(raw, "contradicts"); target != "" {
		// A reflection that names what it contradicts states the new
		// claim: it supersedes the old one (kept, linked, with this as
		// contradicting evidence). To contradict without a new claim:
		// ucs contradict.
		o, ch, err := b.Supersede(target, claim, ev, s.now)
		if err != nil {
			return pyjson.Value{}, beliefError(err, target)
		}
		return observationValue(o, ch), nil
	}
	if cur := b.Active(key); cur != nil && recall.NearDuplicate(s.analyzer().Terms(cur.Claim), s.analyzer().Terms(claim)) {
		claim = cur.Claim // the same lesson in other words: evidence, not a new claim
	}
	o, ch, err := b.Observe(key, claim, ev, s.now)
	if err != nil {
		return pyjson.Value{}, beliefError(err, "")
	}
	return observationValue(o, ch), nil
}

func withoutRequestID(v pyjson.Value) pyjson.Value {
	var ms []pyjson.Member
	for _, m := range v.Members() {
		if m.Key != "request_id" {
			ms = append(ms, m)
		}
	}
	return pyjson.ObjectValue(ms)
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

// observationValue is an observation as answers show it.
func observationValue(o *belief.Observation, ch belief.Change) pyjson.Value {
	v := observationSummary(o, time.Time{})
	var change any
	switch {
	case ch.Duplicate:
		change = "duplicate evidence, ignored"
	case ch.Superseded != "":
		change = "superseded " + ch.Superseded
	case ch.Created:
		change = "created"
	case ch.Before != ch.After:
		change = string(ch.Before) + " → " + string(ch.After)
	default:
		change = "evidence added"
	}
	return v.With("change", change)
}

// observationSummary is an observation with its confidence components
// (and its freshness when now is given).
func observationSummary(o *belief.Observation, now time.Time) pyjson.Value {
	c := o.Confidence
	support, contradict := 0, 0
	for _, e := range o.Evidence {
		switch e.Stance {
		case belief.Support:
			support++
		case belief.Contradict:
			contradict++
		}
	}
	ms := []pyjson.Member{
		pyjson.KV("id", o.ID),
		pyjson.KV("key", o.Key.String()),
		pyjson.KV("claim", o.Claim),
		pyjson.KV("status", string(o.Status)),
		pyjson.KV("confidence", round(c.Value, 4)),
		pyjson.KV("components", pyjson.Obj(pyjson.KV("sources", round(c.Sources, 4)), pyjson.KV("diversity", round(c.Diversity, 4)),
			pyjson.KV("support", round(c.Support, 4)), pyjson.KV("contradiction", round(c.Contradiction, 4)),
			pyjson.KV("recency", round(c.Recency, 4)), pyjson.KV("operator", round(c.Operator, 4)))),
		pyjson.KV("evidence", pyjson.Obj(pyjson.KV("support", support), pyjson.KV("contradict", contradict))),
		pyjson.KV("last_supported", isoTime(o.LastSupported)),
	}
	if !now.IsZero() {
		ms = append(ms, pyjson.KV("freshness", round(belief.Freshness(o, now), 4)), pyjson.KV("due", isoTime(belief.DueAt(o))))
	}
	for _, l := range []struct{ k, v string }{{"supersedes", o.Supersedes}, {"superseded_by", o.SupersededBy}} {
		if l.v != "" {
			ms = append(ms, pyjson.KV(l.k, l.v))
		}
	}
	return pyjson.ObjectValue(ms)
}

// beliefKinds are the observation kinds, for the reflect schema.
func beliefKinds() []string {
	out := make([]string, len(belief.Kinds))
	for i, k := range belief.Kinds {
		out[i] = string(k)
	}
	return out
}
