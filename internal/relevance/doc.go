// Package relevance decides what a workspace knows that bears on a
// context (a task as an agent words it), as consult and coverage show it:
//
//   - which capabilities the context evokes (Keywords, ResolveCapabilities:
//     the words of the manifest's labels and names, and hand-written
//     synonyms);
//   - the methodology, dead ends and judgment nodes that fit it, ranked by
//     relevance × recency from the term index package search keeps (Source,
//     Context), the fleet's peers' weighed below the agent's own, or for a
//     workspace of model v2 or v3 by the reference's search (Reference);
//   - which dead ends hold against it and the penalty they put on the
//     capabilities they name (DeadEnds, PenaltyEnergy);
//   - the working state: what flush asks the agent to write down
//     (Externalization) and the open questions read back from it
//     (OpenQuestions); and how ready the memory is for a task (Coverage);
//   - the engine's routing from the cursor as the advice describes it:
//     scored paths, wormholes and attractors with their annotations
//     (ScorePaths, Enrich, RoutingSnapshot), and a consult's answer made of
//     all of it (Advice, Pick);
//   - the methodology about capabilities a report or a synthesis points
//     to: a new wormhole's ends (Source.Correlations), the much used
//     actions no entry is about (Source.Misalignments).
//   - what a consult's advice rests on, read once per context and shared
//     by the advice at the agent's place and at any position (Basis:
//     the resolved capabilities, their energy, the dead ends' penalty, and
//     the knowledge it completes the advice with).
//
// It reads through a transaction (package workspace) and writes nothing
// but what package search keeps of its term index; the operations in
// package bridge adapt a call to it.
package relevance
