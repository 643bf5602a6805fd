package pgstore

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// MigrateTo brings the schema of the store at url up to version target,
// as the URL's role.
func MigrateTo(ctx context.Context, url string, target int) error {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	return migrateTo(ctx, conn, target)
}

// PushAsIs pushes the directory workspace dir into the store at url as
// workspace name, on the schema the store has (no migration first): a
// store an older ucs filled.
func PushAsIs(ctx context.Context, url, name, cache, dir string) error {
	s, err := Open(ctx, url, Options{Workspace: name, Cache: cache})
	if err != nil {
		return err
	}
	defer s.Close()
	s.schemaOK = true
	_, err = s.Push(ctx, dir)
	return err
}

// CheckWrites(true) makes every call that uses its write log compare it with
// scans of the mirror before and after, and fail when they differ.
func CheckWrites(on bool) { checkWrites = on }
