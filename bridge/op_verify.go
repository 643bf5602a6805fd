package bridge

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/internal/audit"
	"github.com/unified-cognitive-substrate/ucs/internal/bookstore"
	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/quickjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
)

var verifySpec = Spec{
	Output:  verifyOutput,
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
	tool: func(b *Bridge, c Call) (pyjson.Value, error) {
		return b.Verify(VerifyOptions{From: argInt(c, "from"), FromSnapshot: argBool(c, "from_snapshot"),
			Until: argInt(c, "diff"), Progress: b.opts.Progress})
	},
}

// verifyOutput is the answer of verify.
var verifyOutput = []field.Output{
	{Name: "verified", Type: field.Int, Always: true, Doc: "the events whose chain and replay were checked"},
	{Name: "events", Type: field.Int, Doc: "the events in the journal"},
	{Name: "replayed_from", Type: field.Int, Doc: "the event the replay started from (0: the start; else a snapshot's)"},
	{Name: "state_sha256", Type: field.String, Doc: "the SHA-256 of the state the replay reached: the workspace's"},
	{Name: "event", Type: field.Int, Doc: "with a stop: the event the replay stopped at"},
	{Name: "reproduced", Type: field.Bool, Doc: "with a stop: the state at that event was reproduced"},
	{Name: "diff", Type: field.List, Doc: "with a stop: how the replayed state differs (empty: it does not)"},
}

// VerifyOptions choose where a verification starts and what it reports
// (audit.Options).
type VerifyOptions struct {
	From         int64 // replay from the newest sound snapshot at or before this event (0: from init)
	FromSnapshot bool  // replay from the newest sound snapshot
	Until        int64 // stop after this event and report how it compares (0: the whole journal)
	Progress     func(done, total int64)
}

// Verify proves the workspace's history (audit.Verify).
func (b *Bridge) Verify(opts VerifyOptions) (pyjson.Value, error) {
	return audit.Verify(b.ws, b.replayer(), audit.Options{From: opts.From, FromSnapshot: opts.FromSnapshot,
		Until: opts.Until, Progress: opts.Progress})
}

// stateAt rebuilds the state file that event seq committed, and the book
// of observations it names, for a repair that has no copy of them
// (workspace.StateReplay).
func (b *Bridge) stateAt(seq int64) ([]byte, []workspace.Replayed, error) {
	return audit.StateAt(b.ws, b.replayer(), seq, func(state []byte, read func(string) ([]byte, error)) ([]workspace.Replayed, bool) {
		m := quickjson.Member(gjson.ParseBytes(state), bookstore.Member)
		if !m.Exists() {
			return nil, true
		}
		book, err := bookstore.Read(read, []byte(m.Raw))
		return []workspace.Replayed{{Rel: workspace.RelObservations, Data: book}}, err == nil
	})
}

// replayer runs recorded calls on verify's scratch workspace, each on a
// Bridge of its own for the event's clock and agent.
func (b *Bridge) replayer() audit.Replayer {
	return audit.Replayer{
		Open:   func(root string) *workspace.Workspace { return openWorkspace(root, b.opts) },
		Models: advice.Models(),
		Apply: func(scratch *workspace.Workspace, st audit.Step) error {
			// The scratch is thrown away: its commits need not be durable,
			// and without an fsync each a replay takes a third of the time.
			sb := New(Options{Workspace: scratch.Root(), Now: st.Now, SnapshotEvery: -1, AgentID: st.Agent, NoSync: true})
			sb.replaying, sb.format = true, st.Format
			if st.Record {
				return sb.commitRecord(Call{Op: st.Op, Args: st.Args, Input: st.Input})
			}
			_, err := sb.Do(Call{Op: st.Op, Args: st.Args, Input: st.Input})
			return err
		},
	}
}

func sha256hex(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
