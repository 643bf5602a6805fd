// Package recall finds the knowledge written about a task when the task is
// worded differently, for
// every kind of entry (methodology, dead ends, judgment nodes, experiments,
// observations) with one scoring routine.
//
// Most callers need three things. An Analyzer turns text into index terms:
// the normalised, stemmed content words of learn.Terms ("fix the failing
// unit test in parser_test.go" gives fail, fix, parser, test, unit), mapped
// through an optional synonym table (Synonyms, from the manifest's
// "synonyms" member with ParseSynonyms). An Index holds entries as weighted
// fields (Doc) and ranks them for a context with BM25 (Index.Search),
// reading only the postings of the context's terms, so a search costs what
// its hits cost, not what the number of entries costs; every Hit says which
// terms earned its score. A Condition is a dead end's reopen condition
// evaluated as a condition (ParseCondition, Condition.Holds): a sentence
// holds when all of its key terms are in the context, an expression such as
// "stripe AND (refund OR chargeback) AND NOT test" as written.
//
// Beside them, Matches says whether a context shares enough terms with an
// entry for the entry to count at all (a dead end penalises a capability
// only when it matches the context), and Jaccard and NearDuplicate compare
// two term sets, to fold a new reflection into one that says the same.
//
// The package does not store entries, read the clock or decay scores with
// age: the caller owns the entries and composes the score with whatever
// else it weighs. An Index is not safe for concurrent use while it is
// modified; searches of an unmodified index may run concurrently. Its
// bytes (Index.AppendBinary, DecodeIndex) are deterministic: the same
// entries and synonyms give the same bytes, in whatever order the entries
// were added.
package recall
