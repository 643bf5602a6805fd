package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/contract"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/transfer"
)

var exportSpec = Spec{
	Op:  contract.Export,
	run: opExport,
}

// opExport packages the whole cognitive state, portable to another machine
// or agent (transfer.Build).
func opExport(s *session, _ Call) (pyjson.Value, error) {
	src := transfer.Source{Engine: s.engine, ExportedAt: pyjson.ISOTime(s.now), AgentID: s.meta.AgentID,
		Annotations: s.annotations, Window: s.rawWindow, JudgmentWindow: judgmentWindow, OverridesWindow: overridesWindow,
		Governs: s.model.GovernsKnowledge(), Book: s.book, Goals: s.goals, ReadFile: s.ws.ReadFile,
		Head: transfer.Head{Version: s.meta.Model, Manifest: s.manifest}, Tx: s.tx}
	switch {
	case s.model.NextSteps():
		src.Steps = s.steps
	case s.model.Learns():
		src.Learned = s.learned
	}
	return transfer.Build(src)
}
