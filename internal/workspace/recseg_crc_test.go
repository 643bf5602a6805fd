package workspace

import (
	"hash/crc32"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The record segments' own CRC-32C table gives the standard library's
// Castagnoli checksums, so segments written before and after it read the
// same.
func TestCRC32CIsCastagnoli(t *testing.T) {
	std := crc32.MakeTable(crc32.Castagnoli)
	for _, tc := range []struct {
		name  string
		start uint32
		data  string
	}{
		{"empty", 0, ""},
		{"one byte", 0, "a"},
		{"the check string", 0, "123456789"}, // CRC-32C's check value 0xe3069283
		{"a key", 0, "\x07nextstep/read\x00write"},
		{"continued", 0xe3069283, "more bytes after the first"},
		{"long", 0, strings.Repeat("a record's value, ", 500)},
		{"all bytes", 0, func() string {
			b := make([]byte, 256)
			for i := range b {
				b[i] = byte(i)
			}
			return string(b)
		}()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, crc32.Update(tc.start, std, []byte(tc.data)), crc32c(tc.start, []byte(tc.data)))
		})
	}
	assert.Equal(t, uint32(0xe3069283), crc32c(0, []byte("123456789")), "CRC-32C's check value")
}

// FuzzCRC32C: the slicing by 8 agrees with the standard library at every
// length and alignment.
func FuzzCRC32C(f *testing.F) {
	f.Add(uint32(0), []byte("123456789"))
	f.Add(uint32(0xffffffff), []byte("seventeen bytes!!"))
	std := crc32.MakeTable(crc32.Castagnoli)
	f.Fuzz(func(t *testing.T, start uint32, data []byte) {
		assert.Equal(t, crc32.Update(start, std, data), crc32c(start, data))
	})
}
