// Package learnbench is the learning-quality benchmark of ucs: it
// owns the simulated environment an agent works in, the policies compared
// on it, the metrics and their statistics, and the plot.
//
// The environment (World) is a fixed set of 49 tools and 8 task families.
// Each family starts at a start tool (shared between families, so the
// context must decide) and has a hidden best chain of 4 to 6 steps, with
// acceptable alternatives, distractor tools whose names match the task's
// words, traps with the best prior utility and cost, and repeated-tool
// steps. The agent only ever sees a context sentence, drawn fresh each
// episode from the family's word pools. Outcomes are reported flipped with
// probability 0.1; at mid-run the best chains of three families change;
// two families first appear in the last third. The World writes its own
// ucs manifest.
//
// An episode (see Env) starts at the family's start tool; each step the
// policy chooses a next tool among the current tool's out-neighbours, the
// environment draws success from the hidden probability of that step, and
// the policy is told the (possibly flipped) outcome. A successful step moves
// the agent to the chosen tool and one position along the task; a failed
// step leaves it where it was. The episode is solved when the last step
// succeeds, and fails when it runs out of steps (chain length + 3).
//
// Policies (Policy) are: random, name matching, ucs's advice followed with a
// given compliance (through a Learner: in process on the bridge, or the real
// binary), the same for v3 in memory (learn@C: the bridge's own v3 functions
// with no workspace, identical choices in a fraction of the time, for
// tuning; the bridge stays the reference for reported figures), the
// next-step predictor of package nextstep (next@C, the v5 candidate), tabular ε-greedy and UCB1 keyed on (family, tool, next), and the
// oracle. Run drives every policy over many seeds with common random
// numbers, probes ucs's ranking against the hidden truth on copies of the
// workspace, and returns Results: learning curves and summary metrics with
// means and 95% t intervals over seeds, and paired lifts between policies
// (Results.Lift). WriteSVG plots the curves with no dependency.
//
// docs/learning-benchmark.md describes the design and every metric.
package learnbench
