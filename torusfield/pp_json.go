package torusfield

import "github.com/unified-cognitive-substrate/ucs/internal/pyjson"

// Rounded is the PP vector as answers print it: every dimension, by name,
// rounded to 4 places.
func (p PP) Rounded() pyjson.Value {
	ms := make([]pyjson.Member, len(p))
	for i, name := range PPDimensions {
		ms[i] = pyjson.KV(name, pyjson.Round(p[i], 4))
	}
	return pyjson.ObjectValue(ms)
}

// Exact is the PP vector unrounded, as the PP history stores it.
func (p PP) Exact() pyjson.Value {
	ms := make([]pyjson.Member, len(p))
	for i, name := range PPDimensions {
		ms[i] = pyjson.KV(name, p[i])
	}
	return pyjson.ObjectValue(ms)
}

// PPSnapshot is the PP history's entry for the engine as it is now,
// taken at timestamp (RFC 3339).
func (e *Engine) PPSnapshot(timestamp string) pyjson.Value {
	return pyjson.Obj(
		pyjson.KV("t", e.Grid.T),
		pyjson.KV("timestamp", timestamp),
		pyjson.KV("pp", e.PP.Exact()),
		pyjson.KV("health", pyjson.Round(e.PP.Health(), 4)),
		pyjson.KV("artifact_count", e.Artifacts.Len()),
	)
}
