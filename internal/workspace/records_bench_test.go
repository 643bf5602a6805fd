package workspace

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// BenchmarkRecord measures what a call of a learning model that keeps its
// records in the model log pays to read them: 40 lookups (30 keys that
// are there, 10 that are not) in a transaction, on logs of 1,000 and
// 200,000 records written as a model would (50 records a commit, each
// commit's transaction reading one first, which keeps the index grown).
// "call" includes Begin and Close; "lookups" only the 40 Record calls.
func BenchmarkRecord(b *testing.B) {
	for _, n := range []int{1000, 200000} {
		l := newRecordWorkspace(b)
		r := rand.New(rand.NewPCG(3, 4))
		key := func(i int) string {
			return fmt.Sprintf("%d\x1f%s", i/8, []string{"read_file", "edit", "grep", "bash", "test", "web_fetch", "plan", "ask"}[i%8])
		}
		for at := 0; at < n; at += 50 {
			tx, err := l.Begin(true)
			require.NoError(b, err)
			_, err = tx.Record(key(at))
			require.NoError(b, err)
			var recs []Record
			for i := at; i < at+50; i++ {
				recs = append(recs, Record{Key: key(i), Value: fmt.Appendf(nil, `{"edit":%d,"read_file":%d,"grep":%d,"bash":%d}`, r.IntN(50), r.IntN(50), r.IntN(50), r.IntN(50))})
			}
			require.NoError(b, tx.SetRecords(recs))
			_, err = tx.Commit(event("test", tx.Meta.Seq), testState)
			require.NoError(b, err)
			tx.Close()
		}
		var keys []string
		for i := range 40 {
			if i < 30 {
				keys = append(keys, key(r.IntN(n)))
			} else {
				keys = append(keys, key(n+i))
			}
		}
		b.Run(fmt.Sprintf("records=%d/call", n), func(b *testing.B) {
			for b.Loop() {
				tx, err := l.Begin(true)
				if err != nil {
					b.Fatal(err)
				}
				for _, k := range keys {
					if _, err := tx.Record(k); err != nil {
						b.Fatal(err)
					}
				}
				tx.Close()
			}
		})
		b.Run(fmt.Sprintf("records=%d/lookups", n), func(b *testing.B) {
			tx, err := l.Begin(true)
			require.NoError(b, err)
			defer tx.Close()
			for b.Loop() {
				for _, k := range keys {
					if _, err := tx.Record(k); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
		b.Logf("records=%d: index %v", n, recordFiles(b, l))
	}
}
