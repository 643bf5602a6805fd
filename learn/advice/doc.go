// Package advice is the learning glue between a workspace and its learning
// models. It owns the registry of learning models (Model, LookupModel: v2
// to v5) and what a model learned as one call reads and writes it (Memory:
// the state file's "learn" member, decoded on first use); the v5 model's
// learned state as the state file keeps it (Steps: the trails of the
// recent tasks, the advisories remembered for attribution, how advice
// fared) and how a call finds its task's episode; the keys the model's
// evidence has in the record log; the ranking and description of advice on
// a Place (the manifest and the engine's graph), for v5 and for v3/v4
// (RankLearned, DescribeLearned), and an Advisor's, which leaves out what
// the caller's policy refuses and remembers the advice given; what a
// report teaches and which advice it is attributed to (LearnStep,
// LearnReport); advice at a position, a look that remembers nothing
// (Place.CheckPosition, Advisor.AdviseAt: consult --from and
// --task-start); the per-task chain of advice (FollowChain); the learned
// transitions as show and view give them; relearning a model from a
// workspace's history (Relearn, History); and what a past report's step
// teaches when it is rated or amended.
//
// It sits above both models (package learn, v3 and v4; package
// learn/nextstep, v5), which know nothing of a workspace, and below the
// operations (package bridge), which keep thin calls into it: the
// bridge's session reads the state file, the record log, the journal and
// the clock, applies the policy's refusals, attributes outcomes to
// observations, and hands this package what it needs. Nothing here
// touches the disk, so the in-memory benchmark (internal/bench/learnbench)
// ranks with the same code as the commands.
package advice
