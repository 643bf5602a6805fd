package bridge

import (
	"fmt"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// A migration upgrades a workspace from one format to the next. Each runs
// as its own journaled event ("migrate", args from and to) before the first
// call that changes a workspace of an older format, after a copy of the
// state file and the pinned manifest is kept under
// ucs/state/backup/migrate-vFROM-vTO/. Because it is an event, verify
// replays it like any other: the history before it in the old format, the
// history after it in the new one. A migration must be deterministic (it
// sees the session and the clock, nothing else) and must not change the
// learning model: a change of model changes the advice, so it is explicit
// (`ucs migrate --model`), never a side effect of an upgrade.
//
// Adding a data file or an entry field is a migration: the reader of the
// old format stays, and the step says what the new format adds.
type migration struct {
	from, to int
	doc      string
	apply    func(s *session) error
}

var migrateSpec = Spec{
	Output:      migrateOutput,
	Name:        "migrate",
	Destructive: true,
	Operator:    true,
	Summary:     "Upgrade the workspace's format, or change its learning model (--model v4)",
	Long: `Without --model, applies the next format migration the workspace needs (a
changing call does that by itself; this does it explicitly). With --model v4
(or v3), converts a workspace of another model to that one of ucs's own by
learning its history again: every report of the action log, in order, in its
recorded context. Both keep a backup of the state under ucs/state/backup/ and
are journaled events that verify replays.`,
	Example:  "ucs migrate\nucs migrate --model v4",
	Mutating: true,
	Fields: []field.Field{
		{Name: "model", Type: field.String, Flag: true, Enum: learningModels(), Doc: "the learning model to move to"},
		{Name: "from", Type: field.Int, Flag: true, Doc: "the format to migrate from (a recorded step, as verify replays it)"},
		{Name: "to", Type: field.Int, Flag: true, Doc: "the format it migrates to (recorded with from)"},
	},
	run: opMigrate,
}

var migrations = []migration{
	{from: 1, to: 2, doc: "name the learning model (v2, the reference's); record format, model and agent in events; make the workspace private to its owner",
		apply: migrateV1toV2},
}

// Migrations describes the format migrations this ucs can run, oldest
// first: "vFROM→vTO: what it does".
func Migrations() []string {
	out := make([]string, len(migrations))
	for i, m := range migrations {
		out[i] = fmt.Sprintf("v%d→v%d: %s", m.from, m.to, m.doc)
	}
	return out
}

func findMigration(from int) (migration, bool) {
	for _, m := range migrations {
		if m.from == from {
			return m, true
		}
	}
	return migration{}, false
}

// migrateToCurrent brings a workspace of an older format up to
// WorkspaceFormat, one committed step at a time. It reports what it did.
func (s *session) migrateToCurrent() error {
	for s.meta.Format < WorkspaceFormat {
		m, ok := findMigration(s.meta.Format)
		if !ok {
			return internal(fmt.Errorf("no migration from format %d", s.meta.Format), "migrate the workspace")
		}
		if err := s.runMigration(m); err != nil {
			return err
		}
		s.warn(fmt.Sprintf("migrated the workspace from format %d to %d (%s); the previous state is in %s", m.from, m.to, m.doc, s.backupRel))
	}
	return nil
}

// runMigration backs up the state, applies one migration and commits it as
// a "migrate" event.
func (s *session) runMigration(m migration) error {
	tBefore := s.engine.Grid.T
	if err := s.applyMigration(m); err != nil {
		return err
	}
	return s.commit(Call{Op: "migrate", Args: migrateArgs(m), Input: pyjson.NullValue()}, tBefore)
}

func migrateArgs(m migration) pyjson.Value {
	return pyjson.Obj(pyjson.KV("from", m.from), pyjson.KV("to", m.to))
}

// applyMigration backs up the state (outside verify's scratch) and applies
// one migration to the session; the caller commits it.
func (s *session) applyMigration(m migration) error {
	if s.meta.Format != m.from {
		return badInput(fault.CodeInvalidValue, fmt.Sprintf("the workspace is in format %d", s.meta.Format),
			"cannot migrate from format %d: the workspace is in format %d", m.from, s.meta.Format)
	}
	if !s.replaying {
		var err error
		if s.backupRel, err = s.tx.Backup(fmt.Sprintf("migrate-v%d-v%d", m.from, m.to), relState, relPinned); err != nil {
			return err
		}
	}
	if err := m.apply(s); err != nil {
		return err
	}
	s.meta.Format = m.to
	return nil
}

// opMigrate applies one format migration: the one from args.from (as
// verify replays a recorded one), else the next one the workspace needs.
// Do commits it as the call's event. Changing calls migrate a workspace
// by themselves (Do), so this is for replay and for doing it explicitly.
func opMigrate(s *session, c Call) (pyjson.Value, error) {
	if model := c.Args.StrOf("model"); model != "" {
		return migrateModel(s, model)
	}
	from := int64(s.meta.Format)
	if v, ok := c.Args.Get("from"); ok {
		n, isInt := v.Int()
		if !isInt {
			return pyjson.Value{}, badInput(fault.CodeWrongType, "give from as an integer", "from must be an integer")
		}
		from = n
	}
	m, ok := findMigration(int(from))
	if !ok {
		if from == WorkspaceFormat {
			return pyjson.Value{}, badInput(fault.CodeInvalidValue, "nothing to do", "the workspace is already in format %d, the newest this ucs knows", from)
		}
		return pyjson.Value{}, unsupported("there is no migration from format %d", from)
	}
	if err := s.applyMigration(m); err != nil {
		return pyjson.Value{}, err
	}
	out := []pyjson.Member{
		pyjson.KV("status", "migrated"),
		pyjson.KV("from", m.from),
		pyjson.KV("to", m.to),
		pyjson.KV("model", s.meta.Model),
	}
	if s.backupRel != "" {
		out = append(out, pyjson.KV("backup", s.backupRel))
	}
	return pyjson.ObjectValue(out), nil
}

// migrateV1toV2: the meta names its model (a format-1 workspace learned
// with the reference's) and, from now on, events record theirs; files
// and directories the workspace holds become private to their owner.
func migrateV1toV2(s *session) error {
	s.meta.Model = ModelV2
	if s.replaying {
		return nil // a scratch copy's modes are verify's business
	}
	return s.ws.MakePrivate()
}

// migrateOutput is the answer of migrate.
var migrateOutput = []field.Output{
	{Name: "status", Type: field.String, Doc: "migrated; already_current when --model names the workspace's model (nothing changed)"},
	{Name: "from", Type: field.Int, Always: true, Doc: "the workspace's format before"},
	{Name: "to", Type: field.Int, Always: true, Doc: "its format after"},
	{Name: "model", Type: field.String, Doc: "the workspace's reference model"},
	{Name: "backup", Type: field.String, Doc: "where the files the migration replaced are kept"},
}
