package audit

import (
	"errors"
	"fmt"
	"time"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// StateRules are what check judges of a state file that the storage
// cannot (workspace.Workspace.Check): that the engine restores from it on
// its manifest, that the report counter is below the φ-cycle interval,
// that t is the journal's last event's, and that the members the
// caller's features keep are sound.
type StateRules struct {
	// ReportInterval is the reports between φ-cycles: the counter stays below it.
	ReportInterval int
	// Members judge the state's members of those names, in order.
	Members []MemberRule
}

// A MemberRule judges one member of the state file: Judge returns the
// problem with its raw JSON, or nil. read reads a workspace file; it is
// nil when the files beside the state cannot be read.
type MemberRule struct {
	Key   string
	Judge func(raw []byte, read func(rel string) ([]byte, error)) error
}

// Check is a workspace.Workspace.Check judgment of a state file.
func (r StateRules) Check(st workspace.CheckedState) (problems []workspace.Problem, stop bool) {
	add := func(field, format string, args ...any) {
		problems = append(problems, workspace.Problem{File: workspace.RelState, Field: field, What: fmt.Sprintf(format, args...)})
	}
	// The bridge opens storage with torusfield's parser: anything else is
	// a workspace opened for another purpose, whose state is not judged.
	m, ok := st.Manifest.(*torusfield.Manifest)
	if !ok {
		add("", "the workspace was opened without the engine's manifest parser")
		return problems, true
	}
	e := torusfield.New(m, torusfield.Options{})
	if err := e.Restore(st.Doc); err != nil {
		var se *torusfield.StateError
		if errors.As(err, &se) && st.Meta != nil {
			add(se.Field, "%s", se.Msg)
		} else {
			add("", "%v", err)
		}
		return problems, true
	}
	if st.Meta == nil {
		return nil, false // a reference workspace: its counters are the reference's
	}
	if st.Meta.ReportCounter >= r.ReportInterval {
		add("ucs.report_counter", "is %d; it never reaches %d", st.Meta.ReportCounter, r.ReportInterval)
	}
	if st.AtLastEvent && int64(e.Grid.T) != st.JournalT {
		add("state.t", "is %d; the journal's last event left t = %d", e.Grid.T, st.JournalT)
	}
	for _, m := range r.Members {
		if v, ok := st.Doc.Get(m.Key); ok {
			if err := m.Judge(pyjson.AppendCompact(nil, v), st.Read); err != nil {
				add(m.Key, "%s", err.Error())
			}
		}
	}
	return problems, false
}

// Check verifies the whole workspace (workspace.Workspace.Check, judging
// the state file by rules). With repair it first finishes what recovery
// can (an interrupted call, a torn line), rolls back a last event that is
// not valid UTF-8 (to the state before it: the state file's previous
// version, else the one replay rebuilds) and has record journal that as
// an event of its own (op check, repair true) that changes nothing else,
// so the history says what was removed and where its bytes are and
// verify replays it (Step.Record). Then it restores a damaged state file
// from its previous version and cuts uncommitted lines off data files,
// moving everything it removes to ucs/state/backup/. It returns the
// report, and an *fault.Error of kind corrupt when problems remain.
func Check(ws *workspace.Workspace, now time.Time, repair bool, rules StateRules, replay workspace.StateReplay,
	record func(args, input pyjson.Value) error) (pyjson.Value, error) {
	var rolledBack []string
	if repair {
		r, ok, err := ws.RepairText(now, replay)
		if err != nil {
			return pyjson.Value{}, err
		}
		if ok {
			in := pyjson.Obj(pyjson.KV("rolled_back", pyjson.Obj(pyjson.KV("seq", r.Seq), pyjson.KV("op", r.Op),
				pyjson.KV("now", r.Now), pyjson.KV("why", "not valid UTF-8"), pyjson.KV("backup", r.Backup))))
			if err := record(pyjson.Obj(pyjson.KV("repair", true)), in); err != nil {
				return pyjson.Value{}, err
			}
			rolledBack = append(rolledBack, r.Note())
		}
	}
	out, err := ws.Check(repair, now, rules.Check)
	if err != nil || rolledBack == nil {
		return out, err
	}
	repaired, _ := out.Get("repaired")
	for _, it := range repaired.Items() {
		rolledBack = append(rolledBack, it.Str())
	}
	return out.With("repaired", rolledBack), nil
}
