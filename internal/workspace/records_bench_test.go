package workspace

import (
	"fmt"
	"math/rand/v2"
	"os"
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

// BenchmarkRecordMerges measures a call's 40 lookups (30 keys present, 10
// absent; Begin and Close included) on a log of 2,000 records of 40
// tools' counts each (about 1.2 KB), whose tail holds 8 lines that each
// change one tool's count of the 30 keys looked up: written as merges,
// which every call applies to the segments' values, or as whole values.
// It logs the bytes a line of each history takes (-v).
func BenchmarkRecordMerges(b *testing.B) {
	const keys, tools = 2000, 40
	key := func(i int) string { return fmt.Sprintf("%d\x1fctx", i) }
	whole := func(counts []int) []byte {
		v := []byte{'{'}
		for t, n := range counts {
			if t > 0 {
				v = append(v, ',')
			}
			v = fmt.Appendf(v, `"tool_%02d":{"n":%d,"ok":%d}`, t, n, n/2)
		}
		return append(v, '}')
	}
	for _, merges := range []bool{false, true} {
		l := newRecordWorkspace(b)
		r := rand.New(rand.NewPCG(5, 6))
		counts := make([][]int, keys)
		for i := range counts {
			counts[i] = make([]int, tools)
			for t := range tools {
				counts[i][t] = r.IntN(100)
			}
		}
		change := func(i int) Record {
			t := r.IntN(tools)
			counts[i][t]++
			if merges {
				return Record{Key: key(i), Value: fmt.Appendf(nil, `{"tool_%02d":{"n":%d,"ok":%d}}`, t, counts[i][t], counts[i][t]/2), Merge: true}
			}
			return Record{Key: key(i), Value: whole(counts[i])}
		}
		commit := func(grow bool, recs []Record) {
			tx, err := l.Begin(true)
			require.NoError(b, err)
			if grow {
				_, err = tx.Record(key(0)) // grows the index
				require.NoError(b, err)
			}
			require.NoError(b, tx.SetRecords(recs))
			_, err = tx.Commit(event("test", tx.Meta.Seq), testState)
			require.NoError(b, err)
			tx.Close()
		}
		for at := 0; at < keys; at += 50 {
			var recs []Record
			for i := at; i < at+50; i++ {
				recs = append(recs, Record{Key: key(i), Value: whole(counts[i])})
			}
			commit(true, recs)
		}
		before, err := os.Stat(l.path(RelModelLog))
		require.NoError(b, err)
		for range 400 {
			var recs []Record
			for _, i := range r.Perm(keys)[:5] {
				recs = append(recs, change(i))
			}
			commit(true, recs)
		}
		var look []string
		for i := range 40 {
			look = append(look, key(i*keys/30))
			if i >= 30 {
				look[i] = key(keys + i)
			}
		}
		commit(true, nil) // the tail starts empty
		for range recTailLines {
			var recs []Record
			for i := range 30 {
				recs = append(recs, change(i*keys/30))
			}
			commit(false, recs)
		}
		name := "tail=sets"
		if merges {
			name = "tail=merges"
		}
		b.Run(name+"/call", func(b *testing.B) {
			for b.Loop() {
				tx, err := l.Begin(true)
				if err != nil {
					b.Fatal(err)
				}
				for _, k := range look {
					if _, err := tx.Record(k); err != nil {
						b.Fatal(err)
					}
				}
				tx.Close()
			}
		})
		st, err := os.Stat(l.path(RelModelLog))
		require.NoError(b, err)
		changes := int64(400 + recTailLines) // the lines after the whole values, the empty commit writing none
		b.Logf("%s: %d bytes of log, %d a line that changes records; index %v", name, st.Size(), (st.Size()-before.Size())/changes, recordFiles(b, l))
	}
}
