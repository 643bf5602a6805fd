package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// consultNow is the answer `ucs consult --context TEXT` would give now, for
// operations that show advice without giving it (show, view): consult's
// own code, run on a fresh copy of the workspace as the call read it
// (session.reloaded), so neither its warm-up steps nor the advisory it
// remembers reach this session, and nothing is committed. One copy per
// context: the second context's numbers do not depend on the first's.
func (s *session) consultNow(context string) (pyjson.Value, error) {
	f, err := s.reloaded()
	if err != nil {
		return pyjson.Value{}, err
	}
	out, err := opConsult(f, consultCall(context))
	s.adoptObsCtx(f)
	return out, err
}

// consultCall is `ucs consult --context TEXT` as a call, its defaults
// filled in: the consult that show, view and a task's chain answer for.
func consultCall(context string) Call {
	return consultSpec.complete(Call{Op: consultSpec.Name, Args: pyjson.Obj(pyjson.KV("context", context)), Input: pyjson.NullValue()})
}

// adoptObsCtx keeps the observations' context index a fresh copy f built,
// so it is built once per call, from the book both read.
func (s *session) adoptObsCtx(f *session) {
	if s.obsCtx.Index == nil && f.obsCtx.Index != nil {
		s.obsCtx.Index = f.obsCtx.Index
	}
}
