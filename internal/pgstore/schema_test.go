package pgstore

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/bench/pgtest"
)

// A migration after the one that forces row-level security sees every
// workspace's rows when it runs as the tables' owner that is no superuser
// (FORCE alone shows it its own), and leaves the tables forced.
func TestMigrationSeesEveryRow(t *testing.T) {
	ctx := context.Background()
	admin := pgtest.Database(t)
	connect := func(url string) *pgx.Conn {
		conn, err := pgx.Connect(ctx, url)
		require.NoError(t, err)
		t.Cleanup(func() { conn.Close(ctx) })
		return conn
	}
	role, ownerURL := pgtest.Role(t, admin, "owner")
	db := strings.TrimPrefix(strings.Split(admin, "?")[0], "postgres://ucs@/")
	_, err := connect(admin).Exec(ctx, "ALTER DATABASE "+db+" OWNER TO "+role)
	require.NoError(t, err)
	// It may make the group roles (where no earlier test made them).
	_, err = connect(admin).Exec(ctx, "ALTER ROLE "+role+" CREATEROLE")
	require.NoError(t, err)
	owner := connect(ownerURL)
	require.NoError(t, migrateTo(ctx, owner, SchemaVersion))
	_, agentURL := pgtest.Role(t, admin, "agent", "ucs_agent")
	_, err = connect(agentURL).Exec(ctx, `INSERT INTO ucs_workspaces (name, private) VALUES ('agents', true)`)
	require.NoError(t, err)
	_, err = owner.Exec(ctx, `INSERT INTO ucs_workspaces (name) VALUES ('owners')`)
	require.NoError(t, err)
	var n int
	require.NoError(t, owner.QueryRow(ctx, `SELECT count(*) FROM ucs_workspaces`).Scan(&n))
	require.Equal(t, 1, n, "FORCE: the owner reads its own")

	saved := migrations
	t.Cleanup(func() { migrations = saved })
	migrations = append(slices.Clone(migrations), struct {
		version int
		name    string
		sql     string
	}{SchemaVersion + 1, "a later one", `CREATE TABLE ucs_seen AS SELECT count(*) AS n FROM ucs_workspaces`})
	require.NoError(t, migrateTo(ctx, owner, SchemaVersion+1))
	require.NoError(t, owner.QueryRow(ctx, `SELECT n FROM ucs_seen`).Scan(&n))
	assert.Equal(t, 2, n, "the migration saw every row")
	var forced bool
	require.NoError(t, owner.QueryRow(ctx, `SELECT relforcerowsecurity FROM pg_class WHERE relname = 'ucs_workspaces'`).Scan(&forced))
	assert.True(t, forced)
	require.NoError(t, owner.QueryRow(ctx, `SELECT count(*) FROM ucs_workspaces`).Scan(&n))
	assert.Equal(t, 1, n, "forced again after it")
}
