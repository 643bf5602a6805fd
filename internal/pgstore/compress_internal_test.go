package pgstore

import (
	"errors"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/stretchr/testify/assert"
)

func TestHasLZ4(t *testing.T) {
	tests := []struct {
		version string
		want    bool
	}{
		{"15.14 (Debian 15.14-0+deb12u1)", true},
		{"14.0", true},
		{"16beta1", true},
		{"13.16", false},
		{"9.6.24", false},
		{"", false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, hasLZ4(tt.version), tt.version)
	}
}

func TestNoLZ4(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"built without lz4", &pgconn.PgError{Code: "22023", Message: `invalid value for parameter "default_toast_compression": "lz4"`}, true},
		{"before PostgreSQL 14", &pgconn.PgError{Code: "42704", Message: `unrecognized configuration parameter "default_toast_compression"`}, true},
		{"another invalid value", &pgconn.PgError{Code: "22023", Message: `invalid value for parameter "lock_timeout"`}, false},
		{"a new store", &pgconn.PgError{Code: "42P01", Message: `relation "ucs_schema" does not exist`}, false},
		{"not the server's", errors.New("default_toast_compression"), false},
		{"none", nil, false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, noLZ4(tt.err), tt.name)
	}
}
