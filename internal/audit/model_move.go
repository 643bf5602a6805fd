package audit

import (
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
)

// A ModelMove is a change of a workspace's learning model (`ucs migrate
// --model`). Unlike a format migration no call ever makes it by itself:
// it changes the advice. To one of ucs's own models the workspace's
// history is learned again (advice.Place.RelearnAs); the engine's state
// is kept as it is. The step is one journaled event ("migrate", args
// model), so verify replays it like any other.
type ModelMove struct {
	From, To string
	// Model is the model moved to; nil when it is the workspace's own
	// (nothing to do).
	Model *advice.Model
}

// MoveModel checks a move of a workspace of learning model from, in
// format format, to the model named to. A workspace moves only in the
// newest format, and only to one of ucs's own models: the reference's
// cannot be learned again from a journal. Moving to the model it has is
// a move with nothing to do (Model nil), not an error: a script that
// makes sure of the model runs it every time.
func MoveModel(from, to string, format int) (ModelMove, error) {
	m := advice.LookupModel(to)
	switch {
	case m == nil:
		return ModelMove{}, fault.BadInput(fault.CodeInvalidValue, "use one of: "+strings.Join(advice.Models(), ", "), "there is no learning model %q", to)
	case format < workspace.Format:
		return ModelMove{}, fault.BadInput(fault.CodeInvalidValue, "run `ucs migrate` first, then `ucs migrate --model "+to+"`",
			"the workspace is in format %d; migrate its format first", format)
	case from == to:
		return ModelMove{From: from, To: to}, nil
	case !m.UCSOwn():
		return ModelMove{}, fault.BadInput(fault.CodeInvalidValue, "a workspace can move to one of: "+strings.Join(advice.LearningModels(), ", "),
			"cannot migrate from the learning model %q to %q: the reference's model cannot be learned again from a journal", from, to)
	}
	return ModelMove{From: from, To: to, Model: m}, nil
}

// Backup keeps the state file the move replaces, and returns where; it
// keeps nothing on verify's scratch copy (replaying).
func (mv ModelMove) Backup(tx *workspace.Tx, replaying bool) (string, error) {
	if replaying {
		return "", nil
	}
	return tx.Backup("migrate-model-"+mv.From+"-"+mv.To, workspace.RelState)
}

// Answer is the start of migrate's answer to the move, which taught the
// new model learned reports; status already_current for a move with
// nothing to do.
func (mv ModelMove) Answer(learned int) []pyjson.Member {
	status := "migrated"
	if mv.Model == nil {
		status = "already_current"
	}
	return []pyjson.Member{pyjson.KV("status", status), pyjson.KV("model_from", mv.From), pyjson.KV("model", mv.To),
		pyjson.KV("reports_learned", learned)}
}
