package advice

import (
	"strconv"

	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
)

// RecordKey is a model's key in the record log: behind its generation
// when a migration started the model, so that a workspace that comes back
// to v5 reads nothing an earlier period learned.
func RecordKey(generation int64, key string) string {
	if generation == 0 {
		return key
	}
	return strconv.FormatInt(generation, 10) + ":" + key
}

// Open returns the v5 model over the record log (nextstep.Open on the
// state's globals), opening it on first use: read returns the newest
// committed value of a key of the log, and prior is the manifest's prior
// (Place.Prior). The model reads its keys behind the state's Generation.
func (v *Steps) Open(p nextstep.Params, read func(key string) ([]byte, error), prior func(to string) float64) *nextstep.Model {
	if v.Model == nil {
		v.Model = nextstep.Open(p, generationStore{read, v.Generation}, v.Globals)
		v.Model.Prior = prior
	}
	return v.Model
}

// Changes returns what the call's model learned, for the record log,
// and keeps the model's global numbers in the state; nothing when the
// call opened no model (Open). Its error is the model's
// (nextstep.Model.Err): evidence it could not read.
func (v *Steps) Changes() ([]nextstep.Record, error) {
	if v == nil || v.Model == nil {
		return nil, nil
	}
	if err := v.Model.Err(); err != nil {
		return nil, err
	}
	v.Globals = v.Model.Globals()
	return v.Model.Changes(true), nil
}

// generationStore reads a model's keys of one generation (RecordKey).
type generationStore struct {
	read       func(key string) ([]byte, error)
	generation int64
}

// Record returns the newest value of the generation's key.
func (g generationStore) Record(key string) ([]byte, error) {
	return g.read(RecordKey(g.generation, key))
}
