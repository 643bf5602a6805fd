package bridge

import (
	"bytes"
	"slices"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/belief"
	"github.com/unified-cognitive-substrate/ucs/goal"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
	"github.com/unified-cognitive-substrate/ucs/learn"
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

// evidence is a piece of evidence given by this call.
func (s *session) evidence(source, kind string, stance belief.Stance, by, note string) belief.Evidence {
	if by == "" {
		by = s.agentID
	}
	return belief.Evidence{Source: source, SourceKind: kind, Stance: stance, Weight: 1, At: s.now, By: by, Note: note}
}

// observeReflection makes a reflection evidence for the observation it
// speaks to, and returns the answer's "observation" member.
func (s *session) observeReflection(in reflectInput, raw pyjson.Value, at time.Time) (pyjson.Value, error) {
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
	key := belief.DeriveKey(raw.StrOf("kind"), raw.StrOf("subject"), raw.StrOf("slot"), in.Type, in.Capabilities, in.Keywords, topic)
	source := belief.ContentID("reflection", pyjson.Canonical(withoutMember(raw, "request_id")))
	ev := s.evidence(source, belief.FromReflection, belief.Support, "", "")
	ev.At = at
	if target := raw.StrOf("contradicts"); target != "" {
		// A reflection that names what it contradicts states the new
		// claim: it supersedes the old one (kept, linked, with this as
		// contradicting evidence). To contradict without a new claim:
		// ucs contradict.
		o, ch, err := b.Supersede(target, claim, ev, at)
		if err != nil {
			return pyjson.Value{}, beliefError(err, target)
		}
		return observationValue(o, ch), nil
	}
	if cur := b.Active(key); cur != nil && recall.NearDuplicate(s.analyzer().Terms(cur.Claim), s.analyzer().Terms(claim)) {
		claim = cur.Claim // the same lesson in other words: evidence, not a new claim
	}
	o, ch, err := b.Observe(key, claim, ev, at)
	if err != nil {
		return pyjson.Value{}, beliefError(err, "")
	}
	return observationValue(o, ch), nil
}

// beliefError turns the book's refusals into bad input.
func beliefError(err error, id string) error {
	switch {
	case id != "" && strings.Contains(err.Error(), belief.ErrNotFound.Error()):
		return badInput(fault.CodeUnknownObservation, "list them with: ucs observations", "there is no observation %s", quote(id))
	case strings.Contains(err.Error(), belief.ErrNotCurrent.Error()):
		return badInput(fault.CodeInvalidState, "a superseded or invalidated observation is final; act on the one that replaced it", "%v", err)
	}
	return badInput(fault.CodeInvalidValue, "see ucs observations", "%v", err)
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

// observationReview is synthesize's view of the observations: the believed
// ones due for revalidation (by kind), those superseded or invalidated
// since the period began, and the believed ones with contradicting
// evidence, which need a decision (confirm, contradict, retire).
func (s *session) observationReview(since string) (pyjson.Value, error) {
	b, err := s.book()
	if err != nil {
		return pyjson.Value{}, err
	}
	due, _ := dueByKind(b, s.now)
	superseded, invalidated, contested := []pyjson.Value{}, []pyjson.Value{}, []pyjson.Value{}
	for _, o := range b.Observations() {
		switch {
		case o.Status == belief.Superseded:
			if n := b.Get(o.SupersededBy); n != nil && isoTime(n.Created) >= since {
				superseded = append(superseded, observationSummary(o, time.Time{}))
			}
		case o.Status == belief.Invalidated:
			if last := o.Evidence[len(o.Evidence)-1]; isoTime(last.At) >= since {
				invalidated = append(invalidated, observationSummary(o, time.Time{}))
			}
		case o.Confidence.Contradiction > 0:
			contested = append(contested, observationSummary(o, s.now))
		}
	}
	return pyjson.Obj(pyjson.KV("due", due), pyjson.KV("superseded", superseded),
		pyjson.KV("invalidated", invalidated), pyjson.KV("contested", contested)), nil
}

// Consult's context of observations (Sentinel MAX's ranker, filter and
// context builder): the believed observations that match the task, ranked
// by relevance × freshness × confidence (× 1.25 when they share a word
// with an active goal), near-duplicates and those ranking below
// contextMinRank left out, at most contextPerKind per kind and
// contextMaxBytes of JSON in all, each with its rank's components.
const (
	contextPerKind  = 3
	contextMaxBytes = 3000
	contextMinRank  = 0.02
	goalMatchBoost  = 1.25
)

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
	type ranked struct {
		o                                *belief.Observation
		rank, relevance, freshness, goal float64
		terms                            []string
		matched                          []string
		agent                            string // with peers: whose
		peer                             int    // 0: the agent's own; else its peer's position + 1
		weight                           float64
	}
	var rs []ranked
	search := func(ci *contextIndex, agent string, peer int, weight float64) {
		for _, h := range ci.ix.Search(recall.Query{Text: context}) {
			o, ok := ci.obs[h.ID]
			if !ok {
				continue
			}
			terms, _ := ci.ix.Terms(h.ID)
			r := ranked{o: o, relevance: h.Score / (h.Score + 1), freshness: belief.Freshness(o, s.now), goal: 1, terms: terms,
				agent: agent, peer: peer, weight: weight}
			for _, m := range h.Matched {
				r.matched = append(r.matched, m.Term)
			}
			if recall.Matches(goalTerms, terms, 1) {
				r.goal = goalMatchBoost
			}
			r.rank = r.relevance * r.freshness * o.Confidence.Value * r.goal * weight
			if r.rank >= contextMinRank {
				rs = append(rs, r)
			}
		}
	}
	own := ""
	if len(s.peers) > 0 {
		own = s.agentID
	}
	search(ci, own, 0, 1)
	for i, p := range s.peers {
		if pci := s.peerContextIndex(p); pci != nil {
			search(pci, p.name, i+1, fleetWeight)
		}
	}
	slices.SortStableFunc(rs, func(a, b ranked) int {
		if a.rank != b.rank {
			if a.rank > b.rank {
				return -1
			}
			return 1
		}
		if a.peer != b.peer {
			return a.peer - b.peer
		}
		return strings.Compare(a.o.ID, b.o.ID)
	})
	out := []pyjson.Value{}
	perKind := map[belief.Kind]int{}
	var kept [][]string
	size, left := 0, 0
	for _, r := range rs {
		dup := slices.ContainsFunc(kept, func(t []string) bool { return recall.NearDuplicate(t, r.terms) })
		if dup || perKind[r.o.Key.Kind] >= contextPerKind {
			left++
			continue
		}
		rank := []pyjson.Member{pyjson.KV("score", round(r.rank, 4)), pyjson.KV("relevance", round(r.relevance, 4)),
			pyjson.KV("freshness", round(r.freshness, 4)), pyjson.KV("confidence", round(r.o.Confidence.Value, 4)),
			pyjson.KV("goal", r.goal)}
		if r.weight != 1 {
			rank = append(rank, pyjson.KV("fleet_weight", r.weight))
		}
		v := pyjson.Obj(pyjson.KV("id", r.o.ID), pyjson.KV("key", r.o.Key.String()), pyjson.KV("claim", r.o.Claim),
			pyjson.KV("status", string(r.o.Status)), pyjson.KV("confidence", round(r.o.Confidence.Value, 4)),
			pyjson.KV("last_supported", isoTime(r.o.LastSupported)),
			pyjson.KV("rank", pyjson.ObjectValue(append(rank, pyjson.KV("matched", r.matched)))))
		if r.agent != "" {
			v = v.With("agent", r.agent)
		}
		n := len(pyjson.AppendCompact(nil, v))
		if size+n > contextMaxBytes {
			left++
			continue
		}
		size += n
		perKind[r.o.Key.Kind]++
		kept = append(kept, r.terms)
		out = append(out, v)
	}
	return pyjson.Obj(pyjson.KV("hits", out), pyjson.KV("left_out", left)), nil
}

// peerContextIndex is a fleet peer's believed observations, indexed: its
// derived files when they match its book, else built from the book; nil
// when it keeps none or they cannot be read (a peer is left out, never an
// error of this workspace's).
func (s *session) peerContextIndex(p peer) *contextIndex {
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
	return buildContextIndex(b, s.analyzer())
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
		if a := h.StrOf("agent"); a == "" || a == s.agentID {
			adv.Observations = append(adv.Observations, h.StrOf("id"))
		}
	}
}

// outcomeWeight is how much one outcome says about a general claim: less
// than a reflection that states it.
const outcomeWeight = 0.5

// attributeOutcome makes an action's outcome evidence on the observations
// the advice it followed put in context that are about that action's
// capability (OpenSentience's causal attribution): a success supports
// them, a failure contradicts them, weighted by the outcome's confidence.
// It returns the answer's member (nothing when none applies).
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
	source := belief.ContentID(kind, pyjson.Canonical(pyjson.Obj(pyjson.KV("seq", seq), pyjson.KV("action", action), pyjson.KV("y", y))))
	var out []pyjson.Value
	for _, id := range ids {
		o := b.Get(id)
		if o == nil || !o.Status.Current() || !aboutCapability(o.Key.Subject, action) || y == 0.5 {
			continue
		}
		ev := s.evidence(source, kind, belief.Support, by, "")
		ev.Weight = outcomeWeight * confidence
		var ch belief.Change
		if y > 0.5 {
			o, ch, err = b.Confirm(id, ev, s.now)
		} else {
			ev.Stance = belief.Contradict
			o, ch, err = b.Contradict(id, ev, s.now)
		}
		if err != nil {
			return pyjson.Value{}, false, beliefError(err, id)
		}
		out = append(out, pyjson.Obj(pyjson.KV("id", o.ID), pyjson.KV("stance", string(ev.Stance)),
			pyjson.KV("weight", round(ev.Weight, 4)), pyjson.KV("status", string(ch.After)), pyjson.KV("confidence", round(o.Confidence.Value, 4))))
	}
	if out == nil {
		return pyjson.Value{}, false, nil
	}
	return pyjson.ArrayValue(out), true, nil
}

// aboutCapability reports whether an observation's subject names the
// capability ("capability:a+b" names a and b).
func aboutCapability(subject, capability string) bool {
	names, ok := strings.CutPrefix(subject, "capability:")
	return ok && slices.Contains(strings.Split(names, "+"), capability)
}

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
			in := reflectInput{Type: f.typ, Text: e.StrOf("text"), Capabilities: knowledge.Strings(e, "capabilities"),
				Keywords: knowledge.Strings(e, "keywords"), Topic: e.StrOf("topic"),
				WhyClosed: e.StrOf("why_closed"), ReopenConditions: e.StrOf("reopen_conditions")}
			if in.Text == "" && f.typ == "post_task" {
				in.Text = e.StrOf("summary")
			}
			if strings.TrimSpace(in.Text) == "" && in.Topic == "" {
				continue
			}
			at := s.now
			if d, err := time.Parse("2006-01-02", e.StrOf("date")); err == nil && d.Before(s.now) {
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

// dueByKind lists the believed observations due for revalidation, by
// kind (in belief.Kinds' order), and how many there are.
func dueByKind(b *belief.Book, now time.Time) (pyjson.Value, int) {
	due := b.Due(now)
	var kinds []pyjson.Member
	for _, k := range belief.Kinds {
		var list []pyjson.Value
		for _, o := range due {
			if o.Key.Kind == k {
				list = append(list, observationSummary(o, now))
			}
		}
		if list != nil {
			kinds = append(kinds, pyjson.KV(string(k), list))
		}
	}
	return pyjson.ObjectValue(kinds), len(due)
}

// A contextIndex is what consult ranks observations with: the recall index
// of the believed ones, and each one's summary (id, key, claim, status,
// confidence, last support), without its evidence. It is derived from the
// book and kept beside it (relObsIndex, relObsSummary, each naming the
// book's hash), so a consult reads a small binary index and a summary
// file instead of decoding the book; stale or missing files are rebuilt
// from the book, and written by the call's commit.
type contextIndex struct {
	ix  *recall.Index
	obs map[string]*belief.Observation // summaries: no evidence
}

const (
	relObsIndex   = workspace.RelObservations + ".idx"
	relObsSummary = workspace.RelObservations + ".sum"
	obsIndexMagic = "ucs-observations-index-1\n"
)

func (s *session) contextIndex() (*contextIndex, error) {
	if s.obsCtx != nil {
		return s.obsCtx, nil
	}
	sum, _ := bookRef(s.state.observations.raw)
	if !s.state.observations.decoded && sum != "" {
		if ci := s.loadContextIndex(sum); ci != nil {
			s.obsCtx = ci
			return ci, nil
		}
	}
	b, err := s.book()
	if err != nil {
		return nil, err
	}
	s.obsCtx = buildContextIndex(b, s.analyzer())
	s.obsCtxDirty = true
	return s.obsCtx, nil
}

func buildContextIndex(b *belief.Book, an *recall.Analyzer) *contextIndex {
	ci := &contextIndex{ix: recall.NewIndex(an), obs: map[string]*belief.Observation{}}
	for _, o := range b.Observations() {
		if !o.Status.Current() {
			continue
		}
		ci.obs[o.ID] = &belief.Observation{ID: o.ID, Key: o.Key, Claim: o.Claim, Status: o.Status,
			Confidence: o.Confidence, LastSupported: o.LastSupported}
		ci.ix.Add(recall.Doc{ID: o.ID, Kind: string(o.Key.Kind), Fields: []recall.Field{
			{Text: o.Claim, Weight: recall.TextWeight},
			{Text: strings.ReplaceAll(o.Key.Slot, "-", " "), Weight: recall.KeywordsWeight},
			{Text: strings.NewReplacer(":", " ", "+", " ").Replace(o.Key.Subject), Weight: recall.CapabilitiesWeight},
		}})
	}
	return ci
}

// loadContextIndex reads the derived files of the book of that hash, or
// returns nil when they are missing, stale or damaged.
func (s *session) loadContextIndex(book string) *contextIndex {
	return s.loadContextIndexOf(s.ws, book)
}

// loadContextIndexOf is loadContextIndex for the workspace ws (a fleet's
// peer's).
func (s *session) loadContextIndexOf(ws *workspace.Workspace, book string) *contextIndex {
	raw, err := ws.ReadFile(relObsIndex)
	head := obsIndexMagic + book + "\n"
	if err != nil || !bytes.HasPrefix(raw, []byte(head)) {
		return nil
	}
	ix, err := recall.DecodeIndex(raw[len(head):])
	if err != nil || !ix.Analyzer().Synonyms().Equal(s.analyzer().Synonyms()) {
		return nil
	}
	sumRaw, err := ws.ReadFile(relObsSummary)
	if err != nil || gjson.GetBytes(sumRaw, "book").Str != book {
		return nil
	}
	ci := &contextIndex{ix: ix, obs: map[string]*belief.Observation{}}
	ok := true
	gjson.GetBytes(sumRaw, "observations").ForEach(func(_, v gjson.Result) bool {
		a := v.Array()
		if len(a) != 8 {
			ok = false
			return false
		}
		t, err := time.Parse(time.RFC3339Nano, a[7].Str)
		if err != nil {
			ok = false
			return false
		}
		o := &belief.Observation{ID: a[0].Str, Key: belief.Key{Kind: belief.Kind(a[1].Str), Subject: a[2].Str, Slot: a[3].Str},
			Claim: a[4].Str, Status: belief.Status(a[5].Str), LastSupported: t}
		o.Confidence.Value = a[6].Num
		ci.obs[o.ID] = o
		return true
	})
	if !ok || len(ci.obs) != ix.Len() {
		return nil
	}
	return ci
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
		ci = buildContextIndex(b, s.analyzer())
	}
	idx := append([]byte(obsIndexMagic+book+"\n"), ci.ix.AppendBinary(nil)...)
	ids := make([]string, 0, len(ci.obs))
	for id := range ci.obs {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	list := make([]pyjson.Value, len(ids))
	for i, id := range ids {
		o := ci.obs[id]
		list[i] = pyjson.ArrayValue([]pyjson.Value{pyjson.From(o.ID), pyjson.From(string(o.Key.Kind)), pyjson.From(o.Key.Subject),
			pyjson.From(o.Key.Slot), pyjson.From(o.Claim), pyjson.From(string(o.Status)), pyjson.From(o.Confidence.Value),
			pyjson.From(o.LastSupported.UTC().Format(time.RFC3339Nano))})
	}
	sum := pyjson.AppendCompact(nil, pyjson.Obj(pyjson.KV("book", book), pyjson.KV("observations", list)))
	for _, f := range []struct {
		rel  string
		data []byte
	}{{relObsIndex, idx}, {relObsSummary, sum}} {
		s.tx.SetDerived(f.rel, f.data)
	}
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
