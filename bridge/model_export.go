package bridge

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
)

// The learned model travels in an export package's "model" member, so an
// agent moved to another workspace keeps what it learned:
//
//	{"version": "v5", "manifest": DIGEST, "capabilities": [NAME, ...],
//	 "state": {...}, "records": {KEY: VALUE, ...}}
//
// version is the exporting workspace's model; manifest a digest of its
// pinned manifest and capabilities its capabilities' names, in the
// manifest's order. For v5, state is the small state (the trails of the
// last tasks, how advice fared, the model's globals; not the advisories,
// which name the exporting workspace's events) and records the current
// generation's evidence, every key of the record log with its value, in
// byte order. For v3 and v4, state is the learned state (learn.State)
// without its advisories, and there are no records. The reference's
// model (v2) exports no model member: its routing graph and policy
// biases are the package's own members, as the reference writes them.
//
// import reads it (importModel): into a workspace of the same model that
// has learned nothing it is restored (v5 into another manifest: the
// records of the capabilities both know), into one that has learned it
// is pooled (v5: the counts summed, the beliefs combined,
// nextstep.PoolRecord), and into a workspace of another model it is not
// imported, and the answer says why.

// modelMember is the package member that holds the learned model.
const modelMember = "model"

// modelImportWeight is what the imported evidence counts for when it is
// pooled with a workspace's own: as much as the workspace's own, as if
// one agent had learned both.
const modelImportWeight = 1.0

// manifestDigest identifies a manifest by its pinned bytes.
func (s *session) manifestDigest() string {
	sum := sha256.Sum256(s.manifest.Bytes())
	return hex.EncodeToString(sum[:12])
}

// exportModel returns the package's model member, and false for the
// reference's model, which has none.
func (s *session) exportModel() (pyjson.Value, bool, error) {
	var state []byte
	var records []pyjson.Member
	switch {
	case s.model.nextSteps():
		v, err := s.steps()
		if err != nil {
			return pyjson.Value{}, false, err
		}
		state = v.AppendPortable(nil)
		prefix := ""
		if v.Generation != 0 {
			prefix = advice.RecordKey(v.Generation, "")
		}
		var bad error
		err = s.tx.Records(func(key string, value []byte) bool {
			k, ok := strings.CutPrefix(key, prefix)
			if !ok || (prefix == "" && k != "" && k[0] >= '0' && k[0] <= '9') {
				return true // another generation's
			}
			x, err := pyjson.Parse(value)
			if err != nil {
				bad = corrupt(fmt.Errorf("record %q: %v", key, err), relModelLog)
				return false
			}
			records = append(records, pyjson.KV(k, x))
			return true
		})
		if err == nil {
			err = bad
		}
		if err != nil {
			return pyjson.Value{}, false, err
		}
	case s.model.learns():
		v, err := s.learned()
		if err != nil {
			return pyjson.Value{}, false, err
		}
		w := *v
		w.Advisories = nil
		state = w.AppendJSON(nil)
	default:
		return pyjson.Value{}, false, nil
	}
	st, err := pyjson.Parse(state)
	if err != nil {
		return pyjson.Value{}, false, internal(err, "encode the learned state")
	}
	out := []pyjson.Member{
		pyjson.KV("version", s.meta.Model),
		pyjson.KV("manifest", s.manifestDigest()),
		pyjson.KV("capabilities", s.manifest.Names()),
		pyjson.KV("state", st),
	}
	if s.model.nextSteps() {
		out = append(out, pyjson.KV("records", pyjson.ObjectValue(records)))
	}
	return pyjson.ObjectValue(out), true, nil
}

// A modelPackage is a package's model member, read and checked.
type modelPackage struct {
	version      string
	manifest     string
	capabilities []string
	state        []byte // compact JSON
	steps        *advice.Steps
	learnt       *learn.State
	records      []workspace.Record // in key order
	digest       string
}

// badModel is the error of a model member that is not as export writes it.
func badModel(format string, args ...any) error {
	return badInput(fault.CodeInvalidValue, "pipe the output of `ucs export` unchanged; leave out the \"model\" member to import the rest",
		"the package's model: "+format, args...)
}

// readModel reads a package's model member: the version, manifest digest
// and capabilities always; the state and records as export writes them
// for a model this build knows (one it does not know is carried, not
// read: import says it is not imported). Anything else is refused with
// invalid_value.
func readModel(x pyjson.Value) (*modelPackage, error) {
	if x.Kind() != pyjson.Object {
		return nil, badModel("want an object, got %s", x.Kind().Noun())
	}
	mp := &modelPackage{}
	sum := sha256.Sum256(pyjson.Canonical(x))
	mp.digest = "model:" + hex.EncodeToString(sum[:12])
	for _, k := range []struct {
		key string
		dst *string
	}{{"version", &mp.version}, {"manifest", &mp.manifest}} {
		v, ok := x.Get(k.key)
		if !ok || v.Kind() != pyjson.String || v.Str() == "" {
			return nil, badModel("%s: want a non-empty string", k.key)
		}
		*k.dst = v.Str()
	}
	caps, _ := x.Get("capabilities")
	if caps.Kind() != pyjson.Array {
		return nil, badModel("capabilities: want a list of names")
	}
	for i, c := range caps.Items() {
		if c.Kind() != pyjson.String || c.Str() == "" {
			return nil, badModel("capabilities[%d]: want a name", i)
		}
		mp.capabilities = append(mp.capabilities, c.Str())
	}
	m := lookupModel(mp.version)
	if m == nil || !m.learns() && !m.nextSteps() {
		return mp, nil // carried, not read: import says so
	}
	st, ok := x.Get("state")
	if !ok || st.Kind() != pyjson.Object {
		return nil, badModel("state: want the learned state, an object")
	}
	mp.state = pyjson.AppendCompact(nil, st)
	if m.learns() {
		v, err := learn.DecodeState(mp.state, *m.params)
		if err != nil {
			return nil, badModel("state: %v", err)
		}
		if len(v.Advisories) > 0 {
			return nil, badModel("state: an exported state has no advisories")
		}
		mp.learnt = v
		if _, ok := x.Get("records"); ok {
			return nil, badModel("records: a %s model has none", mp.version)
		}
		return mp, nil
	}
	v, err := advice.DecodePortable(mp.state)
	if err != nil {
		return nil, badModel("state: %v", err)
	}
	mp.steps = v
	recs, _ := x.Get("records")
	if recs.Kind() != pyjson.Object {
		return nil, badModel("records: want an object of records by key")
	}
	for i, r := range recs.Members() {
		if i > 0 && r.Key <= mp.records[i-1].Key {
			return nil, badModel("records: the keys must be distinct and in byte order (%q)", r.Key)
		}
		if r.Value.Kind() != pyjson.Object {
			return nil, badModel("records[%q]: want an object", r.Key)
		}
		value := pyjson.AppendCompact(nil, r.Value)
		if err := nextstep.CheckRecord(r.Key, value); err != nil {
			return nil, badModel("records[%q]: %v", r.Key, err)
		}
		mp.records = append(mp.records, workspace.Record{Key: r.Key, Value: value})
	}
	return mp, nil
}

// checkModelMember is the import field's check: the member reads.
func checkModelMember(x pyjson.Value, present bool) error {
	if !present {
		return nil
	}
	_, err := readModel(x)
	return err
}

// importModel brings a package's model into the workspace and returns
// what it did, for the answer's "model" member:
//   - "already_imported": this model member was imported before (its
//     digest is in the state's imports): nothing changes;
//   - "not_imported": the package's model is not the workspace's (the
//     answer names both, and how to move), or a v3/v4 model that cannot
//     be pooled (its weights are hashed, not named: only a workspace of
//     the same manifest that has learned nothing takes it);
//   - "restored": the workspace has learned nothing and has the same
//     manifest: the model as it was, so that consult advises the same;
//   - "mapped" (v5): the workspace has learned nothing but has another
//     manifest: the records of the capabilities it has;
//   - "pooled" (v5): the workspace has learned: each record pooled with
//     its own (nextstep.PoolRecord), its own trails and globals kept.
func (s *session) importModel(mp *modelPackage, again bool) (pyjson.Value, error) {
	out := []pyjson.Member{pyjson.KV("version", mp.version)}
	answer := func(action string, more ...pyjson.Member) pyjson.Value {
		return pyjson.ObjectValue(append(append(out, pyjson.KV("action", action)), more...))
	}
	if again || s.seenImport(mp.digest) {
		return answer("already_imported"), nil
	}
	if mp.version != s.meta.Model {
		s.warn("the package's learned model is " + mp.version + " and this workspace's " + s.meta.Model + ": the model was not imported")
		hint := "export from a " + s.meta.Model + " workspace, or import into a workspace of model " + mp.version
		if m := lookupModel(mp.version); m != nil && (m.learns() || m.nextSteps()) {
			hint = "`ucs migrate --model " + mp.version + "` first, then import again; or " + hint
		}
		return answer("not_imported", pyjson.KV("reason", "the workspace's model is "+s.meta.Model), pyjson.KV("hint", hint)), nil
	}
	same := mp.manifest == s.manifestDigest()
	if mp.learnt != nil {
		v, err := s.learned()
		if err != nil {
			return pyjson.Value{}, err
		}
		fresh := string(v.AppendJSON(nil)) == string(newLearnState(s.model).AppendJSON(nil))
		if !same || !fresh {
			reason := "a " + mp.version + " model's weights are hashed, not named: they are restored only into a workspace of the same manifest that has learned nothing"
			s.warn("the package's learned model was not imported: " + reason)
			return answer("not_imported", pyjson.KV("reason", reason),
				pyjson.KV("hint", "import into a fresh workspace made with the exporting workspace's manifest")), nil
		}
		s.learnt = mp.learnt
		s.importedBefore(mp.digest)
		return answer("restored"), nil
	}
	return s.importSteps(mp, same, answer)
}

// importSteps is importModel for a v5 model.
func (s *session) importSteps(mp *modelPackage, same bool, answer func(string, ...pyjson.Member) pyjson.Value) (pyjson.Value, error) {
	v, err := s.steps()
	if err != nil {
		return pyjson.Value{}, err
	}
	fresh := v.Globals.Calls == 0 && v.Globals.Clock == 0
	action := "pooled"
	switch {
	case fresh && same:
		action = "restored"
	case fresh:
		action = "mapped"
	}
	has := s.manifest.Has
	if same {
		has = func(string) bool { return true }
	}
	unknown := map[string]bool{}
	var recs []nextstep.Record
	left := 0
	for _, r := range mp.records {
		value, missing, err := nextstep.ProjectRecord(r.Key, r.Value, has)
		if err != nil {
			return pyjson.Value{}, badModel("records[%q]: %v", r.Key, err)
		}
		for _, c := range missing {
			unknown[c] = true
		}
		if value == nil {
			left++
			continue
		}
		if action == "pooled" {
			mine, err := s.tx.Record(advice.RecordKey(v.Generation, r.Key))
			if err != nil {
				return pyjson.Value{}, err
			}
			if mine != nil {
				if err := nextstep.CheckRecord(r.Key, mine); err != nil {
					return pyjson.Value{}, corrupt(fmt.Errorf("record %q: %v", r.Key, err), relModelLog)
				}
			}
			if value, err = nextstep.PoolRecord(*s.model.steps, r.Key, mine, value, modelImportWeight, v.Globals); err != nil {
				return pyjson.Value{}, internal(err, "pool record %q", r.Key)
			}
		}
		recs = append(recs, nextstep.Record{Key: r.Key, Value: value})
	}
	if err := s.setRecords(v.Generation, recs); err != nil {
		return pyjson.Value{}, err
	}
	switch action {
	case "restored":
		v.Episodes, v.Located = mp.steps.Episodes, mp.steps.Located
		v.Followed, v.Unfollowed = mp.steps.Followed, mp.steps.Unfollowed
		v.Globals = mp.steps.Globals
	case "mapped":
		v.Globals = mp.steps.Globals
	}
	v.Model = nil // what the call reads next is the records just set
	s.importedBefore(mp.digest)
	missing := slices.Sorted(func(yield func(string) bool) {
		for c := range unknown {
			if !yield(c) {
				return
			}
		}
	})
	if missing == nil {
		missing = []string{}
	}
	if len(missing) > 0 {
		s.warn("the package's model names " + itoa(len(missing)) + " capabilities this workspace lacks (" +
			strings.Join(missing[:min(5, len(missing))], ", ") + "): their evidence was not imported")
	}
	return answer(action,
		pyjson.KV("records", len(recs)),
		pyjson.KV("records_left_out", left),
		pyjson.KV("capabilities_unknown_here", missing),
	), nil
}

// seenImport reports whether a digest is among the imports remembered,
// without remembering it.
func (s *session) seenImport(digest string) bool {
	if s.state.imports.raw == nil {
		return false
	}
	v, err := pyjson.Parse(s.state.imports.raw)
	if err != nil {
		return false
	}
	for _, it := range v.Items() {
		if it.Str() == digest {
			return true
		}
	}
	return false
}
