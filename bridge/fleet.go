package bridge

import (
	"errors"
	"io"

	"github.com/unified-cognitive-substrate/ucs/dashboard"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/history"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
)

// The fleet view (view --fleet, show --fleet): every workspace a store
// lists for the caller, each read on a shared lock of its mirror as view
// reads one, none changed; the call opens no session on the Bridge's own
// workspace (an operator need not have one), commits nothing and
// journals nothing.

// A FleetMember is a workspace of a store's fleet listing (SetFleet): its
// name, the directory it is mirrored in, and what the store says of it.
type FleetMember struct {
	Name, Dir    string
	Fleet, Owner string // Owner: "" where the store records none
	Private      bool
}

// openMember is a FleetMember opened.
type openMember struct {
	FleetMember
	ws *workspace.Workspace
}

// SetFleet hands the Bridge every workspace a store lets the caller read,
// the caller's own among them, for a call that asks for the fleet.
func (b *Bridge) SetFleet(ms []FleetMember) {
	b.fleet = make([]openMember, len(ms))
	for i, m := range ms {
		b.fleet[i] = openMember{FleetMember: m, ws: openWorkspace(m.Dir, b.opts)}
	}
}

// members is the workspaces a fleet call reads: the store's listing, else
// the Bridge's peers (a directory given some, as a test or a server may).
// Without either there is no fleet: an error.
func (b *Bridge) members() ([]openMember, error) {
	if b.fleet != nil {
		return b.fleet, nil
	}
	if len(b.peers) == 0 {
		return nil, fault.BadInput(fault.CodeNoFleet,
			"a fleet lives in a PostgreSQL store: run it with --store postgres://... (or UCS_STORE); ucs view and ucs show without --fleet show this workspace",
			"--fleet reads a store's workspaces, and this workspace is a directory: there is no fleet without a store")
	}
	out := make([]openMember, len(b.peers))
	for i, p := range b.peers {
		out[i] = openMember{FleetMember: FleetMember{Name: p.name}, ws: p.ws}
	}
	return out, nil
}

// fleetView gathers the fleet view from every member.
func (b *Bridge) fleetView() (dashboard.Fleet, error) {
	ms, err := b.members()
	if err != nil {
		return dashboard.Fleet{}, err
	}
	ws := make([]dashboard.FleetWorkspace, 0, len(ms))
	for _, m := range ms {
		w, err := b.readMember(m)
		if err != nil {
			return dashboard.Fleet{}, err
		}
		ws = append(ws, w)
	}
	return dashboard.NewFleet(ws), nil
}

// readMember reads one workspace of the fleet, on a shared lock. A
// workspace that does not read (not initialized, damaged, of a newer ucs)
// is shown with its error, not the call's: it is another agent's to
// repair.
func (b *Bridge) readMember(m openMember) (dashboard.FleetWorkspace, error) {
	w := dashboard.FleetWorkspace{Name: m.Name, Fleet: m.Fleet, Owner: m.Owner, Private: m.Private}
	err := b.readInto(m.ws, &w)
	var fe *fault.Error
	switch {
	case err == nil:
		return w, nil
	case errors.As(err, &fe) && fe.Kind != fault.KindInternal && fe.Kind != fault.KindBusy:
		return dashboard.FleetWorkspace{Name: m.Name, Fleet: m.Fleet, Owner: m.Owner, Private: m.Private,
			Error: fe.Msg, Code: fe.Code}, nil
	}
	return w, err
}

// readInto fills w from the workspace ws, as view and show read theirs.
func (b *Bridge) readInto(ws *workspace.Workspace, w *dashboard.FleetWorkspace) error {
	tx, err := ws.Begin(false)
	if err != nil {
		return err
	}
	defer tx.Close()
	agent := tx.Meta.AgentID
	s, err := (&Bridge{opts: b.opts, ws: ws}).openSession(tx)
	if err != nil {
		return err
	}
	contexts, err := history.ReportContexts(s.ws)
	if err != nil {
		return err
	}
	ts, err := s.transitions(dashboard.TransitionWindow, contexts)
	if err != nil {
		return err
	}
	for _, t := range ts {
		if t.N > 0 {
			w.Learned = append(w.Learned, t)
		}
	}
	if w.Precision, err = s.precision(); err != nil {
		return err
	}
	if w.Reports, err = history.ReportsTotal(tx); err != nil {
		return err
	}
	if s.model.GovernsKnowledge() {
		book, err := s.book()
		if err != nil {
			return err
		}
		for _, o := range book.Observations() {
			if o.Status.Current() {
				w.Observations++
			}
		}
	}
	files := tx.Meta.Files
	w.Agent, w.Model, w.T = agent, tx.Meta.Model, s.engine.Grid.T
	w.Methodology, w.DeadEnds, w.Judgment = files[workspace.RelMethodology].Lines, files[workspace.RelDeadEnds].Lines, files[workspace.RelJudgment].Lines
	return nil
}

// fleetShow is show --fleet: the fleet's answer, or its table.
func fleetShow(b *Bridge, c Call) (pyjson.Value, error) {
	f, err := b.fleetView()
	if err != nil {
		return pyjson.Value{}, err
	}
	out := f.Value()
	if c.Args.StrOf("format") == "table" && b.opts.Output != nil {
		_, err := io.WriteString(b.opts.Output, dashboard.FleetTable(out))
		return pyjson.NullValue(), err
	}
	return out, nil
}

// fleetPage is view --fleet: the fleet's page, written as view writes its
// own.
func fleetPage(b *Bridge, c Call) (pyjson.Value, error) {
	f, err := b.fleetView()
	if err != nil {
		return pyjson.Value{}, err
	}
	return writePage(c, f.Page(pyjson.ISOTime(b.now())), f.Shown())
}
