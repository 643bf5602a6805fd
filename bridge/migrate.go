package bridge

import (
	"fmt"

	"github.com/unified-cognitive-substrate/ucs/internal/audit"
	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
)

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
		{Name: "model", Type: field.String, Flag: true, Enum: advice.LearningModels(), Doc: "the learning model to move to"},
		{Name: "from", Type: field.Int, Flag: true, Doc: "the format to migrate from (a recorded step, as verify replays it)"},
		{Name: "to", Type: field.Int, Flag: true, Doc: "the format it migrates to (recorded with from)"},
	},
	run: opMigrate,
}

// migrateToCurrent brings a workspace of an older format up to
// WorkspaceFormat, one committed step at a time (each a "migrate"
// event, after a backup of the state), and says so in a warning.
func (s *session) migrateToCurrent() error {
	for s.meta.Format < WorkspaceFormat {
		m, ok := audit.FindMigration(s.meta.Format)
		if !ok {
			return internal(fmt.Errorf("no migration from format %d", s.meta.Format), "migrate the workspace")
		}
		tBefore := s.engine.Grid.T
		backup, err := m.Run(s.meta, s.tx, s.ws, s.replaying)
		if err != nil {
			return err
		}
		if err := s.commit(Call{Op: "migrate", Args: m.Args(), Input: pyjson.NullValue()}, tBefore); err != nil {
			return err
		}
		s.warn(m.Note(backup))
	}
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
	m, err := audit.MigrationFrom(c.Args, s.meta.Format)
	if err != nil {
		return pyjson.Value{}, err
	}
	backup, err := m.Run(s.meta, s.tx, s.ws, s.replaying)
	if err != nil {
		return pyjson.Value{}, err
	}
	return m.Answer(s.meta.Model, backup), nil
}

// migrateOutput is the answer of migrate.
var migrateOutput = []field.Output{
	{Name: "status", Type: field.String, Doc: "migrated; already_current when --model names the workspace's model (nothing changed)"},
	{Name: "from", Type: field.Int, Always: true, Doc: "the workspace's format before"},
	{Name: "to", Type: field.Int, Always: true, Doc: "its format after"},
	{Name: "model", Type: field.String, Doc: "the workspace's reference model"},
	{Name: "backup", Type: field.String, Doc: "where the files the migration replaced are kept"},
}
