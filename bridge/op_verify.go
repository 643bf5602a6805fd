package bridge

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/internal/audit"
	"github.com/unified-cognitive-substrate/ucs/internal/bookstore"
	"github.com/unified-cognitive-substrate/ucs/internal/contract"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/quickjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
)

var verifySpec = Spec{
	Op: contract.Verify,
	tool: func(b *Bridge, c Call) (pyjson.Value, error) {
		return b.Verify(VerifyOptions{From: argInt(c, "from"), FromSnapshot: argBool(c, "from_snapshot"),
			Until: argInt(c, "diff"), Progress: b.opts.Progress})
	},
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
