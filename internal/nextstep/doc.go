// Package nextstep is the research prototype of a next-step predictor for
// ucs's v5 model (issue 27): it ranks an agent's next tool by the
// probability that the next successful call is that tool, given the task,
// where the agent is and came from, and the words of the task, learned
// from counts over exact keys. It is measured by the real-trace benchmark
// (internal/realbench) and the simulator (internal/learnbench); nothing in
// ucs's commands uses it.
//
// The estimate is a product of experts over one base distribution:
//
//	log score(to) = log P1(to)                                   where the agent is (prev), backed off to every call
//	              + Σ_x w_x · log(Px(to) / P1(to))               x: (task, prev), (prev2, prev), (term, prev) per term
//	              + λ · log S(to)                                 the step's own success, weakly
//	              + log drop   if to failed twice in the episode
//
// Each expert Px is a count table of the successful next calls under its
// key, smoothed towards P1 with a Dirichlet prior of strength αx:
// Px(to) = (cx(to) + αx·P1(to)) / (nx + αx). A key never seen, or a term
// every task shares, gives Px = P1 and adds nothing, so the back-off is
// automatic and the words that tell tasks apart carry the decision without
// a list of stop words. Every key is exact (a string, not a hash bucket):
// one feature never reads another's evidence.
//
// The agent's trail moves on a success only (after a failed call the agent
// tries again from where it was, and the next success is learned from
// there), and every episode begins at Start, the task's start, so the
// previous task's last tool never conditions a new task's first step.
//
// An update touches the keys of one call (O(terms)); a ranking reads the
// same keys for each candidate (O(terms × candidates)); nothing scans the
// history. The state is count tables keyed by strings, written with sorted
// keys (AppendJSON), and bounded by MaxKeys: past it the keys with the
// least evidence are evicted.
package nextstep
