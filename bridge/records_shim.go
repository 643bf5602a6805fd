package bridge

import (
	"strconv"

	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
)

// relModelLog is the record log a v5 model's evidence lives in.
const relModelLog = "ucs/state/model.jsonl"

// sessionRecords reads a v5 model's records for the session.
type sessionRecords struct {
	s          *session
	generation int64
}

// recordKey is a model's key in the record log: behind its generation
// when the model was started by a migration.
func recordKey(generation int64, key string) string {
	if generation == 0 {
		return key
	}
	return strconv.FormatInt(generation, 10) + ":" + key
}

// TEMPORARY: until the workspace's record log lands, records live in the
// state member.
var shimRecords = map[string][]byte{}

func (r sessionRecords) Record(key string) ([]byte, error) {
	return shimRecords[recordKey(r.generation, key)], nil
}

func (s *session) setRecords(generation int64, recs []nextstep.Record) {
	for _, rec := range recs {
		shimRecords[recordKey(generation, rec.Key)] = rec.Value
	}
}
