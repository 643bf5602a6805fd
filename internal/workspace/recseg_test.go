package workspace

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var testRecMeta = recordMeta{Start: 8, End: 17, StartOff: 400, EndOff: 990,
	HashBefore: strings.Repeat("a", 64), HashAt: strings.Repeat("b", 64)}

func testRecords(n int) []Record {
	var recs []Record
	for i := range n {
		recs = append(recs, Record{Key: fmt.Sprintf("%04d\x1fk", i*2), Value: fmt.Appendf(nil, `{"n":%d}`, i)})
	}
	return recs
}

// A segment answers a lookup of each of its keys with its value and of any
// other key with nothing, whatever the number of records; its meta says
// what it covers.
func TestRecordSegmentLookup(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 100, 1000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			recs := testRecords(n)
			data, err := appendRecSegment(nil, testRecMeta, recs)
			require.NoError(t, err)
			s, err := parseRecSegment(data)
			require.NoError(t, err)
			assert.Equal(t, testRecMeta, s.meta)
			assert.Equal(t, n, s.n)
			require.NoError(t, s.verify())
			for i, r := range recs {
				v, ok, err := s.lookup(r.Key)
				require.NoError(t, err)
				require.True(t, ok, r.Key)
				assert.Equal(t, string(r.Value), string(v))
				for _, absent := range []string{fmt.Sprintf("%04d\x1fk", 2*i+1), r.Key + "\x00", r.Key[:3]} {
					_, ok, err := s.lookup(absent)
					require.NoError(t, err)
					assert.False(t, ok, absent)
				}
			}
			_, ok, err := s.lookup("")
			require.NoError(t, err)
			assert.False(t, ok)
		})
	}
}

// The bytes of a segment: header, meta, records, table.
func TestRecordSegmentBytes(t *testing.T) {
	data, err := appendRecSegment(nil, recordMeta{Start: 0, End: 1, StartOff: 0, EndOff: 30, HashAt: strings.Repeat("c", 64)},
		[]Record{{Key: "k", Value: []byte("1")}})
	require.NoError(t, err)
	meta := "0 1 0 30 - " + strings.Repeat("c", 64)
	assert.Equal(t, "UCSREC1\n", string(data[:8]))
	assert.Equal(t, uint64(1), binary.LittleEndian.Uint64(data[8:]))
	table := binary.LittleEndian.Uint64(data[16:])
	assert.Equal(t, uint64(len(meta)), uint64(binary.LittleEndian.Uint32(data[24:])))
	assert.Equal(t, meta, string(data[32:32+len(meta)]))
	rec := data[32+len(meta) : table]
	assert.Equal(t, "\x01k1", string(rec[8:]), "key length, key, value")
	assert.Equal(t, uint64(32+len(meta)), binary.LittleEndian.Uint64(data[table:]))
	assert.Equal(t, table, binary.LittleEndian.Uint64(data[table+8:]))
	assert.Len(t, data, int(table)+16)

	_, err = appendRecSegment(nil, testRecMeta, []Record{{Key: "b", Value: nil}, {Key: "a", Value: nil}})
	assert.Error(t, err, "keys out of order")
	for _, bad := range []string{"", "0 1 0 30 - x", "1 1 0 30 - " + strings.Repeat("c", 64), "0 1 0 30 " + strings.Repeat("c", 64) + " " + strings.Repeat("c", 64),
		"01 2 0 30 - " + strings.Repeat("c", 64), "0 1 0 30 -  " + strings.Repeat("c", 64)} {
		_, ok := parseRecordMeta([]byte(bad))
		assert.False(t, ok, "%q", bad)
	}
}

// Any byte of a segment changed is found where it is read: a lookup gives
// the right value or an error, never a wrong value, and verify, which
// reads everything, finds every change.
func TestRecordSegmentDamage(t *testing.T) {
	recs := testRecords(40)
	data, err := appendRecSegment(nil, testRecMeta, recs)
	require.NoError(t, err)
	for at := range data {
		damaged := slices.Clone(data)
		damaged[at] ^= 0x01 << (at % 8)
		s, err := parseRecSegment(damaged)
		if err != nil {
			continue
		}
		assert.Error(t, s.verify(), "byte %d", at)
		for _, r := range recs {
			v, ok, err := s.lookup(r.Key)
			if err == nil {
				require.True(t, ok, "byte %d: %s lost", at, r.Key)
				require.Equal(t, string(r.Value), string(v), "byte %d", at)
			}
		}
	}
	for n := range len(data) {
		if s, err := parseRecSegment(data[:n]); err == nil {
			t.Errorf("a segment cut to %d bytes opens: %d records", n, s.n)
		}
	}
}

// The segment reader never panics, whatever the bytes.
func FuzzRecordSegment(f *testing.F) {
	for _, n := range []int{0, 1, 5} {
		data, err := appendRecSegment(nil, testRecMeta, testRecords(n))
		require.NoError(f, err)
		f.Add(data, "0002\x1fk")
	}
	f.Fuzz(func(t *testing.T, data []byte, key string) {
		s, err := parseRecSegment(data)
		if err != nil {
			return
		}
		s.lookup(key)
		s.verify()
		for i := range min(s.n, 100) {
			s.record(i, true)
		}
	})
}
