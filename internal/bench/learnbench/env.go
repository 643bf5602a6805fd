package learnbench

import (
	"math"
	"math/rand/v2"
)

// RNG streams of a seed. Every policy run on a seed sees the same plan
// (families, sentences, probe sentences) and the same uniform draw at each
// (episode, step) — common random numbers, so paired differences between
// policies are tight.
const (
	streamPlan   = 1
	streamProbe  = 2
	streamPolicy = 3
	saltSuccess  = 0x5ccE55
	saltFlip     = 0xF11B
)

// A Plan is what a seed fixes for every policy: the family and context
// sentence of each episode, when the drift happens and when the late
// families appear, the probe sentences, and the probe schedule.
type Plan struct {
	Seed      uint64
	Episodes  int
	Family    []int
	Context   []string
	DriftAt   int // episodes from DriftAt on see the drifted chains
	LateStart int // late families are drawn from LateStart on
	// Late10 is the number of episodes after which 10 late-family episodes
	// have been played (Episodes when fewer are played).
	Late10 int
	// ProbeContexts[f] are the sentences probes ask about for family f.
	ProbeContexts [][]string
	// ProbeAt lists the probe points, ascending: after that many episodes.
	ProbeAt []int
}

// NewPlan draws the plan of a seed. Probes run every probeEvery episodes
// (and after the last), at the late families' first appearance and after
// their tenth episode; each family is probed with probeSentences sentences.
// A negative probeEvery means no probes at all.
func NewPlan(w *World, seed uint64, episodes, probeEvery, probeSentences int) *Plan {
	p := &Plan{Seed: seed, Episodes: episodes, DriftAt: episodes / 2, LateStart: 2 * episodes / 3}
	r := rand.New(rand.NewPCG(seed, streamPlan))
	var early, all []int
	for i, f := range w.Families {
		all = append(all, i)
		if !f.Late {
			early = append(early, i)
		}
	}
	lateCount := 0
	p.Late10 = episodes
	for e := range episodes {
		active := early
		if e >= p.LateStart {
			active = all
		}
		f := active[r.IntN(len(active))]
		p.Family = append(p.Family, f)
		p.Context = append(p.Context, w.Paraphrase(f, r))
		if w.Families[f].Late {
			lateCount++
			if lateCount == 10 {
				p.Late10 = e + 1
			}
		}
	}
	pr := rand.New(rand.NewPCG(seed, streamProbe))
	for f := range w.Families {
		var cs []string
		for len(cs) < probeSentences {
			s := w.Paraphrase(f, pr)
			if !contains(cs, s) {
				cs = append(cs, s)
			}
		}
		p.ProbeContexts = append(p.ProbeContexts, cs)
	}
	if probeEvery < 0 {
		return p // no probes
	}
	at := map[int]bool{episodes: true, p.LateStart: true, p.Late10: true}
	if probeEvery > 0 {
		for e := 0; e < episodes; e += probeEvery {
			at[e] = true
		}
	}
	for e := 0; e <= episodes; e++ {
		if at[e] {
			p.ProbeAt = append(p.ProbeAt, e)
		}
	}
	return p
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// uniform is the draw at (seed, episode, step) for a purpose (salt), in
// [0, 1): a SplitMix64 hash, so it does not depend on what else was drawn.
func uniform(seed uint64, episode, step int, salt uint64) float64 {
	x := seed*0x9E3779B97F4A7C15 ^ uint64(episode)<<20 ^ uint64(step)<<4 ^ salt*0xD1B54A32D192ED03
	x += 0x9E3779B97F4A7C15
	x = (x ^ x>>30) * 0xBF58476D1CE4E5B9
	x = (x ^ x>>27) * 0x94D049BB133111EB
	x ^= x >> 31
	return float64(x>>11) / (1 << 53)
}

// A State is what a policy may look at when it chooses. Context, Cur and
// Out are what an agent knows; Family, Position and Drifted are the hidden
// truth, which only the tabular baselines (Family) and the oracle (all)
// use.
type State struct {
	World    *World
	Episode  int
	Step     int // steps taken in this episode
	Context  string
	Cur      string   // the tool the agent is at
	Out      []string // its out-neighbours
	Family   int
	Position int // steps of the task done
	Drifted  bool
	// Succeeded is the true outcome of the step just taken, set before
	// Observe: what a tool's exit code says, for the policies that observe
	// their outcomes (ucs exec) or never misreport them.
	Succeeded bool
}

// EpisodeResult is what one episode did.
type EpisodeResult struct {
	Steps     int
	Successes int     // steps whose true outcome was success
	Expected  float64 // sum of the chosen actions' success probabilities
	Regret    float64 // sum over steps of the oracle's minus the chosen probability
	Solved    bool
}

// playEpisode runs episode e of the plan with a policy. A failed step
// leaves the agent where it was; the episode ends when the task is done or
// after len(chain) + StepSlack steps.
func playEpisode(w *World, plan *Plan, e int, pol Policy) (EpisodeResult, error) {
	f := plan.Family[e]
	fam := &w.Families[f]
	st := &State{World: w, Episode: e, Context: plan.Context[e], Cur: fam.Start, Family: f, Drifted: e >= plan.DriftAt}
	var res EpisodeResult
	limit := len(fam.Steps) + StepSlack
	if err := pol.Begin(st); err != nil {
		return res, err
	}
	for st.Step = 0; st.Step < limit && st.Position < len(fam.Steps); st.Step++ {
		st.Out = w.Out(st.Cur)
		if len(st.Out) == 0 {
			break // a dead end: a tool with no way on (reached by a lucky wrong step)
		}
		a, err := pol.Choose(st)
		if err != nil {
			return res, err
		}
		p := w.P(f, st.Position, st.Drifted, st.Cur, a)
		_, pStar := w.BestP(f, st.Position, st.Drifted, st.Cur)
		success := uniform(plan.Seed, e, st.Step, saltSuccess) < p
		reported := success
		if uniform(plan.Seed, e, st.Step, saltFlip) < FlipProb {
			reported = !reported
		}
		res.Steps++
		res.Expected += p
		res.Regret += math.Max(0, pStar-p)
		if success {
			res.Successes++
		}
		st.Succeeded = success
		if err := pol.Observe(st, a, reported); err != nil {
			return res, err
		}
		if success {
			st.Cur = a
			st.Position++
		}
	}
	res.Solved = st.Position == len(fam.Steps)
	return res, nil
}
