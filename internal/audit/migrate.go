package audit

import (
	"fmt"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
)

// A Migration upgrades a workspace from one format to the next. Each runs
// as its own journaled event ("migrate", args from and to: Args) before
// the first call that changes a workspace of an older format, after a
// copy of the state file and the pinned manifest is kept under
// ucs/state/backup/migrate-vFROM-vTO/ (Backup). Because it is an event,
// verify replays it like any other: the history before it in the old
// format, the history after it in the new one. A migration must be
// deterministic (it sees the meta and the clock, nothing else) and must
// not change the learning model: a change of model changes the advice,
// so it is explicit (`ucs migrate --model`), never a side effect of an
// upgrade.
//
// Adding a data file or an entry field is a migration: the reader of the
// old format stays, and the step says what the new format adds.
type Migration struct {
	From, To int
	Doc      string
	// Apply changes the meta of the transaction that commits the step;
	// ws is the workspace, nil on verify's scratch copy (whose files are
	// thrown away).
	Apply func(meta *workspace.Meta, ws *workspace.Workspace) error
}

var migrations = []Migration{
	{From: 1, To: 2, Doc: "name the learning model (v2, the reference's); record format, model and agent in events; make the workspace private to its owner",
		Apply: migrateV1toV2},
}

// Migrations describes the format migrations this ucs can run, oldest
// first: "vFROM→vTO: what it does".
func Migrations() []string {
	out := make([]string, len(migrations))
	for i, m := range migrations {
		out[i] = fmt.Sprintf("v%d→v%d: %s", m.From, m.To, m.Doc)
	}
	return out
}

// FindMigration is the migration from format from.
func FindMigration(from int) (Migration, bool) {
	for _, m := range migrations {
		if m.From == from {
			return m, true
		}
	}
	return Migration{}, false
}

// MigrationFrom is the migration migrate's args ask for: the one from
// args.from (as verify replays a recorded one), else the next one a
// workspace of format current needs.
func MigrationFrom(args pyjson.Value, current int) (Migration, error) {
	from := int64(current)
	if v, ok := args.Get("from"); ok {
		n, isInt := v.Int()
		if !isInt {
			return Migration{}, fault.BadInput(fault.CodeWrongType, "give from as an integer", "from must be an integer")
		}
		from = n
	}
	m, ok := FindMigration(int(from))
	if !ok {
		if from == workspace.Format {
			return Migration{}, fault.BadInput(fault.CodeInvalidValue, "nothing to do", "the workspace is already in format %d, the newest this ucs knows", from)
		}
		return Migration{}, fault.Unsupported("there is no migration from format %d", from)
	}
	return m, nil
}

// Run backs up the state file and the pinned manifest (not on verify's
// scratch copy: replaying) and applies the step to the meta of tx, which
// the caller commits. It returns where the backup is.
func (m Migration) Run(meta *workspace.Meta, tx *workspace.Tx, ws *workspace.Workspace, replaying bool) (backup string, err error) {
	if meta.Format != m.From {
		return "", fault.BadInput(fault.CodeInvalidValue, fmt.Sprintf("the workspace is in format %d", meta.Format),
			"cannot migrate from format %d: the workspace is in format %d", m.From, meta.Format)
	}
	if replaying {
		ws = nil
	} else if backup, err = tx.Backup(m.Backup(), workspace.RelState, workspace.RelPinned); err != nil {
		return backup, err
	}
	if err := m.Apply(meta, ws); err != nil {
		return backup, err
	}
	meta.Format = m.To
	return backup, nil
}

// Answer is migrate's answer to a step it ran on a workspace left on
// the learning model model, its state kept in backup ("" for none).
func (m Migration) Answer(model, backup string) pyjson.Value {
	out := []pyjson.Member{
		pyjson.KV("status", "migrated"),
		pyjson.KV("from", m.From),
		pyjson.KV("to", m.To),
		pyjson.KV("model", model),
	}
	if backup != "" {
		out = append(out, pyjson.KV("backup", backup))
	}
	return pyjson.ObjectValue(out)
}

// Args are the args of the event that records the step.
func (m Migration) Args() pyjson.Value {
	return pyjson.Obj(pyjson.KV("from", m.From), pyjson.KV("to", m.To))
}

// Backup names the backup of the state the step replaces.
func (m Migration) Backup() string { return fmt.Sprintf("migrate-v%d-v%d", m.From, m.To) }

// Note is the warning that says a call migrated the workspace first.
func (m Migration) Note(backup string) string {
	return fmt.Sprintf("migrated the workspace from format %d to %d (%s); the previous state is in %s", m.From, m.To, m.Doc, backup)
}

// migrateV1toV2: the meta names its model (a format-1 workspace learned
// with the reference's) and, from now on, events record theirs; files
// and directories the workspace holds become private to their owner.
func migrateV1toV2(meta *workspace.Meta, ws *workspace.Workspace) error {
	meta.Model = workspace.LegacyModel
	if ws == nil {
		return nil // a scratch copy's modes are verify's business
	}
	return ws.MakePrivate()
}
