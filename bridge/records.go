package bridge

import (
	"strconv"

	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
)

// relModelLog is the record log a v5 model's evidence lives in.
const relModelLog = workspace.RelModelLog

// sessionRecords reads a v5 model's records from the call's transaction:
// the committed values, key by key (workspace.Tx.Record).
type sessionRecords struct {
	s          *session
	generation int64
}

// Record returns the newest committed value of a model's key.
func (r sessionRecords) Record(key string) ([]byte, error) {
	return r.s.tx.Record(recordKey(r.generation, key))
}

// recordKey is a model's key in the record log: behind its generation
// when a migration started the model.
func recordKey(generation int64, key string) string {
	if generation == 0 {
		return key
	}
	return strconv.FormatInt(generation, 10) + ":" + key
}

// setRecords queues what a model changed, for the call's commit to append
// as one line of the record log.
func (s *session) setRecords(generation int64, recs []nextstep.Record) error {
	out := make([]workspace.Record, len(recs))
	for i, r := range recs {
		out[i] = workspace.Record{Key: recordKey(generation, r.Key), Value: r.Value, Merge: r.Merge}
	}
	return s.tx.SetRecords(out)
}
