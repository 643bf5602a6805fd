// Package nextstep is the next-step predictor of ucs's v5 model: it ranks
// an agent's next tool by what agents did next in the same place of
// similar tasks and by the step's own success, learned over exact keys.
// learn/advice joins it to a workspace. It is measured by the real-trace
// benchmark (internal/bench/realbench, realbench.Proto) and the simulator
// (internal/bench/learnbench, the policy next@C); docs/learning-benchmark.md
// ("v5 candidates") has every variant tried, the figures, and the design
// note behind it.
//
// An Episode is one task: its identity (an explicit task id, or the exact
// context), its context's terms, the agent's trail (Prev: its last call,
// Prev2: the one before; both Start, the task's start, at the beginning, so
// the previous task's last tool never conditions a new task's first step),
// and the tools that failed in it.
//
// A ranking (Model.Rank) scores each candidate to as
//
//	β·log pT(to) + λ·log S(to) + Explore·sd + log Drop·[to failed twice in the episode]
//
// pT is the probability that the agent's next successful call is to, an
// interpolated back-off over count tables, each level smoothed towards the
// one below: every context, prev, (prev2, prev), the terms (a product of
// per-term experts over the level below, normalised), (task, prev),
// (task, prev2, prev). S is the step's success, a Bayesian logistic
// regression over exact keys (logistic.go; or, without Params.Logistic, the
// count tables' success rates). β, the weight of the frequencies, is learned
// from how well they predict the agent's own calls (Params.Hedge).
//
// An update (Model.Observe) touches the keys of one call: the success
// model learns every call; the counts only the agent's own choices (a step
// taken on the model's advice would otherwise count for itself). A ranking
// reads the same keys for each candidate; nothing scans the history. The
// state is written with sorted keys (AppendJSON) and bounded (MaxKeys),
// evicting the least useful keys first.
package nextstep
