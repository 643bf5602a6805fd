package pgstore

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
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

// The group roles are the cluster's: the first migrations of several
// databases of a new cluster, at once, each make them or find them made,
// and all succeed; within one database, the advisory lock makes
// concurrent migrations take turns (TestMigrationToOwners).
func TestMigrationsOfACluster(t *testing.T) {
	if testing.Short() {
		t.Skip("a cluster of its own")
	}
	pgtest.Database(t) // skips, or fails, without PostgreSQL
	c, err := pgtest.StartCluster()
	require.NoError(t, err)
	t.Cleanup(c.Stop)
	ctx := context.Background()
	var urls []string
	for i := range 4 {
		url, err := c.NewDatabase(fmt.Sprintf("db%d", i))
		require.NoError(t, err)
		urls = append(urls, url)
	}
	errs := make([]error, len(urls))
	var wg sync.WaitGroup
	for i, url := range urls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			conn, err := pgx.Connect(ctx, url)
			if err != nil {
				errs[i] = err
				return
			}
			defer conn.Close(ctx)
			errs[i] = migrate(ctx, conn)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
	for _, url := range urls {
		conn, err := pgx.Connect(ctx, url)
		require.NoError(t, err)
		var granted bool
		require.NoError(t, conn.QueryRow(ctx, `SELECT has_table_privilege('ucs_agent', 'ucs_journal', 'INSERT')
			AND has_table_privilege('ucs_operator', 'ucs_journal', 'SELECT')
			AND NOT has_table_privilege('ucs_operator', 'ucs_journal', 'INSERT')`).Scan(&granted))
		conn.Close(ctx)
		assert.True(t, granted, url)
	}
}
