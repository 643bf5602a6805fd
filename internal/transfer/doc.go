// Package transfer owns the export package, the portable JSON an agent's
// cognitive state travels in from one workspace to another: its format
// and digest, how it is built (the reference's members, the governed
// knowledge of a v4 and later workspace, the learned model with its
// records and its manifest's digest), how it is read and checked, and
// what an import decides for each part of it (entries appended once,
// edges blended, Markdown and observations merged, a model restored,
// mapped, pooled or not imported, a package imported before left alone).
// It also owns the fleet prior, the same transfer the other way: a new
// workspace starting from its fleet's pooled models; and the fleet's
// learned evidence a v5 consult ranks with at every call: a peer's
// records read (PeerRecords), and what the ranking read as its event
// records it (FleetMember, FleetRecords, RecordedFleet).
//
// The package keeps no state: bridge's export, import and init read the
// session, hand its readers and writers to these functions (Source,
// Target, ModelTarget) and commit what they did. The pooling of a v5
// model's records is package nextstep's (nextstep.PoolRecord), of a v3
// or v4 model package learn's (learn.Pool).
package transfer
