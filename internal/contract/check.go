package contract

import (
	"github.com/unified-cognitive-substrate/ucs/internal/field"
)

var Check = Op{
	Output:      CheckOutput,
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
}

// CheckOutput is the answer of check.
var CheckOutput = []field.Output{
	{Name: "ok", Type: field.Bool, Always: true, Doc: "no problem remains"},
	{Name: "problems", Type: field.List, Always: true, Doc: "each problem found, with its file and field"},
	{Name: "journal_events", Type: field.Int, Doc: "the events of the journal"},
	{Name: "repaired", Type: field.Strings, Doc: "with repair: what was repaired, and where its backup is"},
}
