package pgstore

// Schema 3 keeps schema 2's privacy, rule for rule, and makes it cheaper
// for the database to apply: schema 2's policies were subqueries over
// ucs_fleet_members and ucs_workspaces (themselves under row-level
// security), which PostgreSQL rewrote and planned into every statement of
// a call; for an agent's role they doubled the server's CPU per report
// (about 1 ms more than a superuser's, of 1 ms). Here each policy tests
// the row against an array that a function computes, written as a scalar
// subquery: the planner makes it an initplan (planned in microseconds, no
// table in it), run once a statement, and only when the row's first test
// did not already pass (an OR's later arms are evaluated only when
// needed). The functions are PL/pgSQL, whose queries are planned once a
// session, not once a call as a SQL function's are; they run as the
// calling role (row-level security applies to what they read, as to the
// subqueries they replace).
const schema3SQL = `
-- The functions live in the tables' schema and read the tables by its
-- name, not by the search path, which the calling role sets (and in which
-- its own temporary tables come first). No SET clause either: a function with
-- one saves and restores settings at every call, which took as long as
-- the rest of it.
DO $do$
DECLARE
	s text := (SELECT quote_ident(n.nspname) FROM pg_catalog.pg_class c
		JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = 'ucs_workspaces'::regclass);
BEGIN
	-- The workspaces the calling role owns (its rows of ucs_fleet_members).
	EXECUTE format($f$CREATE FUNCTION %1$s.ucs_owned() RETURNS text[] LANGUAGE plpgsql STABLE AS $$
BEGIN
	RETURN ARRAY(SELECT m.workspace FROM %1$s.ucs_fleet_members m WHERE m.owner = current_user);
END $$$f$, s);
	-- The fleets the calling role's workspaces belong to.
	EXECUTE format($f$CREATE FUNCTION %1$s.ucs_fleets() RETURNS text[] LANGUAGE plpgsql STABLE AS $$
BEGIN
	RETURN ARRAY(SELECT DISTINCT m.fleet FROM %1$s.ucs_fleet_members m WHERE m.owner = current_user);
END $$$f$, s);
	-- The workspaces the calling role reads (ucs_workspaces' policy
	-- decides).
	EXECUTE format($f$CREATE FUNCTION %1$s.ucs_readable() RETURNS text[] LANGUAGE plpgsql STABLE AS $$
BEGIN
	RETURN ARRAY(SELECT w.name FROM %1$s.ucs_workspaces w);
END $$$f$, s);
	-- Schema 2's trigger, which kept ucs_fleet_members by the search
	-- path: a role's temporary table could take its workspace's row.
	EXECUTE format($f$CREATE OR REPLACE FUNCTION %1$s.ucs_fleet_member() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO %1$s.ucs_fleet_members (workspace, owner, fleet) VALUES (NEW.name, NEW.owner, NEW.fleet)
		ON CONFLICT (workspace) DO UPDATE SET owner = EXCLUDED.owner, fleet = EXCLUDED.fleet;
	RETURN NULL;
END $$$f$, s);
	EXECUTE format('ALTER FUNCTION %1$s.ucs_fleet_member() RESET ALL', s);
END $do$;

DROP POLICY ucs_read ON ucs_workspaces;
CREATE POLICY ucs_read ON ucs_workspaces FOR SELECT USING (
	owner = current_user OR (SELECT ucs_operator())
	OR (NOT private AND fleet = ANY ((SELECT ucs_fleets())::text[])));

DROP POLICY ucs_read ON ucs_journal;
DROP POLICY ucs_insert ON ucs_journal;
DROP POLICY ucs_update ON ucs_journal;
DROP POLICY ucs_delete ON ucs_journal;
CREATE POLICY ucs_read ON ucs_journal FOR SELECT USING (workspace = ANY ((SELECT ucs_owned())::text[]) OR workspace = ANY ((SELECT ucs_readable())::text[]));
CREATE POLICY ucs_insert ON ucs_journal FOR INSERT WITH CHECK (workspace = ANY ((SELECT ucs_owned())::text[]));
CREATE POLICY ucs_update ON ucs_journal FOR UPDATE USING (workspace = ANY ((SELECT ucs_owned())::text[])) WITH CHECK (workspace = ANY ((SELECT ucs_owned())::text[]));
CREATE POLICY ucs_delete ON ucs_journal FOR DELETE USING (workspace = ANY ((SELECT ucs_owned())::text[]));

DROP POLICY ucs_read ON ucs_chunks;
DROP POLICY ucs_insert ON ucs_chunks;
DROP POLICY ucs_update ON ucs_chunks;
DROP POLICY ucs_delete ON ucs_chunks;
CREATE POLICY ucs_read ON ucs_chunks FOR SELECT USING (workspace = ANY ((SELECT ucs_owned())::text[]) OR workspace = ANY ((SELECT ucs_readable())::text[]));
CREATE POLICY ucs_insert ON ucs_chunks FOR INSERT WITH CHECK (workspace = ANY ((SELECT ucs_owned())::text[]));
CREATE POLICY ucs_update ON ucs_chunks FOR UPDATE USING (workspace = ANY ((SELECT ucs_owned())::text[])) WITH CHECK (workspace = ANY ((SELECT ucs_owned())::text[]));
CREATE POLICY ucs_delete ON ucs_chunks FOR DELETE USING (workspace = ANY ((SELECT ucs_owned())::text[]));

DROP POLICY ucs_read ON ucs_blobs;
DROP POLICY ucs_insert ON ucs_blobs;
DROP POLICY ucs_update ON ucs_blobs;
DROP POLICY ucs_delete ON ucs_blobs;
CREATE POLICY ucs_read ON ucs_blobs FOR SELECT USING (workspace = ANY ((SELECT ucs_owned())::text[]) OR workspace = ANY ((SELECT ucs_readable())::text[]));
CREATE POLICY ucs_insert ON ucs_blobs FOR INSERT WITH CHECK (workspace = ANY ((SELECT ucs_owned())::text[]));
CREATE POLICY ucs_update ON ucs_blobs FOR UPDATE USING (workspace = ANY ((SELECT ucs_owned())::text[])) WITH CHECK (workspace = ANY ((SELECT ucs_owned())::text[]));
CREATE POLICY ucs_delete ON ucs_blobs FOR DELETE USING (workspace = ANY ((SELECT ucs_owned())::text[]));
`
