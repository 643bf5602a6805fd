// Package belief holds the governed part of ucs's knowledge: observations,
// durable claims the agent currently believes, each derived from raw
// records (reflections, reports, outcomes ucs observed around a command,
// ratings, an operator's word) and kept with the evidence for and against
// it. Most callers need three things: DeriveKey, to know which key a
// reflection speaks to; a Book, whose Observe, Confirm, Contradict, Retire
// and Supersede record evidence and return what changed; and Due, to list
// what must be revalidated. AppendJSON and DecodeBook store a book.
//
// # Keys
//
// An observation has a kind (tooling_state, project_state, self_model,
// operator_preference, relationship_fact, world_fact), a subject (a
// capability, a project, the agent, global) and a slot: its Key, computed
// by code (CanonicalKey, DeriveKey), never guessed. A book believes at most
// one observation per key. The slot is the content terms of a text
// (learn.Terms) joined with "-", so paraphrases meet; DeriveKey documents
// how a reflection without hints gets its kind, subject and slot.
//
// # Evidence
//
// Evidence points to a raw record by its content id (ContentID: the
// record's kind and a hash of its canonical JSON, the same after an export
// and an import), with a stance (support, contradict, context), a weight
// (1 by default, at most MaxWeight) and who gave it. Its effective weight
// is its weight, times OperatorFactor (3) when the operator gave it (By
// "operator": whoever calls with --by operator). Contradiction is never
// guessed by a language model: it is an explicit Contradict, a reflection
// that names what it contradicts, or a failed outcome of following an
// observation's advice, all given by the caller.
//
// # Confidence
//
// ComputeConfidence explains a belief by its components. With S and C the
// effective weights of supporting and contradicting evidence, n the
// distinct supporting sources, k their distinct source kinds, and age the
// time since the latest support:
//
//	Sources   = 1 − 2^(−n/2)                     diminishing returns: 0.29, 0.5, 0.65, 0.75, …
//	Diversity = 1 − 2^(−k)                       0.5 for one kind of source, 0.75 for two, …
//	Operator  = 1 when the operator's latest word (support or contradict) is support, else 0
//	Recency   = (1 + 2^(−age/cadence)) / 2       age takes at most half of a belief
//	base      = 0.6·Sources + 0.4·Diversity
//	backed    = base + (1 − base)·Operator/2     a confirmation closes half the gap to 1
//	balance   = max(0, 1 − C/S)                  0 without support
//	Value     = clamp(backed · balance · Recency, 0, 1)
//
// One fresh supporting reflection gives 0.38. Contradiction that weighs at
// least as much as support (C > 0 and C ≥ S) invalidates an observation;
// an operator's confirmation (3) outweighs two ordinary contradictions (2):
// a reflection, an operator's confirmation and two contradictions give
// S = 4, C = 2, n = k = 2, and a confidence of 0.8 · 0.5 = 0.4, still
// believed. Context evidence counts for nothing.
//
// # Freshness and revalidation
//
// Freshness is separate from confidence: 2^(−age/cadence), halving every
// cadence of the observation's kind (tooling state 3 days, project state 7,
// self model 14, operator preference 30, relationship fact 60, world fact
// 90). Below StaleBelow (½, one cadence without support) a believed
// observation is stale: still believed, and due for revalidation (Due,
// Revalidate). New support makes it active again.
//
// # Status and invariants
//
// An observation is active, stale, superseded (a new claim under its key
// replaced it) or invalidated (contradiction outweighed support, or
// someone retired it). Book.Check verifies the invariants, and DecodeBook
// refuses a book that breaks them: observations cite raw records only,
// never other observations; the only link between observations is
// supersession, both ways; a claim is never rewritten in place (a new
// claim is a new observation, the old one kept and linked); evidence is
// only appended, so contradicting evidence is kept and raw evidence stays
// reachable; at most one believed observation per key.
//
// # Reflections, verdicts and outcomes
//
// A Reflection says what a reflection claims and which key it speaks to;
// Book.ObserveReflection records it: evidence for the believed claim
// under its key when the claim says the same in other words
// (recall.NearDuplicate), else a new claim that supersedes it, or, when
// the reflection names what it contradicts, a supersession of that. A
// Verdict (confirm, contradict, retire) is someone's word on one
// observation (Book.Judge); the agent's own weighs as a report and cannot
// retire. Book.Attribute makes an outcome of following advice evidence on
// the observations that advice put in context and that are about the
// action's capability (weighing OutcomeWeight × the outcome's
// confidence). Evidence is given by a Witness: the call, with its agent
// and its time. A refusal about a named observation is an *ActError.
// ObserveResult decides a report's outcome from the raw result it carries
// (outcome.Classify, judged by the step's expectation), over the agent's
// own verdict; EntryReflection reads an entry a workspace already holds
// (a methodology, a dead end) as the reflection it states.
//
// # Views and the consult's context
//
// Summary, ChangeValue, Listing, DueByKind, DueFirst and Review are the
// observations as answers show them. A ContextIndex is the recall index of
// a book's believed observations with their summaries; it can be kept in
// two files beside the book (AppendFiles, DecodeContextIndex,
// LoadContextIndex, StoredContextIndex) so that a consult need not decode
// the book. RankContext ranks the observations of one or more
// such indexes (the agent's, its fleet peers') for a task: relevance ×
// freshness × confidence, boosted by a match with an active goal, at most
// three per kind and 3000 bytes in all; OwnHits are the agent's own.
//
// Nothing here reads the clock or the disk: every operation takes the time
// to measure against. A workspace keeps its book in a file of its own,
// named in its state by a member BookMember writes and BookRef reads; the
// storage is the caller's, which hands over the bytes or a function to
// read them.
package belief
