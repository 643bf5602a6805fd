package realbench

import "slices"

// Results are the figures of one stream.
type Results struct {
	Dataset string `json:"dataset"`
	Split   string `json:"split,omitempty"`
	// The stream: episodes, tool calls, calls that answered with an error,
	// distinct tools.
	Episodes int `json:"episodes"`
	Calls    int `json:"calls"`
	Errors   int `json:"errors"`
	Tools    int `json:"tools"`
	// What is scored: the second half of the stream's episodes, and in it
	// the calls that succeeded (Steps) and every consult (Consults).
	ScoredEpisodes int `json:"scored_episodes"`
	ScoredSteps    int `json:"scored_steps"`
	Consults       int `json:"consults"`
	// QuarterSteps is how many succeeded calls each quarter of the stream
	// has (the denominators of hit@1 by quarter).
	QuarterSteps [4]int         `json:"quarter_steps"`
	Resamples    int            `json:"resamples"`
	Seed         uint64         `json:"seed"`
	Systems      []SystemInfo   `json:"systems"`
	Methods      []MethodResult `json:"methods"`
	Paired       []Paired       `json:"paired"`
}

// SystemInfo says how a ucs system was driven and how many commands it ran.
type SystemInfo struct {
	Name     string `json:"name"`
	Driven   string `json:"driven"`
	UCSCalls int    `json:"ucs_calls"`
}

// MethodResult is one method's figures.
type MethodResult struct {
	Method string `json:"method"`
	// Hit1 and Hit3: the share of scored steps whose agent call is the
	// method's first suggestion, or among its first three.
	Hit1 Interval `json:"hit1"`
	Hit3 Interval `json:"hit3"`
	// FirstStep is hit@1 on the scored steps that are their episode's
	// first call.
	FirstStep Interval `json:"first_step_hit1"`
	// ByQuarter is hit@1 on the succeeded calls of each quarter of the
	// stream's episodes (every quarter, not only the scored half): does
	// the method improve with experience?
	ByQuarter [4]float64 `json:"hit1_by_quarter"`
	// FailedTwice counts the consults of the scored half whose first
	// suggestion is a tool that had already failed at least twice in the
	// episode; FailedTwiceRate is its share of Results.Consults.
	FailedTwice     int     `json:"failed_twice_top"`
	FailedTwiceRate float64 `json:"failed_twice_top_rate"`
}

// Paired is a system's hit@1 and hit@3 minus a baseline's on the same
// bootstrap resamples (positive: the system names the agent's call more
// often).
type Paired struct {
	System   string   `json:"system"`
	Baseline string   `json:"baseline"`
	Hit1     Interval `json:"hit1"`
	Hit3     Interval `json:"hit3"`
}

// ScoreOptions sets the bootstrap.
type ScoreOptions struct {
	Resamples int    // default DefaultResamples
	Seed      uint64 // default DefaultSeed
}

// Score computes the figures of a replayed stream.
func Score(s *Stream, opt ScoreOptions) *Results {
	if opt.Resamples <= 0 {
		opt.Resamples = DefaultResamples
	}
	if opt.Seed == 0 {
		opt.Seed = DefaultSeed
	}
	half := s.Episodes / 2
	nScored := s.Episodes - half
	r := &Results{Dataset: s.Dataset, Episodes: s.Episodes, Calls: len(s.Steps), Tools: len(s.Tools),
		ScoredEpisodes: nScored, Resamples: opt.Resamples, Seed: opt.Seed}
	for si, sys := range s.Systems {
		info := SystemInfo{Name: sys.Name, Driven: sys.UCS.Describe()}
		if si < len(s.UCSCalls) {
			info.UCSCalls = s.UCSCalls[si]
		}
		r.Systems = append(r.Systems, info)
	}
	nm := len(s.Methods)
	perEpisode := func() [][]float64 {
		out := make([][]float64, nm)
		for m := range out {
			out[m] = make([]float64, nScored)
		}
		return out
	}
	hit1, hit3, first := perEpisode(), perEpisode(), perEpisode()
	den, firstDen := make([]float64, nScored), make([]float64, nScored)
	var qHits [][4]int = make([][4]int, nm)
	failedTwice := make([]int, nm)
	failures := map[string]int{} // the current episode's failed calls per tool
	episode := -1
	for _, st := range s.Steps {
		if st.Episode != episode {
			episode = st.Episode
			clear(failures)
		}
		if !st.OK {
			r.Errors++
		}
		q := 0
		if s.Episodes > 0 {
			q = st.Episode * 4 / s.Episodes
		}
		scored := st.Episode >= half
		if scored {
			r.Consults++
			for m := range nm {
				if rk := st.Ranked[m]; len(rk) > 0 && failures[rk[0]] >= 2 {
					failedTwice[m]++
				}
			}
		}
		if !st.OK {
			failures[st.Tool]++
			continue
		}
		r.QuarterSteps[q]++
		j := st.Episode - half
		if scored {
			r.ScoredSteps++
			den[j]++
			if st.Index == 0 {
				firstDen[j]++
			}
		}
		for m := range nm {
			rk := st.Ranked[m]
			at1 := len(rk) > 0 && rk[0] == st.Tool
			if at1 {
				qHits[m][q]++
			}
			if !scored {
				continue
			}
			if at1 {
				hit1[m][j]++
				if st.Index == 0 {
					first[m][j]++
				}
			}
			if slices.Contains(rk[:min(len(rk), 3)], st.Tool) {
				hit3[m][j]++
			}
		}
	}
	rs := newResampler(nScored, opt.Resamples, opt.Seed)
	for m, name := range s.Methods {
		mr := MethodResult{Method: name, Hit1: rs.ratio(hit1[m], den), Hit3: rs.ratio(hit3[m], den),
			FirstStep: rs.ratio(first[m], firstDen), FailedTwice: failedTwice[m]}
		for q := range 4 {
			if r.QuarterSteps[q] > 0 {
				mr.ByQuarter[q] = float64(qHits[m][q]) / float64(r.QuarterSteps[q])
			}
		}
		if r.Consults > 0 {
			mr.FailedTwiceRate = float64(failedTwice[m]) / float64(r.Consults)
		}
		r.Methods = append(r.Methods, mr)
	}
	candidates := len(s.Systems) + s.Protos // the systems and protos, each paired against every baseline
	for si := range candidates {
		for b := candidates; b < nm; b++ {
			r.Paired = append(r.Paired, Paired{System: s.Methods[si], Baseline: s.Methods[b],
				Hit1: rs.diff(hit1[si], hit1[b], den), Hit3: rs.diff(hit3[si], hit3[b], den)})
		}
	}
	return r
}
