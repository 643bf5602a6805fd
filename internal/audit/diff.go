package audit

import (
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
)

// eventDiff compares a replayed event with the recorded one on what a
// replay must reproduce: the clock, the state hashes and the data files.
func eventDiff(replayed, recorded pyjson.Value) []pyjson.Value {
	var diffs []pyjson.Value
	for _, k := range []string{"t_before", "t_after", "state_before", "state_after", "files"} {
		g, _ := replayed.Get(k)
		w, _ := recorded.Get(k)
		if k == "files" { // Markdown is for people and not hashed: compare the data files
			g, w = hashedFiles(g), hashedFiles(w)
		}
		if string(pyjson.Canonical(g)) != string(pyjson.Canonical(w)) {
			diffs = append(diffs, pyjson.Obj(pyjson.KV("field", k), pyjson.KV("replayed", g), pyjson.KV("recorded", w)))
		}
	}
	return diffs
}

// hashedFiles keeps the data files of an event's files member.
func hashedFiles(files pyjson.Value) pyjson.Value {
	var ms []pyjson.Member
	for _, m := range files.Members() {
		for _, rel := range workspace.DataFiles() {
			if m.Key == rel {
				ms = append(ms, m)
			}
		}
	}
	return pyjson.ObjectValue(ms)
}

// stateDiff lists the top-level members of two state files that differ,
// and within the engine state the fields, so a person sees where.
func stateDiff(workspace, replayed pyjson.Value) []pyjson.Value {
	var out []pyjson.Value
	var walk func(path string, w, r pyjson.Value, depth int)
	walk = func(path string, w, r pyjson.Value, depth int) {
		if string(pyjson.Canonical(w)) == string(pyjson.Canonical(r)) {
			return
		}
		if depth == 0 || w.Kind() != pyjson.Object || r.Kind() != pyjson.Object {
			out = append(out, pyjson.Obj(pyjson.KV("field", path)))
			return
		}
		for _, m := range w.Members() {
			rv, _ := r.Get(m.Key)
			walk(joinPath(path, m.Key), m.Value, rv, depth-1)
		}
	}
	walk("", workspace, replayed, 3)
	return out
}

func joinPath(a, b string) string {
	if a == "" {
		return b
	}
	return a + "." + b
}
