package advice

import "strconv"

// RecordKey is a model's key in the record log: behind its generation
// when a migration started the model, so that a workspace that comes back
// to v5 reads nothing an earlier period learned.
func RecordKey(generation int64, key string) string {
	if generation == 0 {
		return key
	}
	return strconv.FormatInt(generation, 10) + ":" + key
}
