// Package quickjson reads a member of a JSON document ucs wrote without
// parsing the rest of it (gjson), as a call that needs one member of the
// state file does, and reads it as the full parser (internal/pyjson) does:
// when a key is repeated, the last member counts. gjson's Get would find
// the first, so a quick read of a malformed state could disagree with the
// call that loads it whole.
package quickjson

import "github.com/tidwall/gjson"

// Member returns the member key of the object r: the last one when the key
// is repeated, as pyjson keeps it; a result that does not exist when r has
// no such member or is no object.
func Member(r gjson.Result, key string) gjson.Result {
	var out gjson.Result
	r.ForEach(func(k, v gjson.Result) bool {
		if k.Str == key {
			out = v
		}
		return true
	})
	return out
}
