package pgstore

import (
	"context"
	"errors"
	"fmt"
)

// Privacy is the database's: each workspace records its owner, the role
// that created it (current_user), and row-level security, enabled and
// forced on every table that holds a workspace's rows, lets a role
//
//   - read its own workspaces, and the workspaces that are not private of
//     the fleets its own workspaces belong to;
//   - write (insert, update, delete) only its own;
//   - read everything when it is a member of the group role ucs_operator.
//
// The group role ucs_agent carries the grants an agent's role needs (an
// operator makes one with CREATE ROLE agent_a LOGIN IN ROLE ucs_agent).
// A superuser, or a role with BYPASSRLS, passes row-level security
// whatever it says (PostgreSQL's rule): one role for every agent, as
// before, keeps working and keeps no secrets between them; FORCE makes
// the tables' owner, when it is no superuser, as subject to it as any
// agent.
//
// A policy on a table cannot read that table (PostgreSQL finds the
// recursion), so the fleets a role's workspaces belong to are kept apart,
// in ucs_fleet_members (a row a workspace, kept by a trigger on
// ucs_workspaces), which only its owner reads; being one level of policy
// deep, it is also the test of ownership the other tables' policies use.
// Schema 3 (schema3.go) replaces the policies that read those tables with
// the same rules tested once a statement.
const privacySQL = `
ALTER TABLE ucs_workspaces ADD COLUMN owner text NOT NULL DEFAULT current_user;

CREATE TABLE ucs_fleet_members (
	workspace text PRIMARY KEY REFERENCES ucs_workspaces(name) ON DELETE CASCADE,
	owner     text NOT NULL,
	fleet     text NOT NULL
);
CREATE INDEX ucs_fleet_members_owner ON ucs_fleet_members (owner, fleet);
INSERT INTO ucs_fleet_members (workspace, owner, fleet) SELECT name, owner, fleet FROM ucs_workspaces;

-- Runs as the role that changed the workspace (an agent's role may only
-- write its own members' rows); its search path is the migration's, so
-- that no role's own schema can stand in for the table.
CREATE FUNCTION ucs_fleet_member() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
	INSERT INTO ucs_fleet_members (workspace, owner, fleet) VALUES (NEW.name, NEW.owner, NEW.fleet)
		ON CONFLICT (workspace) DO UPDATE SET owner = EXCLUDED.owner, fleet = EXCLUDED.fleet;
	RETURN NULL;
END $$;
CREATE TRIGGER ucs_fleet_member AFTER INSERT OR UPDATE OF fleet, owner ON ucs_workspaces
	FOR EACH ROW EXECUTE FUNCTION ucs_fleet_member();

-- Whether the calling role has ucs_operator's rights; false while there
-- is no such role (a store migrated by a role that may not create roles).
CREATE FUNCTION ucs_operator() RETURNS boolean LANGUAGE sql STABLE AS $$
	SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_roles r WHERE r.rolname = 'ucs_operator'
		AND pg_catalog.pg_has_role(current_user, r.oid, 'USAGE'))
$$;

-- One policy a command, so that a statement is filtered by its own, not
-- by every command's; the operator test and the sets of workspaces are
-- subqueries the planner runs once a statement (an initplan, a hashed
-- subplan), not once a row, which also keeps its estimates, and so JIT
-- compilation, away.
CREATE POLICY ucs_read ON ucs_workspaces FOR SELECT USING (
	owner = current_user OR (SELECT ucs_operator())
	OR (NOT private AND fleet IN (SELECT m.fleet FROM ucs_fleet_members m WHERE m.owner = current_user)));
CREATE POLICY ucs_insert ON ucs_workspaces FOR INSERT WITH CHECK (owner = current_user);
CREATE POLICY ucs_update ON ucs_workspaces FOR UPDATE USING (owner = current_user) WITH CHECK (owner = current_user);
CREATE POLICY ucs_delete ON ucs_workspaces FOR DELETE USING (owner = current_user);
CREATE INDEX ucs_workspaces_owner ON ucs_workspaces (owner);

-- A role's own rows only. No role deletes one (the workspace's deletion
-- cascades) nor renames its workspace (the grants), and the primary key
-- holds one row a workspace, made with it: a role's rows here name the
-- workspaces it owns, which the policies below use as the cheaper test.
CREATE POLICY ucs_read ON ucs_fleet_members FOR SELECT USING (owner = current_user);
CREATE POLICY ucs_insert ON ucs_fleet_members FOR INSERT WITH CHECK (owner = current_user);
CREATE POLICY ucs_update ON ucs_fleet_members FOR UPDATE USING (owner = current_user) WITH CHECK (owner = current_user);

-- A workspace's rows are read by whoever reads its row (its owner's test
-- first: the cheaper, and the one an agent's own calls pass), and
-- written by its owner.
CREATE POLICY ucs_read ON ucs_journal FOR SELECT USING (workspace IN (SELECT m.workspace FROM ucs_fleet_members m WHERE m.owner = current_user) OR workspace IN (SELECT w.name FROM ucs_workspaces w));
CREATE POLICY ucs_insert ON ucs_journal FOR INSERT WITH CHECK (workspace IN (SELECT m.workspace FROM ucs_fleet_members m WHERE m.owner = current_user));
CREATE POLICY ucs_update ON ucs_journal FOR UPDATE USING (workspace IN (SELECT m.workspace FROM ucs_fleet_members m WHERE m.owner = current_user)) WITH CHECK (workspace IN (SELECT m.workspace FROM ucs_fleet_members m WHERE m.owner = current_user));
CREATE POLICY ucs_delete ON ucs_journal FOR DELETE USING (workspace IN (SELECT m.workspace FROM ucs_fleet_members m WHERE m.owner = current_user));

CREATE POLICY ucs_read ON ucs_chunks FOR SELECT USING (workspace IN (SELECT m.workspace FROM ucs_fleet_members m WHERE m.owner = current_user) OR workspace IN (SELECT w.name FROM ucs_workspaces w));
CREATE POLICY ucs_insert ON ucs_chunks FOR INSERT WITH CHECK (workspace IN (SELECT m.workspace FROM ucs_fleet_members m WHERE m.owner = current_user));
CREATE POLICY ucs_update ON ucs_chunks FOR UPDATE USING (workspace IN (SELECT m.workspace FROM ucs_fleet_members m WHERE m.owner = current_user)) WITH CHECK (workspace IN (SELECT m.workspace FROM ucs_fleet_members m WHERE m.owner = current_user));
CREATE POLICY ucs_delete ON ucs_chunks FOR DELETE USING (workspace IN (SELECT m.workspace FROM ucs_fleet_members m WHERE m.owner = current_user));

CREATE POLICY ucs_read ON ucs_blobs FOR SELECT USING (workspace IN (SELECT m.workspace FROM ucs_fleet_members m WHERE m.owner = current_user) OR workspace IN (SELECT w.name FROM ucs_workspaces w));
CREATE POLICY ucs_insert ON ucs_blobs FOR INSERT WITH CHECK (workspace IN (SELECT m.workspace FROM ucs_fleet_members m WHERE m.owner = current_user));
CREATE POLICY ucs_update ON ucs_blobs FOR UPDATE USING (workspace IN (SELECT m.workspace FROM ucs_fleet_members m WHERE m.owner = current_user)) WITH CHECK (workspace IN (SELECT m.workspace FROM ucs_fleet_members m WHERE m.owner = current_user));
CREATE POLICY ucs_delete ON ucs_blobs FOR DELETE USING (workspace IN (SELECT m.workspace FROM ucs_fleet_members m WHERE m.owner = current_user));

ALTER TABLE ucs_workspaces ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;
ALTER TABLE ucs_fleet_members ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;
ALTER TABLE ucs_journal ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;
ALTER TABLE ucs_chunks ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;
ALTER TABLE ucs_blobs ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;

-- The group roles, made when the migrating role may (a superuser, or
-- CREATEROLE); roles are the cluster's, so another database's migration
-- may make them at the same moment. Each gets its grants when it exists;
-- an operator who makes them later grants the same (docs/postgres.md).
DO $$
DECLARE
	may boolean;
	r text;
BEGIN
	SELECT rolsuper OR rolcreaterole INTO may FROM pg_catalog.pg_roles WHERE rolname = current_user;
	FOREACH r IN ARRAY ARRAY['ucs_agent', 'ucs_operator'] LOOP
		IF may AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = r) THEN
			BEGIN
				EXECUTE format('CREATE ROLE %I NOLOGIN', r);
			EXCEPTION WHEN duplicate_object OR unique_violation THEN
				NULL;
			END;
		END IF;
		IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = r) THEN
			RAISE NOTICE 'role % is missing and % may not create it: see docs/postgres.md', r, current_user;
			CONTINUE;
		END IF;
		EXECUTE format('GRANT SELECT ON ucs_schema, ucs_workspaces, ucs_fleet_members, ucs_journal, ucs_chunks, ucs_blobs TO %I', r);
		IF r = 'ucs_agent' THEN
			EXECUTE 'GRANT INSERT, UPDATE, DELETE ON ucs_workspaces, ucs_journal, ucs_chunks, ucs_blobs TO ucs_agent';
			EXECUTE 'GRANT INSERT, UPDATE (owner, fleet) ON ucs_fleet_members TO ucs_agent';
		END IF;
	END LOOP;
END $$;
`

// ErrNotOwner: a call that would change a workspace its role does not own
// (another role's, which the role may read or not).
var ErrNotOwner = errors.New("the workspace belongs to another database role")

// ErrNoWorkspace: the store holds no workspace of that name that the
// role reads (none at all, or another role's private one: the two look
// alike on purpose).
var ErrNoWorkspace = errors.New("the store holds no workspace of that name that this role may read")

// notOwned tells why a call found no row of the workspace it may change
// (in the call's transaction): the row is there but another role's
// (ErrNotOwner), or, creating it, the name is another role's whether
// this role reads it or not (ErrNotOwner); else there is none it may
// read (nil, or ErrNoWorkspace when strict). One round trip, on this
// path only.
func notOwned(ctx context.Context, q querier, name string, creating, strict bool) error {
	var visible bool
	if err := q.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM ucs_workspaces WHERE name = $1)`, name).Scan(&visible); err != nil {
		return storeErr(err)
	}
	switch {
	case visible || creating:
		return fmt.Errorf("%w: %q", ErrNotOwner, name)
	case strict:
		return fmt.Errorf("%w: %q", ErrNoWorkspace, name)
	}
	return nil
}
