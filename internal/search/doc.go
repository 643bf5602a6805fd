// Package search finds the knowledge entries a query could return, from
// the index storage keeps beside the data files (package workspace): it
// scores each entry's features (package knowledge) without decoding the
// entry, and reads and decodes only the best. The caller then runs its
// search on those candidates, so hits, scores and order are exactly those
// of a search over every entry. Storage proves the index describes the
// committed files and hands out its lines; what they mean, and how they
// are scored, is this package's, so storage imports no domain package for
// it. Nothing here writes.
package search
