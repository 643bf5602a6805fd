package pgtest

import (
	"context"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"
)

func TestMain(m *testing.M) {
	code := m.Run()
	Stop()
	os.Exit(code)
}

func TestDatabase(t *testing.T) {
	url := Database(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	require.NoError(t, err)
	defer conn.Close(ctx)
	var n int
	require.NoError(t, conn.QueryRow(ctx, "SELECT 1 + 1").Scan(&n))
	require.Equal(t, 2, n)
	require.NotEqual(t, url, Database(t), "a database per call")
}

// A role made by Role connects over the socket as itself, in the groups it
// joined.
func TestRole(t *testing.T) {
	db := Database(t)
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, db)
	require.NoError(t, err)
	defer admin.Close(ctx)
	_, err = admin.Exec(ctx, "CREATE ROLE pgtest_group NOLOGIN")
	require.NoError(t, err)
	name, url := Role(t, db, "someone", "pgtest_group")
	conn, err := pgx.Connect(ctx, url)
	require.NoError(t, err)
	defer conn.Close(ctx)
	var user string
	var member bool
	require.NoError(t, conn.QueryRow(ctx, "SELECT current_user, pg_has_role('pgtest_group', 'MEMBER')").Scan(&user, &member))
	require.Equal(t, name, user)
	require.True(t, member)
}
