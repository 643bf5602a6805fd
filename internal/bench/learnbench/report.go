package learnbench

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
)

// JSON returns the results as indented JSON. It holds no time, path or
// other trace of the machine: the same configuration gives the same bytes.
func (r *Results) JSON() ([]byte, error) {
	b, err := json.MarshalIndent(r, "", " ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// digits is how many decimals a metric's table cells show.
func digits(metric string) int {
	switch metric {
	case "regret", "regret_late", "drift_recovery", "distinct_top1", "distinct_best", "calls_per_solved", "ucs_calls_per_episode":
		return 1
	}
	return 3
}

func cell(s Stat, d int) string {
	f := func(x num) string {
		if math.IsNaN(float64(x)) {
			return "–"
		}
		return fmt.Sprintf("%.*f", d, float64(x))
	}
	if math.IsNaN(float64(s.Lo)) {
		return f(s.Mean)
	}
	return fmt.Sprintf("%s [%s, %s]", f(s.Mean), f(s.Lo), f(s.Hi))
}

func (p *PolicyResult) stat(metric string) Stat {
	for _, s := range p.Summary {
		if s.Metric == metric {
			return s
		}
	}
	return Stat{Metric: metric, Mean: num(math.NaN()), Lo: num(math.NaN()), Hi: num(math.NaN())}
}

func label(metric string) string {
	for _, d := range Metrics {
		if d.Key == metric {
			return d.Label
		}
	}
	return metric
}

// table writes one Markdown table: a row per policy, a column per metric.
func (r *Results) table(w io.Writer, metrics []string) {
	fmt.Fprintf(w, "| policy |")
	for _, m := range metrics {
		fmt.Fprintf(w, " %s |", label(m))
	}
	fmt.Fprintf(w, "\n| --- |%s\n", strings.Repeat(" ---: |", len(metrics)))
	for i := range r.Policies {
		p := &r.Policies[i]
		name := p.Name
		if p.SameAs != "" {
			name += " (= " + p.SameAs + ")"
		}
		fmt.Fprintf(w, "| %s |", name)
		for _, m := range metrics {
			fmt.Fprintf(w, " %s |", cell(p.stat(m), digits(m)))
		}
		fmt.Fprintln(w)
	}
}

// WriteTables prints the summary tables in Markdown: outcomes, ranking
// quality, and the lifts of every policy over tabular ε-greedy and v2.
func (r *Results) WriteTables(w io.Writer) {
	c := r.Config
	fmt.Fprintf(w, "Seeds %s, %d episodes each, ucs %s", seedRange(c.Seeds), c.Episodes, c.UCS)
	if len(c.UCSInitArgs) > 0 {
		fmt.Fprintf(w, ", ucs init args %q", strings.Join(c.UCSInitArgs, " "))
	}
	fmt.Fprintf(w, ". Mean [95%% t interval] over seeds.\n\n")
	fmt.Fprintf(w, "Outcomes (drift after episode %d, late families from episode %d; \"last third\" = episodes %d–%d):\n\n",
		c.DriftAt, c.LateStart, c.LateStart+1, c.Episodes)
	r.table(w, []string{"step_success", "step_success_late", "episode_success", "episode_success_late", "regret", "regret_late", "calls_per_solved"})
	fmt.Fprintf(w, "\nRanking against the hidden truth (probes), drift and transfer:\n\n")
	r.table(w, []string{"hit1_seen", "hit3_seen", "ndcg5_seen", "distinct_top1", "late_hit3_first", "late_hit3_10", "drift_recovery"})
	fmt.Fprintf(w, "\nDistinct best first steps at the shared start tools (the target of distinct top-1): %d before the drift, %d after.\n",
		r.World.DistinctBestFirst[0], r.World.DistinctBestFirst[1])
	for _, base := range []string{"tabular", "v2"} {
		if _, err := r.Policy(base); err != nil {
			continue
		}
		fmt.Fprintf(w, "\nLift over %s, paired over seeds (positive: better than %s):\n\n", base, base)
		metrics := []string{"regret", "regret_late", "step_success", "hit1_seen"}
		fmt.Fprintf(w, "| policy |")
		for _, m := range metrics {
			fmt.Fprintf(w, " %s |", label(m))
		}
		fmt.Fprintf(w, "\n| --- |%s\n", strings.Repeat(" ---: |", len(metrics)))
		for _, p := range r.Policies {
			if p.Name == base {
				continue
			}
			fmt.Fprintf(w, "| %s |", p.Name)
			for _, m := range metrics {
				iv, _ := r.Lift(p.Name, base, m)
				fmt.Fprintf(w, " %s |", cell(Stat{Mean: num(iv.Mean), Lo: num(iv.Lo), Hi: num(iv.Hi)}, digits(m)))
			}
			fmt.Fprintln(w)
		}
	}
}

func seedRange(seeds []uint64) string {
	if len(seeds) == 0 {
		return "none"
	}
	if len(seeds) == 1 {
		return fmt.Sprint(seeds[0])
	}
	return fmt.Sprintf("%d–%d", seeds[0], seeds[len(seeds)-1])
}
