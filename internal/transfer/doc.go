// Package transfer owns the export package, the portable JSON an agent's
// cognitive state travels in from one workspace to another: its format
// and digest, how it is built (the reference's members, the governed
// knowledge of a v4 and later workspace, the learned model with its
// records and its manifest's digest), how it is read and checked, and
// what an import decides for each part of it (entries appended once,
// edges blended, Markdown and observations merged, a model restored,
// mapped, pooled or not imported, a package imported before left alone).
//
// The package reads and writes nothing itself beyond the transaction it
// is handed: bridge's import and export operations read the session,
// call these functions and apply what they return. The pooling of a v5
// model's records is package nextstep's (nextstep.PoolRecord).
package transfer
