package learnbench

import (
	"encoding/json"
	"fmt"
	"io"
)

// WriteTables prints the fleet mode's figures in Markdown.
func (r *FleetResults) WriteTables(out io.Writer) {
	fmt.Fprintf(out, "## Fleet: %d agents sharing %d episodes, then a newcomer's %d (compliance %g, %d seeds from %d)\n\n",
		r.Agents, r.Episodes, r.Newcomer, r.Compliance, len(r.Seeds), r.firstSeed())
	fmt.Fprintf(out, "Settings: %s\n\n", r.Params)
	fmt.Fprintln(out, "| per-agent cumulative regret | mean | 95% CI |")
	fmt.Fprintln(out, "|---|---|---|")
	row := func(name string, iv Interval) {
		fmt.Fprintf(out, "| %s | %.1f | [%.1f, %.1f] |\n", name, iv.Mean, iv.Lo, iv.Hi)
	}
	row("sharing", r.Shared)
	row("isolated", r.Isolated)
	row("isolated − sharing (paired)", r.Gain)
	fmt.Fprintf(out, "\n| newcomer, regret over its first %d episodes | mean | 95%% CI |\n", r.Newcomer)
	fmt.Fprintln(out, "|---|---|---|")
	row("joining the trained fleet", r.NewcomerFleet)
	row("alone", r.NewcomerAlone)
	row("alone − joining (paired)", r.NewcomerGain)
	row("an oracle under the same compliance", r.NewcomerOracle)
	fmt.Fprintf(out, "\nNewcomer's regret joining / alone: %.2f (at most 0.5 asked)\n", r.NewcomerRatio)
	fmt.Fprintf(out, "Oracle newcomer's / alone: %.2f (no ranking goes under it at compliance %g)\n", r.OracleRatio, r.Compliance)
}

func (r *FleetResults) firstSeed() uint64 {
	if len(r.Seeds) == 0 {
		return 0
	}
	return r.Seeds[0].Seed
}

// JSON is the results as indented JSON, the same bytes for the same run.
func (r *FleetResults) JSON() ([]byte, error) {
	type iv struct {
		Mean, Lo, Hi num
		N            int
	}
	conv := func(x Interval) iv { return iv{num(x.Mean), num(x.Lo), num(x.Hi), x.N} }
	type seed struct {
		Seed                         uint64
		Shared, Isolated             num
		NewcomerFleet, NewcomerAlone num
		NewcomerOracle               num
	}
	var seeds []seed
	for _, s := range r.Seeds {
		seeds = append(seeds, seed{s.Seed, num(s.Shared), num(s.Isolated), num(s.NewcomerFleet), num(s.NewcomerAlone), num(s.NewcomerOracle)})
	}
	return json.MarshalIndent(struct {
		Agents, Episodes, Newcomer                 int
		Compliance                                 num
		Params                                     string
		Shared, Isolated, Gain                     iv
		NewcomerFleet, NewcomerAlone, NewcomerGain iv
		NewcomerRatio                              num
		NewcomerOracle                             iv
		OracleRatio                                num
		Seeds                                      []seed
	}{r.Agents, r.Episodes, r.Newcomer, num(r.Compliance), r.Params, conv(r.Shared), conv(r.Isolated), conv(r.Gain),
		conv(r.NewcomerFleet), conv(r.NewcomerAlone), conv(r.NewcomerGain), num(r.NewcomerRatio),
		conv(r.NewcomerOracle), num(r.OracleRatio), seeds}, "", "  ")
}
