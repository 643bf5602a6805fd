package learnbench

import (
	"fmt"
	"math"
)

// A MetricDef names a summary metric and says which way is better.
type MetricDef struct {
	Key    string `json:"key"`
	Label  string `json:"label"`
	Higher bool   `json:"higher_is_better"`
	Doc    string `json:"doc"`
}

// Metrics are the summary metrics of a run, one value per seed each.
var Metrics = []MetricDef{
	{"step_success", "step success", true, "true successes / steps, all episodes"},
	{"step_success_late", "step success, last third", true, "true successes / steps, episodes from 2N/3 on"},
	{"episode_success", "episode success", true, "episodes solved / episodes"},
	{"episode_success_late", "episode success, last third", true, "episodes solved / episodes, from 2N/3 on"},
	{"regret", "cumulative regret", false, "sum over steps of the oracle's success probability at the agent's state minus the chosen action's"},
	{"regret_late", "regret, last third", false, "the same sum over the episodes from 2N/3 on"},
	{"hit1_seen", "hit@1 (seen)", true, "final probe: best step ranked first, over the seen families' positions and probe sentences"},
	{"hit3_seen", "hit@3 (seen)", true, "final probe: best step in the first three"},
	{"ndcg5_seen", "nDCG@5 (seen)", true, "final probe: nDCG@5 with gains 2^rel−1 (best 2, alternative 1)"},
	{"distinct_top1", "distinct top-1 at shared starts", true, "final probe: distinct first suggestions across sentences at each shared start tool, summed (target: distinct_best)"},
	{"distinct_best", "distinct best first steps", true, "the target of distinct_top1 (a property of the world)"},
	{"drift_recovery", "drift recovery (episodes)", false, "episodes after the drift until the rolling per-step success (50 episodes) is back within 90% of its level before the drift; 0 if it never fell below"},
	{"late_hit3_first", "late hit@3 at first sight", true, "hit@3 of the late families probed just before their first episode (transfer)"},
	{"late_hit3_10", "late hit@3 after 10", true, "hit@3 of the late families probed after their tenth episode"},
	{"calls_per_solved", "tool calls per solved episode", false, "steps taken in solved episodes / solved episodes"},
	{"ucs_calls_per_episode", "ucs calls per episode", false, "consults + reports + positioning reports per episode (ucs policies only)"},
}

// seedMetrics computes the summary metrics of one seed run.
func seedMetrics(w *World, plan *Plan, r *SeedRun) map[string]float64 {
	m := map[string]float64{}
	late := plan.LateStart
	var steps, succ, lsteps, lsucc, solved, lsolved, solvedSteps float64
	var regret, lregret float64
	for e, ep := range r.Episodes {
		steps += float64(ep.Steps)
		succ += float64(ep.Successes)
		regret += ep.Regret
		if ep.Solved {
			solved++
			solvedSteps += float64(ep.Steps)
		}
		if e >= late {
			lsteps += float64(ep.Steps)
			lsucc += float64(ep.Successes)
			lregret += ep.Regret
			if ep.Solved {
				lsolved++
			}
		}
	}
	n, ln := float64(len(r.Episodes)), float64(len(r.Episodes)-late)
	m["step_success"] = ratio(succ, steps)
	m["step_success_late"] = ratio(lsucc, lsteps)
	m["episode_success"] = ratio(solved, n)
	m["episode_success_late"] = ratio(lsolved, ln)
	m["regret"] = regret
	m["regret_late"] = lregret
	m["calls_per_solved"] = ratio(solvedSteps, solved)
	m["drift_recovery"] = driftRecovery(r.Episodes, plan.DriftAt)
	for _, k := range []string{"hit1_seen", "hit3_seen", "ndcg5_seen", "distinct_top1", "distinct_best", "late_hit3_first", "late_hit3_10"} {
		m[k] = math.NaN()
	}
	if len(r.Probes) > 0 && r.Probes[len(r.Probes)-1].Episode == plan.Episodes {
		final := r.Probes[len(r.Probes)-1]
		m["hit1_seen"] = float64(final.Hit1Seen)
		m["hit3_seen"] = float64(final.Hit3Seen)
		m["ndcg5_seen"] = float64(final.NDCG5Seen)
		m["distinct_top1"] = float64(final.DistinctTop1)
		m["distinct_best"] = float64(final.DistinctBest)
	}
	for _, p := range r.Probes {
		if p.Episode == plan.LateStart {
			m["late_hit3_first"] = float64(p.Hit3Late)
		}
		if p.Episode == plan.Late10 {
			m["late_hit3_10"] = float64(p.Hit3Late)
		}
	}
	c := r.Calls
	m["ucs_calls_per_episode"] = float64(c.Consults+c.Reports+c.Positioning) / n
	return m
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return math.NaN()
	}
	return a / b
}

// driftRecovery is the number of episodes after the drift until the rolling
// per-step success (pooled over a window of DriftWindow episodes, or the
// episodes before the drift when fewer) is back within 90% of its level
// over the window before the drift. It is 0 when it never falls below,
// and the number of episodes left when it never comes back.
func driftRecovery(eps []EpisodeResult, drift int) float64 {
	win := min(DriftWindow, drift)
	if win == 0 || drift >= len(eps) {
		return math.NaN()
	}
	rolling := func(end int) float64 { // episodes (end−win, end]
		var s, n float64
		for _, ep := range eps[end-win+1 : end+1] {
			s += float64(ep.Successes)
			n += float64(ep.Steps)
		}
		return ratio(s, n)
	}
	threshold := 0.9 * rolling(drift-1)
	dipped := false
	for e := drift; e < len(eps); e++ {
		r := rolling(e)
		if !dipped {
			dipped = r < threshold
			continue
		}
		if r >= threshold {
			return float64(e - drift + 1)
		}
	}
	if !dipped {
		return 0
	}
	return float64(len(eps) - drift)
}

// A Band is a mean over seeds with its 95% interval.
type Band struct {
	Mean num `json:"mean"`
	Lo   num `json:"lo"`
	Hi   num `json:"hi"`
}

func band(xs []float64) Band {
	iv := MeanCI(xs)
	return Band{num(iv.Mean), num(iv.Lo), num(iv.Hi)}
}

// A Stat is a summary metric over seeds: the mean, its 95% interval and
// each seed's value.
type Stat struct {
	Metric string `json:"metric"`
	Mean   num    `json:"mean"`
	Lo     num    `json:"lo"`
	Hi     num    `json:"hi"`
	Values []num  `json:"values"`
}

// Curves are learning curves, mean and 95% interval over seeds.
type Curves struct {
	// BinEnd[b] is the number of episodes at the end of bin b.
	BinEnd           []int  `json:"bin_end"`
	StepSuccess      []Band `json:"step_success"`
	EpisodeSuccess   []Band `json:"episode_success"`
	RegretPerEpisode []Band `json:"regret_per_episode"`
	CumRegret        []Band `json:"cumulative_regret"`
	// Probes at the probe points every seed shares.
	ProbeAt   []int  `json:"probe_at"`
	Hit1Seen  []Band `json:"hit1_seen"`
	Hit3Seen  []Band `json:"hit3_seen"`
	NDCG5Seen []Band `json:"ndcg5_seen"`
	Hit3Late  []Band `json:"hit3_late"`
}

// PolicyResult is everything measured of one policy.
type PolicyResult struct {
	Name string `json:"name"`
	// SameAs names the policy whose runs these are when both have the same
	// configuration (v2 and ucs@1.0 without -ucs-init-args).
	SameAs  string       `json:"same_as,omitempty"`
	Summary []Stat       `json:"summary"`
	Curves  Curves       `json:"curves"`
	Calls   []CallCounts `json:"calls,omitempty"`
	values  map[string][]float64
}

func aggregate(cfg *Config, w *World, plans []*Plan, s PolicySpec, runs []*SeedRun) PolicyResult {
	pr := PolicyResult{Name: s.Name, values: map[string][]float64{}}
	for i, r := range runs {
		m := seedMetrics(w, plans[i], r)
		for _, d := range Metrics {
			pr.values[d.Key] = append(pr.values[d.Key], m[d.Key])
		}
		if s.UsesUCS() {
			pr.Calls = append(pr.Calls, r.Calls)
		}
	}
	for _, d := range Metrics {
		vals := pr.values[d.Key]
		iv := MeanCI(vals)
		st := Stat{Metric: d.Key, Mean: num(iv.Mean), Lo: num(iv.Lo), Hi: num(iv.Hi)}
		for _, v := range vals {
			st.Values = append(st.Values, num(v))
		}
		pr.Summary = append(pr.Summary, st)
	}
	pr.Curves = curves(cfg, plans, runs)
	return pr
}

func curves(cfg *Config, plans []*Plan, runs []*SeedRun) Curves {
	var c Curves
	n := cfg.Episodes
	for start := 0; start < n; start += cfg.Bin {
		end := min(start+cfg.Bin, n)
		c.BinEnd = append(c.BinEnd, end)
		var ss, es, rp, cr []float64
		for _, r := range runs {
			var steps, succ, solved, regret, cum float64
			for e, ep := range r.Episodes[:end] {
				cum += ep.Regret
				if e < start {
					continue
				}
				steps += float64(ep.Steps)
				succ += float64(ep.Successes)
				regret += ep.Regret
				if ep.Solved {
					solved++
				}
			}
			k := float64(end - start)
			ss, es, rp, cr = append(ss, ratio(succ, steps)), append(es, solved/k), append(rp, regret/k), append(cr, cum)
		}
		c.StepSuccess = append(c.StepSuccess, band(ss))
		c.EpisodeSuccess = append(c.EpisodeSuccess, band(es))
		c.RegretPerEpisode = append(c.RegretPerEpisode, band(rp))
		c.CumRegret = append(c.CumRegret, band(cr))
	}
	// Probe points every seed has (Late10 differs from seed to seed).
	common := map[int]int{}
	for _, r := range runs {
		for _, p := range r.Probes {
			common[p.Episode]++
		}
	}
	for _, e := range plans[0].ProbeAt {
		if common[e] != len(runs) {
			continue
		}
		c.ProbeAt = append(c.ProbeAt, e)
		var h1, h3, nd, l3 []float64
		for _, r := range runs {
			for _, p := range r.Probes {
				if p.Episode == e {
					h1, h3, nd, l3 = append(h1, float64(p.Hit1Seen)), append(h3, float64(p.Hit3Seen)),
						append(nd, float64(p.NDCG5Seen)), append(l3, float64(p.Hit3Late))
					break
				}
			}
		}
		c.Hit1Seen = append(c.Hit1Seen, band(h1))
		c.Hit3Seen = append(c.Hit3Seen, band(h3))
		c.NDCG5Seen = append(c.NDCG5Seen, band(nd))
		c.Hit3Late = append(c.Hit3Late, band(l3))
	}
	return c
}

// Results are a whole benchmark run.
type Results struct {
	Benchmark string         `json:"benchmark"`
	Config    ResultsConfig  `json:"config"`
	World     WorldInfo      `json:"world"`
	Metrics   []MetricDef    `json:"metrics"`
	Policies  []PolicyResult `json:"policies"`
}

// ResultsConfig records how the results were made.
type ResultsConfig struct {
	Seeds          []uint64 `json:"seeds"`
	Episodes       int      `json:"episodes"`
	Policies       []string `json:"policies"`
	UCS            string   `json:"ucs"` // "in process" or "binary"
	UCSInitArgs    []string `json:"ucs_init_args"`
	UCSEnv         []string `json:"ucs_env"`
	ProbeEvery     int      `json:"probe_every"`
	ProbeSentences int      `json:"probe_sentences"`
	Bin            int      `json:"bin"`
	DriftAt        int      `json:"drift_at"`
	LateStart      int      `json:"late_start"`
}

// WorldInfo describes the environment.
type WorldInfo struct {
	Tools             int          `json:"tools"`
	Edges             int          `json:"edges"`
	Families          []FamilyInfo `json:"families"`
	SharedStarts      []string     `json:"shared_starts"`
	DistinctBestFirst [2]int       `json:"distinct_best_first"` // before and after the drift
}

// FamilyInfo describes one family.
type FamilyInfo struct {
	Name         string   `json:"name"`
	Chain        []string `json:"chain"`
	DriftedChain []string `json:"drifted_chain,omitempty"`
	Late         bool     `json:"late,omitempty"`
	Sentences    int      `json:"distinct_sentences"`
}

func newResults(cfg *Config, w *World, seeds []uint64, plans []*Plan) *Results {
	ucs := "in process"
	if cfg.UCS != "" {
		ucs = "binary"
	}
	r := &Results{Benchmark: "learnbench/1", Metrics: Metrics, Config: ResultsConfig{
		Seeds: seeds, Episodes: cfg.Episodes, Policies: cfg.Policies, UCS: ucs,
		UCSInitArgs: nonNil(cfg.UCSInitArgs), UCSEnv: nonNil(cfg.UCSEnv),
		ProbeEvery: cfg.ProbeEvery, ProbeSentences: cfg.ProbeSentences, Bin: cfg.Bin,
		DriftAt: plans[0].DriftAt, LateStart: plans[0].LateStart,
	}}
	r.World.Tools = len(w.Tools)
	for _, t := range w.Tools {
		r.World.Edges += len(w.Out(t.Name))
	}
	for i, f := range w.Families {
		fi := FamilyInfo{Name: f.Name, Chain: f.Chain(false), Late: f.Late, Sentences: w.ParaphraseCount(i)}
		if f.Drifts() {
			fi.DriftedChain = f.Chain(true)
		}
		r.World.Families = append(r.World.Families, fi)
	}
	for _, s := range w.SharedStarts() {
		r.World.SharedStarts = append(r.World.SharedStarts, s.Tool)
	}
	r.World.DistinctBestFirst = [2]int{w.DistinctBestFirst(false), w.DistinctBestFirst(true)}
	return r
}

func nonNil(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}

// Policy returns the results of a policy by name.
func (r *Results) Policy(name string) (*PolicyResult, error) {
	for i := range r.Policies {
		if r.Policies[i].Name == name {
			return &r.Policies[i], nil
		}
	}
	return nil, fmt.Errorf("no policy %q in the results", name)
}

// Values returns a policy's per-seed values of a metric.
func (p *PolicyResult) Values(metric string) []float64 {
	if p.values != nil {
		return p.values[metric]
	}
	for _, s := range p.Summary {
		if s.Metric == metric {
			out := make([]float64, len(s.Values))
			for i, v := range s.Values {
				out[i] = float64(v)
			}
			return out
		}
	}
	return nil
}

// Lift is how much better policy a does than policy b on a summary metric,
// paired over seeds (the same seeds ran both): a − b where higher is
// better, b − a where lower is better (regret), so a positive lift always
// means a is better. Its interval is the 95% t interval of the paired
// differences.
func (r *Results) Lift(a, b, metric string) (Interval, error) {
	var def *MetricDef
	for i := range Metrics {
		if Metrics[i].Key == metric {
			def = &Metrics[i]
		}
	}
	if def == nil {
		return Interval{}, fmt.Errorf("unknown metric %q", metric)
	}
	pa, err := r.Policy(a)
	if err != nil {
		return Interval{}, err
	}
	pb, err := r.Policy(b)
	if err != nil {
		return Interval{}, err
	}
	if def.Higher {
		return PairedDiff(pa.Values(metric), pb.Values(metric)), nil
	}
	return PairedDiff(pb.Values(metric), pa.Values(metric)), nil
}
