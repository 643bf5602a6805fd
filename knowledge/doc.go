// Package knowledge holds the agent's qualitative memory, the Emergent
// Judgment layer of ucs: methodology learned from post-task reflections,
// dead ends with the conditions that would reopen them, judgment nodes that
// tie a decision's context, reasoning, rejected alternatives and outcome
// together, and annotations that explain the engine's artifacts.
//
// Entries are kept as the reference keeps them, JSON objects whose fields
// an agent or another implementation may extend, so an export carries them
// over unchanged. The package offers the searches the bridge runs before an
// action (SearchMethodology, SearchJudgmentNodes and SearchDeadEnds rank
// entries by keyword and capability overlap, temporal decay, and the
// structural similarity of routing snapshots), the compact search features
// the bridge's index keeps per entry, and MarkdownBlock for the files people
// read. JudgmentNode, MethodologyEntry, DeadEndEntry and Annotation build
// the entries a report and a reflection store; DecodeReflection
// reads a reflection's input; ReflectionPrompt and Correlation are what a
// report asks and suggests of them. Where entries are stored is the bridge's business (docs/storage.md).
//
// Nothing here reads the clock: every search takes the time to measure age
// against.
package knowledge
