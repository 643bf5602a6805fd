package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/contract"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/transfer"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
)

var importSpec = Spec{
	Op:  contract.Import,
	run: opImport,
}

// importsMember is the state's member that remembers the digests of the
// packages imported (transfer.Remember).
const importsMember = "imports"

// opImport merges an export package into this workspace: its knowledge
// (transfer.Merge), then its learned model (transfer.Model.Import).
func opImport(s *session, c Call) (pyjson.Value, error) {
	// importSpec has checked the format and the types of the members read
	// here, and of each entry of the lists.
	pkg := c.Input
	var mp *transfer.Model
	if x, ok := pkg.Get(transfer.ModelMember); ok && !x.IsNull() {
		var err error
		if mp, err = transfer.ReadModel(x, transfer.LearningKinds); err != nil {
			return pyjson.Value{}, err
		}
	}
	// A package of a model that governs knowledge is remembered, so that
	// its knowledge is not imported twice (transfer.Remember).
	governs, again := s.model.GovernsKnowledge(), false
	if governs {
		s.state.imports.raw, again = transfer.Remember(s.state.imports.raw, transfer.Digest(pkg))
	}
	out, err := transfer.Merge(pkg, transfer.Target{Governs: governs, Again: again, Has: s.manifest.Has, Edges: s.engine.Graph.Edges,
		List: s.list, Add: s.add, Annotations: s.annotations, EntryID: knowledge.EntryID,
		ReadFile: s.ws.ReadFile, AppendText: s.appendText, Book: s.book, Warn: s.warn})
	if err != nil || mp == nil {
		return out, err
	}
	m, err := mp.Import(transfer.ModelTarget{Again: again, Model: s.meta.Model, Kinds: transfer.LearningKinds, Manifest: s.manifest,
		Imports: &s.state.imports.raw, Learned: s.learned, Fresh: func() *learn.State { return advice.NewLearnState(s.model) },
		Restore: func(v *learn.State) { s.learning.State = v }, Steps: s.steps, Params: s.model.Steps, Tx: s.tx,
		SetRecords: s.setRecords, Warn: s.warn})
	if err != nil {
		return pyjson.Value{}, err
	}
	return out.With(transfer.ModelMember, m), nil
}
