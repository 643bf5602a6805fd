package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/audit"
	"github.com/unified-cognitive-substrate/ucs/internal/bookstore"
	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/policy"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

var checkSpec = Spec{
	Output:      checkOutput,
	Name:        "check",
	Destructive: true,
	Summary:     "Verify the workspace; with --repair, restore what can be restored",
	Long: `Verifies every file of the workspace: the journal's hash chain, the state file
(schema, grid sizes, edges against the pinned manifest, finite numbers, counters
against the journal) and every data file against the line count and hash the
state records. Each problem is reported with its file and field; exit 5 when any
remains. A symbolic link, or any file neither regular nor a directory, under
ucs/ (working-state/ and backup/ aside) is a problem: ucs never reads or
writes through one. A call that was cut short (killed before its commit) is
not: check reports it as a warning and judges the workspace as the rollback
will leave it; without --repair, check changes nothing.

--repair first rolls back a call that was cut short, cuts torn or uncommitted
lines off files, and restores a damaged state file from the previous commit.
Whatever it removes is kept under ucs/state/backup/. It changes nothing while
the workspace holds a link or another file that is not its own: replace it by
hand.`,
	Example:  "ucs check\nucs check --repair",
	Mutating: true, // with --repair
	Fields: []field.Field{
		{Name: "repair", Type: field.Bool, Flag: true, Doc: "repair what can be repaired, keeping a backup of anything removed"},
	},
	tool: func(b *Bridge, c Call) (pyjson.Value, error) { return b.Check(argBool(c, "repair")) },
}

// checkOutput is the answer of check.
var checkOutput = []field.Output{
	{Name: "ok", Type: field.Bool, Always: true, Doc: "no problem remains"},
	{Name: "problems", Type: field.List, Always: true, Doc: "each problem found, with its file and field"},
	{Name: "journal_events", Type: field.Int, Doc: "the events of the journal"},
	{Name: "repaired", Type: field.Strings, Doc: "with repair: what was repaired, and where its backup is"},
}

// Check verifies the whole workspace and, with repair, repairs what it
// can (audit.Check). What storage cannot judge of the state file is
// audit's, with the policy's and the observations' members judged here.
func (b *Bridge) Check(repair bool) (pyjson.Value, error) {
	rules := audit.StateRules{ReportInterval: torusfield.PhiReportInterval, Members: []audit.MemberRule{
		{Key: policyMember, Judge: func(raw []byte, _ func(string) ([]byte, error)) error { return policy.CheckMember(raw) }},
		{Key: bookstore.Member, Judge: func(raw []byte, read func(string) ([]byte, error)) error {
			if read == nil {
				return nil
			}
			return bookstore.Check(read, raw)
		}},
	}}
	return audit.Check(b.ws, b.now(), repair, rules, b.stateAt, func(args, in pyjson.Value) error {
		return b.commitRecord(Call{Op: "check", Args: args, Input: in})
	})
}

// commitRecord commits an event that records something done outside an
// operation's run (a repair): the state is loaded and committed unchanged.
func (b *Bridge) commitRecord(c Call) error {
	s, err := b.open(Lookup(c.Op), c, newTimings(nil))
	if err != nil {
		return err
	}
	defer s.tx.Close()
	return s.commit(c, s.tBefore)
}
