package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// consultNow is the answer `ucs consult --context TEXT` would give now, for
// operations that show advice without giving it (show, view): consult's
// own code, run on a fresh copy of the workspace (dry), so neither its
// warm-up steps nor the advisory it remembers reach this session, and
// nothing is committed. One copy per context: the second context's
// numbers do not depend on the first's.
func (s *session) consultNow(context string) (out pyjson.Value, err error) {
	err = s.dry(func(f *session) (err error) {
		out, err = opConsult(f, consultCall(context))
		return err
	})
	return out, err
}

// consultCall is `ucs consult --context TEXT` as a call, its defaults
// filled in: the consult that show, view and a task's chain answer for.
func consultCall(context string) Call {
	return consultSpec.complete(Call{Op: consultSpec.Name, Args: pyjson.Obj(pyjson.KV("context", context)), Input: pyjson.NullValue()})
}

// dry runs fn on a fresh copy of the workspace as the call read it
// (session.reloaded): nothing fn changes reaches this session but the
// observations' context index the copy built, which this session keeps,
// so it is built once per call, from the book both read.
func (s *session) dry(fn func(f *session) error) error {
	f, err := s.reloaded()
	if err != nil {
		return err
	}
	err = fn(f)
	if s.obsCtx.Index == nil && f.obsCtx.Index != nil {
		s.obsCtx.Index = f.obsCtx.Index
	}
	return err
}
