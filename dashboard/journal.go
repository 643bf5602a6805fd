package dashboard

import (
	"github.com/unified-cognitive-substrate/ucs/internal/audit"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
	"github.com/unified-cognitive-substrate/ucs/policy"
)

// ReadHistory reads the journal in one pass: every report's context
// (advice.Contexter's), whatever since says, and for the page the events
// from since (ISO 8601; "" for all) on, each summed up with what the
// manifest's capabilities declare.
func ReadHistory(ws *workspace.Workspace, since string, decls map[string]policy.Declaration) ([]advice.ReportContext, *History, error) {
	h := NewHistory()
	j, ok, err := ws.OpenJournal()
	if err != nil || !ok {
		return nil, h, err
	}
	defer j.Close()
	var reports []advice.ReportContext
	var rc advice.Contexter
	for {
		ev, _, ok := j.Next()
		if !ok {
			break
		}
		if r, ok := rc.Next(ev.Op, ev.Args, ev.Input, ev.Seq); ok {
			reports = append(reports, r)
		}
		if since != "" && ev.Now < since {
			continue
		}
		raw := ev.Raw()
		h.Record(raw, audit.Summarize(raw, decls), audit.Changed(raw))
	}
	if err := j.Err(); err != nil {
		return nil, nil, fault.Corrupt(err, workspace.RelJournal)
	}
	h.Close()
	return reports, h, nil
}
