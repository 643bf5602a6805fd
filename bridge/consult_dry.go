package bridge

import "github.com/unified-cognitive-substrate/ucs/internal/pyjson"

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
	c := consultSpec.complete(Call{Op: consultSpec.Name, Args: pyjson.Obj(pyjson.KV("context", context)), Input: pyjson.NullValue()})
	out, err := opConsult(f, c)
	if s.obsCtx == nil && f.obsCtx != nil {
		s.obsCtx = f.obsCtx // built once, from the book both read
	}
	return out, err
}
