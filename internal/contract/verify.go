package contract

import (
	"github.com/unified-cognitive-substrate/ucs/internal/field"
)

var Verify = Op{
	Output:  VerifyOutput,
	Name:    "verify",
	Summary: "Prove the workspace's history: replay the journal and compare every state hash",
	Long: `Replays the journal on a scratch copy of the workspace (the pinned manifest, the
recorded inputs and clock values) and proves that every event reproduces the
state hash it recorded, that the hash chain is unbroken, and that the final
state is exactly the workspace's. Exit 5 names the first event that does not
hold, with the fields that diverged.

--from-snapshot starts from the newest sound snapshot (one is kept every 1,000
events, UCS_SNAPSHOT_EVERY); --from SEQ from the newest at or before SEQ.
--diff SEQ replays up to event SEQ and shows how it compares.`,
	Example: "ucs verify\nucs verify --from-snapshot\nucs verify --diff 42",
	Fields: []field.Field{
		{Name: "from", Type: field.Int, Flag: true, Doc: "replay from the newest sound snapshot at or before this event"},
		{Name: "from_snapshot", Type: field.Bool, Flag: true, Doc: "replay only the events after the newest sound snapshot"},
		{Name: "diff", Type: field.Int, Flag: true, Doc: "replay up to this event and show how it compares"},
	},
}

// VerifyOutput is the answer of verify.
var VerifyOutput = []field.Output{
	{Name: "verified", Type: field.Int, Always: true, Doc: "the events whose chain and replay were checked"},
	{Name: "events", Type: field.Int, Doc: "the events in the journal"},
	{Name: "replayed_from", Type: field.Int, Doc: "the event the replay started from (0: the start; else a snapshot's)"},
	{Name: "state_sha256", Type: field.String, Doc: "the SHA-256 of the state the replay reached: the workspace's"},
	{Name: "event", Type: field.Int, Doc: "with a stop: the event the replay stopped at"},
	{Name: "reproduced", Type: field.Bool, Doc: "with a stop: the state at that event was reproduced"},
	{Name: "diff", Type: field.List, Doc: "with a stop: how the replayed state differs (empty: it does not)"},
}
