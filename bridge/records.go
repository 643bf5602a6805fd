package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
)

// sessionRecords reads a v5 model's records from the call's transaction:
// the committed values, key by key (workspace.Tx.Record).
type sessionRecords struct {
	s          *session
	generation int64
}

// Record returns the newest committed value of a model's key.
func (r sessionRecords) Record(key string) ([]byte, error) {
	return r.s.tx.Record(advice.RecordKey(r.generation, key))
}

// setRecords queues what a model changed, for the call's commit to append
// as one line of the record log.
func (s *session) setRecords(generation int64, recs []nextstep.Record) error {
	out := make([]workspace.Record, len(recs))
	for i, r := range recs {
		out[i] = workspace.Record{Key: advice.RecordKey(generation, r.Key), Value: r.Value, Merge: r.Merge}
	}
	return s.tx.SetRecords(out)
}
