// Package search finds the knowledge entries a query could return, from
// indexes kept beside the data files of a workspace (package workspace),
// so that a search's cost does not grow with every entry:
//
//   - Candidates and Capabilities score the features storage's index holds
//     of each entry (package knowledge) without decoding the entry, and
//     read and decode only the best; the caller then runs its search on
//     those candidates, so hits, scores and order are exactly those of a
//     search over every entry. Storage proves the index describes the
//     committed files and hands out its lines.
//   - Terms ranks entries by BM25 (package recall) from the term index,
//     which this package keeps in segments of derived files that storage
//     stores for it, trusted only as far as their hashes lead to the
//     committed file sums.
//
// What an index means and how it is scored is this package's, so storage
// imports no search scoring. Only Terms writes (its segments, under the
// exclusive lock).
package search
