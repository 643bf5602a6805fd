package history

import "github.com/unified-cognitive-substrate/ucs/internal/workspace"

// ReportsTotal counts the reports the workspace has taken: one action-log
// line each, a count the state's meta already keeps. A reference workspace
// not yet adopted has its log read.
func ReportsTotal(tx *workspace.Tx) (int, error) {
	if !tx.Legacy() {
		return tx.Meta.Files[workspace.RelActionLog].Lines, nil
	}
	actions, err := tx.List(workspace.RelActionLog)
	return len(actions), err
}
