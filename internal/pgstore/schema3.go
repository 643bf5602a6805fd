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
// subqueries they replace), with the migration's search path, so that no
// role's own schema can stand in for the tables they read.
const schema3SQL = `
-- The workspaces the calling role owns (its rows of ucs_fleet_members).
CREATE FUNCTION ucs_owned() RETURNS text[] LANGUAGE plpgsql STABLE SET search_path FROM CURRENT AS $$
BEGIN
	RETURN ARRAY(SELECT m.workspace FROM ucs_fleet_members m WHERE m.owner = current_user);
END $$;

-- The fleets the calling role's workspaces belong to.
CREATE FUNCTION ucs_fleets() RETURNS text[] LANGUAGE plpgsql STABLE SET search_path FROM CURRENT AS $$
BEGIN
	RETURN ARRAY(SELECT DISTINCT m.fleet FROM ucs_fleet_members m WHERE m.owner = current_user);
END $$;

-- The workspaces the calling role reads (ucs_workspaces' policy decides).
CREATE FUNCTION ucs_readable() RETURNS text[] LANGUAGE plpgsql STABLE SET search_path FROM CURRENT AS $$
BEGIN
	RETURN ARRAY(SELECT w.name FROM ucs_workspaces w);
END $$;

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
