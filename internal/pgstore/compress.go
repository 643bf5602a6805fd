package pgstore

import (
	"errors"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
)

// Each call stores the workspace's state again, whole (43-60 KB of JSON),
// and PostgreSQL compresses a value that large before storing it out of
// line (TOAST). Its default method, pglz, took about 3 ms of the server's
// CPU for each such row here, most of a call's cost in the database; LZ4
// (PostgreSQL 14 and later, where the server is built with it, as Debian's
// and the official images are) takes about 0.3 ms and compresses JSON
// about as well. The call's transaction asks for it (SET LOCAL: a pooler
// in transaction mode keeps nothing of a session), one statement more in
// its first round trip; a server that refuses it is asked no more.

// setLZ4 makes the transaction's new values compressed with LZ4.
const setLZ4 = "SET LOCAL default_toast_compression = lz4"

// hasLZ4 reports whether a server of version v (its server_version) may
// compress with LZ4: PostgreSQL 14 or later (a server built without LZ4
// refuses setLZ4: noLZ4).
func hasLZ4(v string) bool {
	end := strings.IndexFunc(v, func(r rune) bool { return r < '0' || r > '9' })
	if end < 0 {
		end = len(v)
	}
	n, err := strconv.Atoi(v[:end])
	return err == nil && n >= 14
}

// noLZ4 reports whether err is the server's refusal of setLZ4: an invalid
// value (built without LZ4) or an unknown parameter.
func noLZ4(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "22023" || pe.Code == "42704") && strings.Contains(pe.Message, "default_toast_compression")
}
