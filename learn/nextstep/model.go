package nextstep

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"strings"
)

// Params are the predictor's settings. A zero α turns its expert off.
type Params struct {
	// Base is the Dirichlet strength pulling P1 (the next successful call
	// from prev) towards the successful calls of every context.
	Base float64
	// Task, Prev2 and Term are the strengths of the (task, prev), (prev2,
	// prev) and (term, prev) experts towards P1: the evidence a key needs
	// before it outweighs where the agent is.
	Task, Prev2, Term float64
	// TaskWeight, Prev2Weight and TermWeight are the experts' exponents;
	// the terms share TermWeight, each weighing TermWeight / n^TermPow for
	// a context of n terms.
	TaskWeight, Prev2Weight, TermWeight, TermPow float64
	// Task2 is the strength of the (task, prev2, prev) expert towards the
	// task's: the position in the task when a tool recurs in it.
	Task2 float64
	// Freq is the exponent of the frequency estimate P(next successful
	// call = to): 1 for a predictor of what the agent will do; less for a
	// chooser, whose own choices make the frequencies.
	Freq float64
	// Success is λ, the exponent of the step's own success probability.
	Success float64
	// Drop multiplies the score of a tool that failed twice in the episode.
	Drop float64
	// MoveOnFailure moves the trail on a failed call too (markov1's
	// convention); false keeps the agent where it was.
	MoveOnFailure bool
	// MarkFailed makes a failed call's state its own ("after tool
	// failed", not "after tool"), so that what follows a failure is never
	// learned as a move from the tool, and a retry is predicted from it.
	MarkFailed bool
	// Explore is an optimism bonus, Explore / √(1 + tries in this
	// context), for an agent that must find its next steps by trying them
	// (the simulator); 0 for a replay.
	Explore float64
	// Decay is the share of a key's counts forgotten at each of its
	// updates (0: none): old evidence fades, so a change of what works is
	// found, at the cost of O(next tools under the key) per update.
	Decay float64
	// Logistic estimates the step's success with the logistic regression
	// of logistic.go instead of the count tables' rates, and ranks with
	// Explore standard deviations of its log-odds as the bonus.
	Logistic bool
	// Logit ranks by the success model's log-odds instead of the log of
	// its probability (v4's ranking, for a chooser).
	Logit bool
	// Hedge, when positive, learns the exponent of the frequencies (in
	// place of Freq) from how well they predict the agent's own calls, with
	// this fixed share (so it keeps adapting).
	Hedge float64
	// MaxKeys bounds the number of count keys, and of the success model's
	// weights; 0: unbounded.
	MaxKeys int
	// FleetCap bounds what a key of a fleet's evidence weighs in a
	// ranking (Model.SetFleet): the peers' counts under a key enter as at
	// most FleetCap successes, and their knowledge of a weight as at most
	// FleetCap outcomes, so the model's own evidence soon outweighs them.
	FleetCap float64
	// PriorWeight is the log-odds per unit of Model.Prior a step's success
	// starts from: a tie-breaker among steps with no evidence, which any
	// outcome outweighs, since a manifest's best-declared tool is not
	// always the best (at v4's 0.1 the simulator's traps, the tools with
	// the best priors, cost v5 about 180 in cumulative regret).
	PriorWeight float64
}

// DefaultParams are the settings chosen on the development split of the
// real-trace benchmark (docs/learning-benchmark.md, "v5 candidates").
var DefaultParams = Params{
	Base: 1, Task: 0.5, Task2: 1, Prev2: 2, Term: 8,
	TaskWeight: 1, Prev2Weight: 1, TermWeight: 2, TermPow: 1,
	Freq: 1, Success: 1, Drop: 0.05, MoveOnFailure: true, MarkFailed: true,
	Decay: 0.01, Logistic: true, Explore: 0.2, Hedge: 0.01, MaxKeys: 1 << 14, PriorWeight: 0.02, FleetCap: 30,
}

// counts are the outcomes of the calls made under one key: per next tool,
// how many succeeded and how many failed, weighted (old evidence fades,
// Params.Decay) and whole (for explanations people read).
//
// Fading is lazy, so that an update changes one tool's outcomes and the
// key's totals, not every tool's: U counts the key's updates, and a tool's
// weighted outcomes were stored at its own update U_e, so they are now
// worth (1 − Decay)^(U − U_e) of what is stored. N, the totals, is kept
// current.
type counts struct {
	N    float64 // Σ weighted successes, as of U
	M    int64   // Σ whole successes
	U    int64   // updates of the key
	To   map[string]*outcomes
	Last int64 // the model's call count at the key's last update
	// fresh says the key was not in the store (it is written whole);
	// changed names the tools whose outcomes an update changed (else
	// only they and the totals are written, as a merge).
	fresh   bool
	changed map[string]bool
}

// outcomes are a next tool's outcomes under one key.
type outcomes struct {
	S, F   float64 // weighted successes and failures, as of U
	NS, NF int64   // whole successes and failures
	U      int64   // the key's update they were stored at
}

// fade is what weighted outcomes stored at update u are worth now.
func (c *counts) fade(u int64, decay float64) float64 {
	if decay <= 0 || u == c.U {
		return 1
	}
	return math.Pow(1-decay, float64(c.U-u))
}

// outcome returns to's weighted successes and failures now.
func (c *counts) outcome(to string, decay float64) (s, f float64) {
	o := c.To[to]
	if o == nil {
		return 0, 0
	}
	k := c.fade(o.U, decay)
	return o.S * k, o.F * k
}

// touch marks a tool's outcomes changed, for a merge.
func (c *counts) touch(to string) {
	if c.changed == nil {
		c.changed = map[string]bool{}
	}
	c.changed[to] = true
}

func (m *Model) succ(c *counts, to string) float64 {
	s, _ := c.outcome(to, m.P.Decay)
	return s
}

func (m *Model) tries(c *counts, to string) float64 {
	s, f := c.outcome(to, m.P.Decay)
	return s + f
}

// Model is the predictor's learned state: in memory whole (New), or read
// key by key from a Store (Open).
type Model struct {
	P       Params
	store   Store
	err     error
	tables  map[string]*counts            // loaded or learned; nil: absent
	weights map[string]map[string]*weight // the success model's, by feature, then next tool
	dirty   map[string]bool
	// wfresh names the weight groups the store did not hold, and
	// wchanged the tools of each group an update changed.
	wfresh   map[string]bool
	wchanged map[string]map[string]bool
	// Prior, when set, is the log-odds a step's success starts from before
	// any evidence (a manifest's declared utility less cost): the mean of
	// the success model's bias weight, so that a workspace with no
	// evidence ranks by what the manifest says.
	Prior func(to string) float64
	clock int64   // outcomes the success model learned
	beta  float64 // the frequencies' learned weight (Params.Hedge)
	calls int64   // calls observed
	// fleet is the other agents' evidence a ranking adds as a prior
	// (SetFleet; nil: none), and ftables and fweights what was read of it.
	fleet    Store
	ftables  map[string]*counts
	fweights map[string]map[string]*weight
	// fleetTools are the next tools whose fleet evidence a ranking read,
	// by key (FleetRead).
	fleetTools map[string]map[string]bool
}

// New returns a model with no evidence, held in memory.
func New(p Params) *Model {
	return &Model{P: p, tables: map[string]*counts{}, weights: map[string]map[string]*weight{}, dirty: map[string]bool{},
		wfresh: map[string]bool{}, wchanged: map[string]map[string]bool{}, beta: 0.5}
}

// Keys returns how many count keys the model holds in memory.
func (m *Model) Keys() int { return len(m.tables) }

// Weights returns how many weights the success model holds in memory.
func (m *Model) Weights() int {
	n := 0
	for _, g := range m.weights {
		n += len(g)
	}
	return n
}

// The keys, each with a prefix of its own so the tables share one store.
func key(parts ...string) string      { return strings.Join(parts, sep) }
func keyAll() string                  { return "c" + sep + "0" }
func keyPrev(prev string) string      { return key("c", "1", prev) }
func keyPrev2(p2, prev string) string { return key("c", "2", p2, prev) }
func keyTask(task, prev string) string {
	return key("c", "t", task, prev)
}
func keyTerm(term, prev string) string { return key("c", "w", term, prev) }

func keyTask2(task, p2, prev string) string {
	return key("c", "T", task, p2, prev)
}

// features are the keys of one call and their experts' settings.
type feature struct {
	key           string
	alpha, weight float64
}

func (m *Model) features(ep *Episode) []feature {
	p := m.P
	var fs []feature
	if p.Task > 0 && ep.Task != "" {
		fs = append(fs, feature{keyTask(ep.Task, ep.Prev), p.Task, p.TaskWeight})
		if p.Task2 > 0 {
			fs = append(fs, feature{keyTask2(ep.Task, ep.Prev2, ep.Prev), p.Task2, 1})
		}
	}
	if p.Prev2 > 0 && ep.Prev != Start {
		fs = append(fs, feature{keyPrev2(ep.Prev2, ep.Prev), p.Prev2, p.Prev2Weight})
	}
	if p.Term > 0 && len(ep.Terms) > 0 {
		w := p.TermWeight / math.Pow(float64(len(ep.Terms)), p.TermPow)
		for _, t := range ep.Terms {
			fs = append(fs, feature{keyTerm(t, ep.Prev), p.Term, w})
		}
	}
	return fs
}

// A Scored is a candidate and its score (the log of its probability, plus
// the step's success and the bonuses).
type Scored struct {
	To    string
	Score float64
}

// Rank orders the candidates for the episode's next call, best first;
// ties go to the name, so the order is total and deterministic.
//
// The estimate is built in levels, each a count table smoothed towards the
// level below (an interpolated back-off): every successful call (p0),
// where the agent is (p1), where it came from (p2), the context's terms
// (pw: a product of per-term experts over p2, normalised over the
// candidates), the task (pT). The step's success S is estimated the same
// way from the calls' successes and failures.
func (m *Model) Rank(ep *Episode, candidates []string) []Scored {
	return m.rank(ep, candidates, m.P.Explore, true)
}

// Greedy is Rank without the exploration bonus: what the model believes.
//
// Unlike Rank it does not keep its predictions for the next Observe
// without candidates: it is a look, not the ranking the agent acts on.
func (m *Model) Greedy(ep *Episode, candidates []string) []Scored {
	return m.rank(ep, candidates, 0, false)
}

// rank scores the candidates; remember keeps the predictions the
// frequencies' weight learns from (Params.Hedge).
func (m *Model) rank(ep *Episode, candidates []string, explore float64, remember bool) []Scored {
	p := m.P
	get := m.rankTable
	if m.fleet != nil {
		// The fleet's counts of the candidates are what the ranking reads
		// of each key (and its totals).
		get = func(k string) *counts {
			for _, to := range candidates {
				m.fleetRead(k, to)
			}
			return m.rankTable(k)
		}
	}
	all, prev := get(keyAll()), get(keyPrev(ep.Prev))
	var prev2, task, task2 *counts
	if p.Prev2 > 0 && ep.Prev != Start {
		prev2 = get(keyPrev2(ep.Prev2, ep.Prev))
	}
	if p.Task > 0 && ep.Task != "" {
		task = get(keyTask(ep.Task, ep.Prev))
		if p.Task2 > 0 {
			task2 = get(keyTask2(ep.Task, ep.Prev2, ep.Prev))
		}
	}
	var sfs []sfeature // the success model's features, built on first use
	var terms []*counts
	wt := 0.0
	if p.Term > 0 && len(ep.Terms) > 0 {
		wt = p.TermWeight / math.Pow(float64(len(ep.Terms)), p.TermPow)
		for _, t := range ep.Terms {
			if c := get(keyTerm(t, ep.Prev)); c != nil {
				terms = append(terms, c)
			}
		}
	}
	k := float64(len(candidates))
	out := make([]Scored, len(candidates))
	logPw := make([]float64, len(candidates))
	logS := make([]float64, len(candidates))
	logT := make([]float64, len(candidates))
	norm := 0.0
	for i, to := range candidates {
		p0 := 1 / k
		if all != nil {
			p0 = (m.succ(all, to) + 1) / (all.N + k)
		}
		p1, s1 := p0, 0.5
		if prev != nil {
			p1 = (m.succ(prev, to) + p.Base*p0) / (prev.N + p.Base)
			s1 = (m.succ(prev, to) + 1) / (m.tries(prev, to) + 2)
		}
		p2, s2 := p1, s1
		if prev2 != nil {
			p2 = (m.succ(prev2, to) + p.Prev2*p1) / (prev2.N + p.Prev2)
			s2 = (m.succ(prev2, to) + p.Prev2*s1) / (m.tries(prev2, to) + p.Prev2)
		}
		lw, ls := math.Log(p2), math.Log(s2)
		tries := 0.0
		for _, c := range terms {
			pt := (m.succ(c, to) + p.Term*p2) / (c.N + p.Term)
			st := (m.succ(c, to) + p.Term*s2) / (m.tries(c, to) + p.Term)
			lw += wt * math.Log(pt/p2)
			ls += wt * math.Log(st/s2)
			tries += m.tries(c, to)
		}
		logPw[i], logS[i] = lw, ls
		norm += math.Exp(lw)
		if p.Logistic {
			if sfs == nil {
				sfs = m.sfeatures(ep, "")
			}
			z, sd := m.logitOf(sfs, to)
			logS[i] = -math.Log1p(math.Exp(-z))
			if p.Logit {
				logS[i] = z
			}
			out[i].Score = explore * sd
		} else if explore > 0 {
			out[i].Score = explore / math.Sqrt(1+tries/float64(max(1, len(ep.Terms))))
		}
	}
	for i, to := range candidates {
		pw := math.Exp(logPw[i]) / norm
		pT := pw
		if task != nil {
			pT = (m.succ(task, to) + p.Task*pw) / (task.N + p.Task)
		}
		if task != nil && !p.Logistic {
			sT := (m.succ(task, to) + math.Exp(logS[i])) / (m.tries(task, to) + 1)
			logS[i] = math.Log(sT)
		}
		if task2 != nil {
			pT = (m.succ(task2, to) + p.Task2*pT) / (task2.N + p.Task2)
		}
		out[i].To = to
		logT[i] = math.Log(pT)
		out[i].Score += m.freq()*logT[i] + p.Success*logS[i]
		if ep.failed[to] >= 2 && p.Drop > 0 {
			out[i].Score += math.Log(p.Drop)
		}
	}
	if p.Hedge > 0 && remember {
		ep.remember(candidates, logT, logS, p.Success)
	}
	slices.SortStableFunc(out, func(a, b Scored) int {
		if d := cmp.Compare(b.Score, a.Score); d != 0 {
			return d
		}
		return cmp.Compare(a.To, b.To)
	})
	return out
}

// freq is the exponent of the frequencies: Params.Freq, or with
// Params.Hedge the weight the agent's own choices have earned.
func (m *Model) freq() float64 {
	if m.P.Hedge > 0 {
		return m.beta
	}
	return m.P.Freq
}

// hedge updates the frequencies' weight after the agent's own successful
// call to: the posterior that the predictor with frequencies, rather than
// the one without, predicts the agent's calls (a Bayesian mixture of the
// two), with a share Hedge of the weight spread back so that it keeps
// following a change.
func (m *Model) hedge(ep *Episode, to string) {
	qf, qs, ok := ep.predicted(to)
	if !ok {
		return
	}
	b := m.beta * qf / (m.beta*qf + (1-m.beta)*qs)
	m.beta = (1-m.P.Hedge)*b + m.P.Hedge/2
}

// Learn counts the call to made in the episode's current state (before it
// moves) under every key of that state, then moves the episode's trail.
func (m *Model) Learn(ep *Episode, to string, ok bool) { m.Observe(ep, nil, to, value(ok), 1, true) }

func value(ok bool) float64 {
	if ok {
		return 1
	}
	return 0
}

// Observe is Learn for a call the agent may have made on the model's
// advice: own says the agent chose it itself. Only its own choices are
// counted as what agents do next (the frequencies), as they are evidence
// of which steps move a task on; a step taken because the model ranked it
// first would otherwise count for itself and lock the first lucky step in.
// With Params.Logistic, the step's success is learned from every call.
//
// candidates are the steps the agent could have taken: with Params.Hedge
// the frequencies' weight learns from how well the ranking with them, and
// the one without, predicted the agent's own call among them. Nil: the
// candidates of the episode's last Rank.
//
// y is the call's success, 1 or 0, or between for a partial success: a
// call of y ≥ ½ counts as a success (it moved the task on), and the
// success model learns y itself, weighed w (an observed outcome's
// confidence; the counts are of whole calls).
func (m *Model) Observe(ep *Episode, candidates []string, to string, y, w float64, own bool) {
	ok := y >= 0.5
	m.calls++
	if own && ok && m.P.Hedge > 0 {
		if candidates != nil {
			m.rank(ep, candidates, 0, true)
		}
		m.hedge(ep, to)
	}
	if own || !m.P.Logistic {
		keys := []string{keyAll(), keyPrev(ep.Prev)}
		for _, f := range m.features(ep) {
			keys = append(keys, f.key)
		}
		m.add(keys, to, ok)
		if m.P.MarkFailed && ep.At != ep.Prev {
			// After a failed call the step is also one from where the agent
			// last succeeded: the trail's transition, which the failure
			// does not cut.
			m.add([]string{keyPrev(ep.At)}, to, ok)
		}
		if m.store == nil && m.P.MaxKeys > 0 && len(m.tables) > m.P.MaxKeys {
			m.evict()
		}
	}
	if m.P.Logistic {
		m.learnSuccess(ep, to, y, w)
		if m.store == nil && m.P.MaxKeys > 0 && m.Weights() > m.P.MaxKeys {
			m.evictWeights()
		}
	}
	ep.observe(to, ok, m.P.MoveOnFailure, m.P.MarkFailed)
}

// add counts a call under keys.
func (m *Model) add(keys []string, to string, ok bool) {
	for _, k := range keys {
		c := m.table(k)
		if c == nil {
			c = &counts{To: map[string]*outcomes{}, fresh: m.store != nil}
			m.tables[k] = c
		}
		m.touch(k)
		d := m.P.Decay
		c.U++
		if d > 0 {
			c.N *= 1 - d
		}
		c.Last = m.calls
		o := c.To[to]
		if o == nil {
			o = &outcomes{U: c.U}
			c.To[to] = o
		}
		k := c.fade(o.U, d)
		o.S, o.F, o.U = o.S*k, o.F*k, c.U
		c.touch(to)
		if ok {
			c.N++
			c.M++
			o.S++
			o.NS++
		} else {
			o.F++
			o.NF++
		}
	}
}

// evict drops an eighth of the keys, the least useful (ties: the key's
// order), so that eviction is rare and its cost amortised; the key of
// every context and the keys of where the agent is are kept. A key's use
// is the evidence it adds to where the agent is: the log-likelihood gain of
// its counts over the (prev) key's estimate. A common word's key, which
// says what the (prev) key says, goes first; a recurring task's own key,
// with few outcomes that decide its steps, stays.
func (m *Model) evict() {
	type kv struct {
		key string
		use float64
	}
	var ks []kv
	for k, c := range m.tables {
		if c == nil || k == keyAll() || strings.HasPrefix(k, keyPrev("")) {
			continue
		}
		ks = append(ks, kv{k, m.use(k, c)})
	}
	slices.SortFunc(ks, func(a, b kv) int {
		if d := cmp.Compare(a.use, b.use); d != 0 {
			return d
		}
		return cmp.Compare(a.key, b.key)
	})
	for _, x := range ks[:min(len(ks), max(1, m.P.MaxKeys/8))] {
		delete(m.tables, x.key)
	}
}

// use is Σ_to c(to)·log(P_key(to) / P_prev(to)) with both estimates
// smoothed (add ½ over the tools the two keys name).
func (m *Model) use(k string, c *counts) float64 {
	prev := k[strings.LastIndex(k, sep)+1:]
	parent := m.tables[keyPrev(prev)]
	if parent == nil || c.N == 0 {
		return 0
	}
	nk := float64(len(parent.To) + 1)
	u := 0.0
	for to := range c.To {
		if n := m.succ(c, to); n > 0 {
			u += n * math.Log(((n+0.5)/(c.N+0.5*nk))/((m.succ(parent, to)+0.5)/(parent.N+0.5*nk)))
		}
	}
	return u
}

// evictWeights drops an eighth of the success model's weights, those
// whose mean moved least from its prior's 0 (ties: the key's order); a
// weight dropped is back at its prior.
func (m *Model) evictWeights() {
	moved := func(g map[string]*weight) float64 {
		x := 0.0
		for _, w := range g {
			x = max(x, math.Abs(w.M))
		}
		return x
	}
	keys := slices.Collect(maps.Keys(m.weights))
	slices.SortFunc(keys, func(a, b string) int {
		if d := cmp.Compare(moved(m.weights[a]), moved(m.weights[b])); d != 0 {
			return d
		}
		return cmp.Compare(a, b)
	})
	for n := 0; n < max(1, m.P.MaxKeys/8) && len(keys) > 0; keys = keys[1:] {
		n += len(m.weights[keys[0]])
		delete(m.weights, keys[0])
	}
}
