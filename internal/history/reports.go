package history

import (
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
)

// ReportContexts reads the context of every report event of a workspace's
// journal, in order (advice.Contexter); none when it has no journal. A
// journal that does not read to its end is corrupt.
func ReportContexts(ws *workspace.Workspace) ([]advice.ReportContext, error) {
	j, ok, err := ws.OpenJournal()
	if err != nil || !ok {
		return nil, err
	}
	defer j.Close()
	var out []advice.ReportContext
	var rc advice.Contexter
	for {
		ev, _, ok := j.Next()
		if !ok {
			break
		}
		if r, ok := rc.Next(ev.Op, ev.Args, ev.Input, ev.Seq); ok {
			out = append(out, r)
		}
	}
	if err := j.Err(); err != nil {
		return nil, fault.Corrupt(err, workspace.RelJournal)
	}
	return out, nil
}

// Reports is a workspace's report history as a learning model relearns
// it: the action log's lines as the transaction sees them, joined to the
// context of each report event of the journal (advice.NewHistory). A log
// and journal that disagree are corrupt.
func Reports(tx *workspace.Tx, ws *workspace.Workspace) (advice.History, error) {
	lines, err := tx.List(workspace.RelActionLog)
	if err != nil {
		return advice.History{}, err
	}
	contexts, err := ReportContexts(ws)
	if err != nil {
		return advice.History{}, err
	}
	h, err := advice.NewHistory(lines, contexts)
	if err != nil {
		return advice.History{}, fault.Corrupt(err, workspace.RelActionLog)
	}
	return h, nil
}
