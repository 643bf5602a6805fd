package bridge

import (
	"errors"
	"fmt"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// Check verifies the whole workspace (workspace.Workspace.Check): the
// journal's hash chain, the state file (it parses; its meta; the engine
// state's schema, grid sizes, edge count against the pinned manifest,
// finite numbers, counters against the journal: checkState), and every
// data file against the line count and chain hash the state file records.
// With repair it first finishes what recovery can (an interrupted call, a
// torn line), rolls back a last event that is not valid UTF-8 (to the
// state before it: the state file's previous version, else the one a
// replay of the history rebuilds), restores a damaged state file from its
// previous version, and cuts uncommitted lines off data files, moving
// everything it removes to ucs/state/backup/. It returns the report, and an *Error of kind corrupt
// when problems remain.
func (b *Bridge) Check(repair bool) (pyjson.Value, error) {
	var rolledBack []string
	if repair {
		r, ok, err := b.ws.RepairText(b.now(), b.stateAt)
		if err != nil {
			return pyjson.Value{}, err
		}
		if ok {
			if err := b.journalRepair(r); err != nil {
				return pyjson.Value{}, err
			}
			rolledBack = append(rolledBack, r.Note())
		}
	}
	out, err := b.ws.Check(repair, b.now(), checkState)
	if err != nil || rolledBack == nil {
		return out, err
	}
	repaired, _ := out.Get("repaired")
	for _, it := range repaired.Items() {
		rolledBack = append(rolledBack, it.Str())
	}
	return out.With("repaired", rolledBack), nil
}

// journalRepair records a repair that rolled an event back, as an event
// of its own (op check, repair true) that changes nothing else: the
// history says what was removed and where its bytes are, and verify
// replays it (replayRepair).
func (b *Bridge) journalRepair(r workspace.TextRepair) error {
	in := pyjson.Obj(pyjson.KV("rolled_back", pyjson.Obj(pyjson.KV("seq", r.Seq), pyjson.KV("op", r.Op),
		pyjson.KV("now", r.Now), pyjson.KV("why", "not valid UTF-8"), pyjson.KV("backup", r.Backup))))
	return b.commitRecord(Call{Op: "check", Args: pyjson.Obj(pyjson.KV("repair", true)), Input: in})
}

// commitRecord commits an event that records something done outside an
// operation's run (a repair): the state is loaded and committed unchanged.
func (b *Bridge) commitRecord(c Call) error {
	s, err := b.open(Lookup(c.Op), c, newTimings(nil))
	if err != nil {
		return err
	}
	defer s.tx.Close()
	return s.commit(c, s.tBefore)
}

// checkState judges what the storage cannot of a state file: that the
// engine restores from it on its manifest, that the report counter is
// below the φ-cycle interval, and that t is the journal's last event's.
func checkState(st workspace.CheckedState) (problems []workspace.Problem, stop bool) {
	add := func(field, format string, args ...any) {
		problems = append(problems, workspace.Problem{File: relState, Field: field, What: fmt.Sprintf(format, args...)})
	}
	e := torusfield.New(st.Manifest, torusfield.Options{})
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
	if st.Meta.ReportCounter >= phiReportInterval {
		add("ucs.report_counter", "is %d; it never reaches %d", st.Meta.ReportCounter, phiReportInterval)
	}
	if st.AtLastEvent && int64(e.Grid.T) != st.JournalT {
		add("state.t", "is %d; the journal's last event left t = %d", e.Grid.T, st.JournalT)
	}
	// The members ucs's own features keep: the policy parses, and the
	// book of observations the state names is there and decodes.
	if m, ok := st.Doc.Get(policyMember); ok {
		if err := checkPolicyMember(pyjson.AppendCompact(nil, m)); err != nil {
			add(policyMember, "%v", err)
		}
	}
	if m, ok := st.Doc.Get(observationsMember); ok && st.Read != nil {
		if err := checkBook(st.Read, pyjson.AppendCompact(nil, m)); err != nil {
			add(observationsMember, "%v", fault.AsError(err).Msg)
		}
	}
	return problems, false
}
