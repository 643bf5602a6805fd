package bridge

import (
	"fmt"

	"github.com/unified-cognitive-substrate/ucs/internal/audit"
	"github.com/unified-cognitive-substrate/ucs/internal/contract"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

var migrateSpec = Spec{
	Op:  contract.Migrate,
	run: opMigrate,
}

// migrateToCurrent brings a workspace of an older format up to
// WorkspaceFormat, one committed step at a time (each a "migrate"
// event, after a backup of the state), and says so in a warning.
func (s *session) migrateToCurrent() error {
	for s.meta.Format < WorkspaceFormat {
		m, ok := audit.FindMigration(s.meta.Format)
		if !ok {
			return fault.Internal(fmt.Errorf("no migration from format %d", s.meta.Format), "migrate the workspace")
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
