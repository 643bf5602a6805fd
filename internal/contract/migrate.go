package contract

import (
	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
)

var Migrate = Op{
	Output:      MigrateOutput,
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
}

// MigrateOutput is the answer of migrate.
var MigrateOutput = []field.Output{
	{Name: "status", Type: field.String, Doc: "migrated; already_current when --model names the workspace's model (nothing changed)"},
	{Name: "from", Type: field.Int, Always: true, Doc: "the workspace's format before"},
	{Name: "to", Type: field.Int, Always: true, Doc: "its format after"},
	{Name: "model", Type: field.String, Doc: "the workspace's reference model"},
	{Name: "backup", Type: field.String, Doc: "where the files the migration replaced are kept"},
}
