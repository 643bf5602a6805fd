// Package realbench is the real-trace learning benchmark: it replays
// trajectories that other teams recorded from real agents (tau-bench's
// historical trajectories) through ucs, step by step, and scores how often
// ucs's advice names the call the agent made next, against the counting
// tables an agent-tool recommender would keep (first- and second-order
// Markov chains over the previous tools, and the first-order one keyed also
// on the task).
//
// The protocol is prequential: every step is ranked before it is learned.
// One fresh workspace per dataset, its manifest every tool the dataset uses
// plus "start", every edge between them and no prior (equal u and c). Each
// episode reports "start" (a neutral report: it moves the cursor and
// teaches nothing), then for each call consults with the task's instruction
// as context, records the ranking, and reports the call the agent made
// ("failure" when the tool answered with an error, else "success"). The
// baselines see the same stream. Steps are scored where the call succeeded,
// over the second half of the stream, with bootstrap intervals over
// episodes and paired intervals for ucs − baseline.
//
// A Trace (trace.go) is the reduced form of a trajectory file committed
// under testdata/realtrace; ReduceTauBench (taubench.go) makes it from
// tau-bench's own format. Run (run.go) drives ucs and the baselines,
// Score (score.go) computes the figures, and Results.Markdown and
// Results.JSON (report.go) print them. A Proto (proto.go) is a next-step
// predictor of package nextstep replayed in memory beside the baselines
// and scored like ucs. docs/learning-benchmark.md describes
// the protocol, the fixture and the figures.
package realbench
