package transfer

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
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
// import reads it (ReadModel, then Refusal, ImportLearned or
// ImportSteps): into a workspace of the same model that has learned
// nothing it is restored (v5 into another manifest: the
// records of the capabilities both know), into one that has learned it
// is pooled (v5: the counts summed, the beliefs combined,
// nextstep.PoolRecord), and into a workspace of another model it is not
// imported, and the answer says why.

// ModelMember is the package member that holds the learned model.
const ModelMember = "model"

// ManifestDigest identifies a manifest by its pinned bytes.
func ManifestDigest(m *torusfield.Manifest) string {
	sum := sha256.Sum256(m.Bytes())
	return hex.EncodeToString(sum[:12])
}

// A Head is what a model member says of the workspace it comes from: its
// model's name and its manifest.
type Head struct {
	Version  string
	Manifest *torusfield.Manifest
}

// exportSteps returns the model member of a v5 workspace: its portable
// state v and the records of v's generation, read from tx.
func exportSteps(h Head, v *advice.Steps, tx *workspace.Tx) (pyjson.Value, error) {
	var records []pyjson.Member
	prefix := ""
	if v.Generation != 0 {
		prefix = advice.RecordKey(v.Generation, "")
	}
	var bad error
	err := tx.Records(func(key string, value []byte) bool {
		k, ok := strings.CutPrefix(key, prefix)
		if !ok || (prefix == "" && k != "" && k[0] >= '0' && k[0] <= '9') {
			return true // another generation's
		}
		x, err := pyjson.Parse(value)
		if err != nil {
			bad = fault.Corrupt(fmt.Errorf("record %q: %v", key, err), workspace.RelModelLog)
			return false
		}
		records = append(records, pyjson.KV(k, x))
		return true
	})
	if err == nil {
		err = bad
	}
	if err != nil {
		return pyjson.Value{}, err
	}
	out, err := h.member(v.AppendPortable(nil))
	if err != nil {
		return pyjson.Value{}, err
	}
	return out.With("records", pyjson.ObjectValue(records)), nil
}

// exportLearned returns the model member of a v3 or v4 workspace: its
// learned state without the advisories, which name its events.
func exportLearned(h Head, v *learn.State) (pyjson.Value, error) {
	w := *v
	w.Advisories = nil
	return h.member(w.AppendJSON(nil))
}

// member is the model member of a learned state (compact JSON).
func (h Head) member(state []byte) (pyjson.Value, error) {
	st, err := pyjson.Parse(state)
	if err != nil {
		return pyjson.Value{}, fault.Internal(err, "encode the learned state")
	}
	return pyjson.Obj(
		pyjson.KV("version", h.Version),
		pyjson.KV("manifest", ManifestDigest(h.Manifest)),
		pyjson.KV("capabilities", h.Manifest.Names()),
		pyjson.KV("state", st),
	), nil
}

// A Model is a package's model member, read and checked.
type Model struct {
	Version      string
	Manifest     string // ManifestDigest of the exporting workspace's
	Capabilities []string
	// Steps is a v5 member's state, Learnt a v3 or v4 member's; both nil
	// for a model this build does not read.
	Steps   *advice.Steps
	Learnt  *learn.State
	Records []workspace.Record // in key order
	// Digest identifies the member, for the state's imports.
	Digest string
}

// Kinds says how the member of a model version is read: the settings of
// a model of package learn (v3, v4), or steps for the next-step model
// (v5); neither for one that exports none or that this build does not know.
type Kinds func(version string) (params *learn.Params, steps bool)

// badModel is the error of a model member that is not as export writes it.
func badModel(format string, args ...any) error {
	return fault.BadInput(fault.CodeInvalidValue, "pipe the output of `ucs export` unchanged; leave out the \"model\" member to import the rest",
		"the package's model: "+format, args...)
}

// ReadModel reads a package's model member: the version, manifest digest
// and capabilities always; the state and records as export writes them
// for a model this build knows (one it does not know is carried, not
// read: import says it is not imported). Anything else is refused with
// invalid_value.
func ReadModel(x pyjson.Value, kinds Kinds) (*Model, error) {
	if x.Kind() != pyjson.Object {
		return nil, badModel("want an object, got %s", x.Kind().Noun())
	}
	mp := &Model{}
	sum := sha256.Sum256(pyjson.Canonical(x))
	mp.Digest = "model:" + hex.EncodeToString(sum[:12])
	for _, k := range []struct {
		key string
		dst *string
	}{{"version", &mp.Version}, {"manifest", &mp.Manifest}} {
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
		mp.Capabilities = append(mp.Capabilities, c.Str())
	}
	params, steps := kinds(mp.Version)
	if params == nil && !steps {
		return mp, nil // carried, not read: import says so
	}
	st, ok := x.Get("state")
	if !ok || st.Kind() != pyjson.Object {
		return nil, badModel("state: want the learned state, an object")
	}
	state := pyjson.AppendCompact(nil, st)
	if params != nil {
		v, err := learn.DecodeState(state, *params)
		if err != nil {
			return nil, badModel("state: %v", err)
		}
		if len(v.Advisories) > 0 {
			return nil, badModel("state: an exported state has no advisories")
		}
		mp.Learnt = v
		if _, ok := x.Get("records"); ok {
			return nil, badModel("records: a %s model has none", mp.Version)
		}
		return mp, nil
	}
	v, err := advice.DecodePortable(state)
	if err != nil {
		return nil, badModel("state: %v", err)
	}
	mp.Steps = v
	recs, _ := x.Get("records")
	if recs.Kind() != pyjson.Object {
		return nil, badModel("records: want an object of records by key")
	}
	for i, r := range recs.Members() {
		if i > 0 && r.Key <= mp.Records[i-1].Key {
			return nil, badModel("records: the keys must be distinct and in byte order (%q)", r.Key)
		}
		if r.Value.Kind() != pyjson.Object {
			return nil, badModel("records[%q]: want an object", r.Key)
		}
		value := pyjson.AppendCompact(nil, r.Value)
		if err := nextstep.CheckRecord(r.Key, value); err != nil {
			return nil, badModel("records[%q]: %v", r.Key, err)
		}
		mp.Records = append(mp.Records, workspace.Record{Key: r.Key, Value: value})
	}
	return mp, nil
}

// LearningKinds are the kinds of the learning models ucs knows
// (advice.LookupModel): what a workspace could migrate an imported
// model to.
func LearningKinds(version string) (params *learn.Params, steps bool) {
	m := advice.LookupModel(version)
	if m == nil {
		return nil, false
	}
	return m.Params, m.NextSteps()
}
