package bridge

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"math"
	"slices"
	"strconv"

	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// ModelV3 is ucs's first own learning model (package learn, learn.V3Params):
// success estimates per transition conditioned on the task's terms, ranked
// with an optimistic bonus for what is little known, with every suggestion
// explained and every report attributed to the advice it followed or not.
const ModelV3 = "v3"

// ModelV4 is v3 conditioned also on the capability the agent came from
// (learn.Context.After), from the agent's trail (learn.Trail): the default.
const ModelV4 = "v4"

// learnMember is the state file's member that holds the learned state of
// a workspace of a learning model (v3, v4); it comes after the engine's
// members.
const learnMember = "learn"

// advisoriesKept is how many recent consults a workspace remembers, to
// attribute the reports that follow them.
const advisoriesKept = 8

// An advisory is a consult remembered for attribution: which advice it
// gave, from where, for which task.
type advisory struct {
	ID     string
	Cursor string
	Top    string // the first suggestion
	Seq    int64  // the consult's event
	Terms  []string
	// Task is the task's key (v5), and Probe says the consult was greedy:
	// a probe of the model's belief, not advice (v5).
	Task  string
	Probe bool
	// Observations are the ids of the observations the consult put in
	// its context (v4): the outcome of the action that follows is
	// evidence for or against those about that action's capability.
	Observations []string
}

// learnState is what a workspace of a learning model learns beside the
// engine: the model, the recent advisories, how advice fared when followed
// and when not, and (v4) the agent's trail.
type learnState struct {
	model      *learn.Model
	advisories []advisory // oldest first
	followed   [2]float64 // weighted successes, weighted outcomes of reports that followed the top suggestion
	unfollowed [2]float64 // the same for reports that did not
	keepsTrail bool
	trail      learn.Trail
}

func newLearnState(m *Model) *learnState {
	return &learnState{model: learn.New(*m.params), keepsTrail: m.keepsTrail()}
}

// context is the learn.Context of a step from the cursor in a task with
// these terms: with where the agent came from, when the model keeps the
// trail.
func (v *learnState) context(cursor string, terms []string) learn.Context {
	ctx := learn.Context{Terms: terms}
	if v.keepsTrail {
		ctx.After = v.trail.After(cursor, terms)
	}
	return ctx
}

// learn teaches the model a report of action from the cursor in a task
// with these terms, and follows the agent's trail.
func (v *learnState) learn(g *torusfield.Graph, man *torusfield.Manifest, terms []string, cursor, action, success string, weight float64, clock int64) (before, after learn.Estimate, discovered bool) {
	before, after, discovered = LearnOutcome(g, man, v.model, v.context(cursor, terms), cursor, action, success, weight, clock)
	if v.keepsTrail {
		v.trail.Move(cursor, action, success, terms)
	}
	return before, after, discovered
}

// appendJSON writes the state as one compact object with sorted keys.
func (v *learnState) appendJSON(dst []byte) []byte {
	dst = append(dst, `{"advisories":[`...)
	for i, a := range v.advisories {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, '[')
		for _, s := range []string{a.ID, a.Cursor, a.Top} {
			dst = pyjson.AppendString(dst, s)
			dst = append(dst, ',')
		}
		dst = strconv.AppendInt(dst, a.Seq, 10)
		dst = append(dst, ',')
		dst = appendStrings(dst, a.Terms)
		if len(a.Observations) > 0 {
			dst = append(dst, ',')
			dst = appendStrings(dst, a.Observations)
		}
		dst = append(dst, ']')
	}
	dst = append(dst, `],"followed":`...)
	dst = appendPair(dst, v.followed)
	dst = append(dst, `,"model":`...)
	dst = v.model.AppendJSON(dst)
	dst = append(dst, `,"not_followed":`...)
	dst = appendPair(dst, v.unfollowed)
	if v.keepsTrail {
		t := v.trail
		dst = append(dst, `,"trail":[`...)
		dst = pyjson.AppendString(dst, t.Prev)
		dst = append(dst, ',')
		dst = pyjson.AppendString(dst, t.At)
		dst = append(dst, ',')
		dst = appendStrings(dst, t.Terms)
		dst = append(dst, ']')
	}
	return append(dst, '}')
}

// appendStrings writes a compact JSON list of strings.
func appendStrings(dst []byte, xs []string) []byte {
	dst = append(dst, '[')
	for i, x := range xs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = pyjson.AppendString(dst, x)
	}
	return append(dst, ']')
}

func appendPair(dst []byte, p [2]float64) []byte {
	dst = append(dst, '[')
	dst = pyjson.AppendFloat(dst, p[0])
	dst = append(dst, ',')
	dst = pyjson.AppendFloat(dst, p[1])
	return append(dst, ']')
}

// decodeLearnState reads what appendJSON wrote for a model.
func decodeLearnState(raw []byte, model *Model) (*learnState, error) {
	if !gjson.ValidBytes(raw) {
		return nil, errors.New("learn: not valid JSON")
	}
	doc := gjson.ParseBytes(raw)
	m, err := learn.Decode([]byte(doc.Get("model").Raw), *model.params)
	if err != nil {
		return nil, err
	}
	v := &learnState{model: m, keepsTrail: model.keepsTrail()}
	if v.keepsTrail {
		a := doc.Get("trail").Array()
		if len(a) != 3 || a[0].Type != gjson.String || a[1].Type != gjson.String || !a[2].IsArray() {
			return nil, errors.New("learn.trail: want [prev, at, [terms]]")
		}
		v.trail.Prev, v.trail.At = a[0].Str, a[1].Str
		for _, t := range a[2].Array() {
			if t.Type != gjson.String {
				return nil, errors.New("learn.trail: a term is not a string")
			}
			v.trail.Terms = append(v.trail.Terms, t.Str)
		}
	}
	for _, k := range []struct {
		key string
		dst *[2]float64
	}{{"followed", &v.followed}, {"not_followed", &v.unfollowed}} {
		a := doc.Get(k.key).Array()
		if len(a) != 2 || a[0].Type != gjson.Number || a[1].Type != gjson.Number || a[0].Num < 0 || a[0].Num > a[1].Num {
			return nil, errors.New("learn." + k.key + ": want [successes, outcomes]")
		}
		*k.dst = [2]float64{a[0].Num, a[1].Num}
	}
	for _, r := range doc.Get("advisories").Array() {
		a := r.Array()
		if len(a) != 5 && len(a) != 6 || a[0].Type != gjson.String || a[1].Type != gjson.String || a[2].Type != gjson.String ||
			a[3].Type != gjson.Number || !a[4].IsArray() || len(a) == 6 && !a[5].IsArray() {
			return nil, errors.New("learn.advisories: want [id, cursor, top, seq, [terms], [observations]?]")
		}
		adv := advisory{ID: a[0].Str, Cursor: a[1].Str, Top: a[2].Str, Seq: a[3].Int()}
		for _, t := range a[4].Array() {
			adv.Terms = append(adv.Terms, t.Str)
		}
		if len(a) == 6 {
			for _, t := range a[5].Array() {
				adv.Observations = append(adv.Observations, t.Str)
			}
		}
		v.advisories = append(v.advisories, adv)
	}
	if len(v.advisories) > advisoriesKept {
		return nil, errors.New("learn.advisories: too many")
	}
	return v, nil
}

// learned returns the learned state, decoding it on first use; nil for a
// workspace of the reference's model.
func (s *session) learned() (*learnState, error) {
	if !s.model.learns() {
		return nil, nil
	}
	if s.learnt == nil {
		if s.learnRaw == nil {
			s.learnt = newLearnState(s.model)
		} else {
			v, err := decodeLearnState(s.learnRaw, s.model)
			if err != nil {
				return nil, corrupt(err, relState)
			}
			s.learnt = v
		}
	}
	return s.learnt, nil
}

// appendLearnMember adds a learning model's state to an encoded state
// file, as its last member: the bytes as read when the call did not change
// it.
func (s *session) appendLearnMember(state []byte) []byte {
	if s.model.nextSteps() {
		state = append(state[:len(state)-1], `,"`+learnMember+`":`...)
		switch {
		case s.stepsSt != nil:
			state = s.stepsSt.appendJSON(state)
		case s.learnRaw != nil:
			state = append(state, s.learnRaw...)
		default:
			state = newStepsState().appendJSON(state)
		}
		return append(state, '}')
	}
	if !s.model.learns() {
		return state
	}
	state = append(state[:len(state)-1], `,"`+learnMember+`":`...)
	switch {
	case s.learnt != nil:
		state = s.learnt.appendJSON(state)
	case s.learnRaw != nil:
		state = append(state, s.learnRaw...)
	default:
		state = newLearnState(s.model).appendJSON(state)
	}
	return append(state, '}')
}

// candidatesFrom lists the next steps the model ranks from a capability:
// the manifest's edges from it, with their prior (u − c), and the
// transitions reports taught it that the manifest lacks.
func (s *session) candidatesFrom(m *learn.Model, from string) []learn.Candidate {
	return NextSteps(s.engine.Graph, s.manifest, m, from)
}

// NextSteps lists the next steps a v3 model ranks from a capability of
// a graph: its edges, with their prior (u − c), the capability itself when
// the manifest connects it to itself (the graph drops self-loops, but a
// tool an agent runs twice in a row — tests again after a fix — is a next
// step), then the transitions reports taught the model that the manifest
// lacks. The bridge and the learning benchmark's in-memory policy share it.
func NextSteps(g *torusfield.Graph, man *torusfield.Manifest, m *learn.Model, from string) []learn.Candidate {
	var out []learn.Candidate
	seen := map[string]bool{}
	for _, ei := range g.Out(from) {
		edge := g.Edges[ei]
		if !seen[edge.Dst] {
			seen[edge.Dst] = true
			out = append(out, learn.Candidate{To: edge.Dst, Prior: edge.U - edge.C})
		}
	}
	if prior, ok := selfLoop(man, from); ok && !seen[from] {
		seen[from] = true
		out = append(out, learn.Candidate{To: from, Prior: prior})
	}
	for _, to := range m.Discovered(from) {
		if !seen[to] {
			seen[to] = true
			out = append(out, learn.Candidate{To: to})
		}
	}
	return out
}

// selfLoop returns the prior (u − c) of a capability's edge to itself, and
// whether the manifest lists it in its own connects_to (by name).
func selfLoop(man *torusfield.Manifest, c string) (float64, bool) {
	i := man.Index(c)
	if i < 0 {
		return 0, false
	}
	capa := man.Capabilities[i]
	if !slices.Contains(capa.ConnectsTo, c) {
		return 0, false
	}
	return capa.U - capa.C, true
}

// RankNextSteps ranks the candidates from a capability for a context's terms,
// with a dead end's penalty (in log-odds) on the capabilities it names,
// best first.
func RankNextSteps(g *torusfield.Graph, man *torusfield.Manifest, m *learn.Model, ctx learn.Context, from string, penalty map[string]float64, explore bool) []learn.Estimate {
	ranked := m.Rank(ctx, from, NextSteps(g, man, m, from), explore)
	for i := range ranked {
		if p := penalty[ranked[i].To]; p > 0 {
			ranked[i].Score -= p
		}
	}
	learn.SortEstimates(ranked)
	return ranked
}

// LearnOutcome teaches a v3 model the outcome of from → to (a report's success
// word) in a context's terms: the graph's edge gives the prior, and a
// transition the graph lacks is discovered. It returns the estimates
// before and after, and whether the transition is discovered.
func LearnOutcome(g *torusfield.Graph, man *torusfield.Manifest, m *learn.Model, ctx learn.Context, from, to, success string, weight float64, clock int64) (before, after learn.Estimate, discovered bool) {
	y, w := outcomeValue(success)
	w *= weight
	prior, discovered := 0.0, true
	if ei := g.Find(from, to); ei >= 0 {
		edge := g.Edges[ei]
		prior, discovered = edge.U-edge.C, false
	} else if p, ok := selfLoop(man, from); ok && to == from {
		prior, discovered = p, false
	}
	before, after = m.Update(ctx, from, to, prior, learn.Outcome{Success: y, Weight: w, Clock: clock, Discovered: discovered})
	return before, after, discovered
}

// suggestLearned ranks the next steps from the cursor for a context, with a
// dead end's penalty (in log-odds) on the capabilities it names, and
// remembers the advice for attribution. explore adds the optimism that
// makes an agent that follows the top suggestion try what is little known;
// without it the ranking is the model's best estimate (a probe).
func (s *session) suggestLearned(context string, penalty map[string]float64, explore bool) ([]pyjson.Value, string, error) {
	v, err := s.learned()
	if err != nil {
		return nil, "", err
	}
	e := s.engine
	cursor := e.Cursor.Node
	terms := learn.Terms(context)
	ranked := RankNextSteps(e.Graph, s.manifest, v.model, v.context(cursor, terms), cursor, penalty, explore)
	ranked = withoutDenied(s, ranked, func(r learn.Estimate) string { return r.To })
	top := ranked[:min(advisoryTopN, len(ranked))]
	out := make([]pyjson.Value, len(top))
	for i, r := range top {
		out[i] = s.describeEstimate(v, terms, cursor, r, penalty[r.To])
	}
	sum := sha256.Sum256([]byte(strconv.FormatInt(s.meta.Seq+1, 10) + "\x00" + context))
	id := hex.EncodeToString(sum[:8])
	if len(ranked) > 0 {
		v.advisories = append(v.advisories, advisory{ID: id, Cursor: cursor, Top: ranked[0].To, Seq: s.meta.Seq + 1, Terms: terms})
		if len(v.advisories) > advisoriesKept {
			v.advisories = v.advisories[len(v.advisories)-advisoriesKept:]
		}
	}
	return out, id, nil
}

// describeEstimate is one suggested path of a v3 consult: the next step,
// the best two steps after it, and why.
func (s *session) describeEstimate(v *learnState, terms []string, from string, r learn.Estimate, penalty float64) pyjson.Value {
	e, m := s.engine, v.model
	chain := []string{r.To}
	prev, at := from, r.To
	for len(chain) < 3 {
		ctx := learn.Context{Terms: terms}
		if v.keepsTrail {
			ctx.After = prev
		}
		next := m.Rank(ctx, at, s.candidatesFrom(m, at), false)
		if len(next) == 0 {
			break
		}
		chain = append(chain, next[0].To)
		prev, at = at, next[0].To
	}
	ev := r.Evidence
	similar := pyjson.Obj(pyjson.KV("term", nil), pyjson.KV("successes", 0), pyjson.KV("of", 0))
	if ev.Term != "" {
		similar = pyjson.Obj(pyjson.KV("term", ev.Term), pyjson.KV("successes", round(ev.TermS, 2)), pyjson.KV("of", round(ev.TermN, 2)))
	}
	var last any
	if ev.N > 0 || ev.Last > 0 {
		last = ev.Last
	}
	why := "untried here; ranked by its prior and an exploration bonus"
	switch {
	case ev.TermN > 0:
		why = "succeeded " + fmtCount(ev.TermS) + " of " + fmtCount(ev.TermN) + " times in contexts with \"" + ev.Term + "\" (" + fmtCount(ev.S) + " of " + fmtCount(ev.N) + " overall)"
	case ev.N > 0:
		why = "succeeded " + fmtCount(ev.S) + " of " + fmtCount(ev.N) + " times, in other contexts"
	}
	if ev.AfterN > 0 {
		why += "; after " + ev.After + ": " + fmtCount(ev.AfterS) + " of " + fmtCount(ev.AfterN)
	}
	evidence := []pyjson.Member{
		pyjson.KV("similar_contexts", similar),
		pyjson.KV("all_contexts", pyjson.Obj(pyjson.KV("successes", round(ev.S, 2)), pyjson.KV("of", round(ev.N, 2)))),
		pyjson.KV("last_report", last),
	}
	if v.keepsTrail {
		var after any // null: where the agent came from is unknown (or another task)
		if ev.After != "" {
			after = pyjson.Obj(pyjson.KV("capability", ev.After), pyjson.KV("successes", round(ev.AfterS, 2)), pyjson.KV("of", round(ev.AfterN, 2)))
		}
		evidence = append(evidence, pyjson.KV("after", after))
	}
	members := []pyjson.Member{
		pyjson.KV("to", r.To),
		pyjson.KV("score", round(r.Score, 4)),
		pyjson.KV("p_success", round(r.P, 4)),
		pyjson.KV("chain", chain),
		pyjson.KV("components", pyjson.Obj(
			pyjson.KV("estimate", round(r.LogOdds-r.Prior, 4)),
			pyjson.KV("prior", round(r.Prior, 4)),
			pyjson.KV("exploration_bonus", round(r.Bonus, 4)),
			pyjson.KV("penalty", round(0-penalty, 4)),
			pyjson.KV("uncertainty", round(r.SD, 4)),
		)),
		pyjson.KV("evidence", pyjson.ObjectValue(evidence)),
		pyjson.KV("discovered", r.Discovered),
		pyjson.KV("why", why),
	}
	if ei := e.Graph.Find(from, r.To); ei >= 0 {
		members = append(members, pyjson.KV("edge_index", ei))
	}
	return pyjson.ObjectValue(members)
}

func fmtCount(x float64) string {
	if x == math.Trunc(x) {
		return strconv.FormatInt(int64(x), 10)
	}
	return strconv.FormatFloat(x, 'f', 1, 64)
}

// outcomeValue is what a reported success word teaches: the success value
// and how much it counts (neutral teaches nothing).
func outcomeValue(success string) (y, weight float64) {
	switch success {
	case "success":
		return 1, 1
	case "partial":
		return 0.5, 1
	case "failure":
		return 0, 1
	}
	return 0, 0
}

// learnReport teaches the model a report's outcome: the transition from the
// cursor to the action, in the report's context, or else in the context
// of the advice the report follows (named by advisory_id, or the newest
// consult made at the same cursor). It returns the answer's "learning"
// member, or nothing for a workspace of another model.
func (s *session) learnReport(in reportInput, before string, input pyjson.Value) (pyjson.Value, bool, error) {
	v, err := s.learned()
	if err != nil || v == nil {
		return pyjson.Value{}, false, err
	}
	var adv *advisory
	advIdx := -1
	if id := strField(input, "advisory_id"); id != "" {
		for i := range v.advisories {
			if v.advisories[i].ID == id {
				adv, advIdx = &v.advisories[i], i
			}
		}
		if adv == nil {
			s.warn("advisory_id " + quote(id) + " names no recent consult; the report is not attributed")
		}
	} else if n := len(v.advisories); n > 0 && v.advisories[n-1].Cursor == before {
		adv, advIdx = &v.advisories[n-1], n-1
	}
	terms := learn.Terms(in.Context)
	if in.Context == "" && adv != nil {
		terms = adv.Terms
	}
	y, w := outcomeValue(in.Success)
	w *= in.Weight
	s.learnedAfter = v.context(before, terms).After
	pb, pa, discovered := v.learn(s.engine.Graph, s.manifest, terms, before, in.Action, in.Success, in.Weight, s.meta.Seq+1)
	members := []pyjson.Member{
		pyjson.KV("transition", before+" → "+in.Action),
		pyjson.KV("context_terms", orEmptyStrings(terms)),
		pyjson.KV("p_before", round(pb.P, 4)),
		pyjson.KV("p_after", round(pa.P, 4)),
		pyjson.KV("evidence_before", pyjson.Obj(pyjson.KV("successes", round(pb.Evidence.S, 2)), pyjson.KV("of", round(pb.Evidence.N, 2)))),
		pyjson.KV("evidence_after", pyjson.Obj(pyjson.KV("successes", round(pa.Evidence.S, 2)), pyjson.KV("of", round(pa.Evidence.N, 2)))),
		pyjson.KV("discovered", discovered),
	}
	if adv != nil {
		followed := in.Action == adv.Top
		if w > 0 {
			c := &v.unfollowed
			if followed {
				c = &v.followed
			}
			c[0] += w * y
			c[1] += w
		}
		members = append(members, pyjson.KV("advisory_id", adv.ID), pyjson.KV("followed_advice", followed))
		if s.model.governsKnowledge() && w > 0 && len(adv.Observations) > 0 {
			confidence := min(1, in.Weight*selfReportConfidence)
			if ov, ok, err := s.attributeOutcome(adv.Observations, in.Action, y, confidence, in.HasResult, s.meta.Seq+1); err != nil {
				return pyjson.Value{}, false, err
			} else if ok {
				members = append(members, pyjson.KV("observations", ov))
			}
		}
		// One attribution per advice: the reports after the first are
		// steps of the agent's own, unless they name it.
		v.advisories = append(v.advisories[:advIdx], v.advisories[advIdx+1:]...)
	}
	return pyjson.ObjectValue(members), true, nil
}

// advisoryPrecision is how advice fared: the success rate of reports that
// followed the top suggestion and of those that did not.
func (v *learnState) advisoryPrecision() pyjson.Value { return precisionOf(v.followed, v.unfollowed) }

// precisionOf is how advice fared, from the weighted successes and
// outcomes of reports that followed the top suggestion and of those that
// did not.
func precisionOf(followed, unfollowed [2]float64) pyjson.Value {
	rate := func(p [2]float64) pyjson.Value {
		var r any
		if p[1] > 0 {
			r = round(p[0]/p[1], 4)
		}
		return pyjson.Obj(pyjson.KV("successes", round(p[0], 2)), pyjson.KV("reports", round(p[1], 2)), pyjson.KV("rate", r))
	}
	return pyjson.Obj(pyjson.KV("followed", rate(followed)), pyjson.KV("not_followed", rate(unfollowed)))
}

func orEmptyStrings(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}

// advisoryPrecision is how a learning model's advice fared
// (precisionOf); null for the reference's model.
func (s *session) advisoryPrecision() (any, error) {
	if v, err := s.steps(); err != nil || v != nil {
		if err != nil {
			return nil, err
		}
		return precisionOf(v.followed, v.unfollowed), nil
	}
	v, err := s.learned()
	if err != nil || v == nil {
		return nil, err
	}
	return v.advisoryPrecision(), nil
}

// modelStatus is what status adds for a workspace of ucs's own model: its
// name and how advice fared. Nothing for the reference's (parity).
func (s *session) modelStatus() (string, any) {
	if s.model.nextSteps() {
		v, err := s.steps()
		if err != nil {
			return "", nil
		}
		return "learning", pyjson.Obj(pyjson.KV("model", s.meta.Model), pyjson.KV("advisory_precision", precisionOf(v.followed, v.unfollowed)))
	}
	if !s.model.learns() {
		return "", nil
	}
	v, err := s.learned()
	if err != nil {
		return "", nil
	}
	return "learning", pyjson.Obj(pyjson.KV("model", s.meta.Model), pyjson.KV("advisory_precision", v.advisoryPrecision()))
}
