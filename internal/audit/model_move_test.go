package audit

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
)

// A move is checked in order: the model named, the workspace's format,
// a move to the model it has (nothing to do), the model it moves to.
func TestMoveModel(t *testing.T) {
	for _, tc := range []struct {
		name, from, to string
		format         int
		code           string // the error's; "" for none
		moves          bool   // a move with something to do
		answer         string
	}{
		{name: "to v4", from: "v2", to: "v4", format: workspace.Format, moves: true,
			answer: `{"status":"migrated","model_from":"v2","model":"v4","reports_learned":3}`},
		{name: "to the same", from: "v4", to: "v4", format: workspace.Format,
			answer: `{"status":"already_current","model_from":"v4","model":"v4","reports_learned":3}`},
		{name: "no such model", from: "v2", to: "v9", format: 1, code: fault.CodeInvalidValue},
		{name: "old format", from: "v2", to: "v4", format: workspace.Format - 1, code: fault.CodeInvalidValue},
		{name: "old format, same model", from: "v2", to: "v2", format: workspace.Format - 1, code: fault.CodeInvalidValue},
		{name: "to the reference's", from: "v4", to: "v2", format: workspace.Format, code: fault.CodeInvalidValue},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mv, err := MoveModel(tc.from, tc.to, tc.format)
			if tc.code != "" {
				require.Error(t, err)
				assert.Equal(t, tc.code, fault.AsError(err).Code)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.moves, mv.Model != nil)
			assert.Equal(t, tc.answer, string(pyjson.AppendCompact(nil, pyjson.ObjectValue(mv.Answer(3)))))
		})
	}
}

// Verify's scratch copy keeps no backup.
func TestModelMoveBackupReplaying(t *testing.T) {
	backup, err := ModelMove{From: "v2", To: "v4"}.Backup(nil, true)
	require.NoError(t, err)
	assert.Empty(t, backup)
}
