package transfer

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// What import does with a model member (the answer's model.action):
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
const (
	ActionAlreadyImported = "already_imported"
	ActionNotImported     = "not_imported"
	ActionRestored        = "restored"
	ActionMapped          = "mapped"
	ActionPooled          = "pooled"
)

// modelImportWeight is what the imported evidence counts for when it is
// pooled with a workspace's own: as much as the workspace's own, as if
// one agent had learned both.
const modelImportWeight = 1.0

// A ModelTarget is the workspace an import brings a model member into,
// as the importing call reaches it.
type ModelTarget struct {
	// Again says the package was imported before: the member is too.
	Again    bool
	Model    string // the workspace's model
	Kinds    Kinds  // what the workspace could migrate to
	Manifest *torusfield.Manifest
	// Imports is the state's imports member (Seen), to which the member's
	// digest is added once it is imported (Remember).
	Imports *[]byte
	// Learned, Fresh and Restore reach a v3 or v4 workspace's learned
	// state: as it is, as a new workspace's, and its replacement.
	Learned func() (*learn.State, error)
	Fresh   func() *learn.State
	Restore func(*learn.State)
	// Steps, Params, Tx and SetRecords reach a v5 workspace's state, its
	// model's settings, its committed records and the records the call
	// sets (in a generation).
	Steps      func() (*advice.Steps, error)
	Params     *nextstep.Params
	Tx         *workspace.Tx
	SetRecords func(generation int64, recs []nextstep.Record) error
	Warn       func(string)
}

// Import brings the member into t and returns the import answer's model
// member: what was done, and why when nothing was.
func (mp *Model) Import(t ModelTarget) (pyjson.Value, error) {
	var out pyjson.Value
	var warning string
	switch {
	case t.Again || Seen(*t.Imports, mp.Digest):
		return mp.Answer(ActionAlreadyImported), nil
	case mp.Version != t.Model:
		params, steps := t.Kinds(mp.Version)
		out, warning = mp.OtherVersion(t.Model, params != nil || steps)
	case mp.Learnt == nil && mp.Steps == nil: // the reference's model learns none
		out, warning = mp.NoModel()
	case mp.Learnt != nil:
		v, err := t.Learned()
		if err != nil {
			return pyjson.Value{}, err
		}
		if out, warning = mp.ImportLearned(t.Manifest, v, t.Fresh()); warning == "" {
			t.Restore(mp.Learnt)
			*t.Imports, _ = Remember(*t.Imports, mp.Digest)
		}
	default:
		v, err := t.Steps()
		if err != nil {
			return pyjson.Value{}, err
		}
		imp, err := mp.ImportSteps(t.Params, t.Manifest, v, t.Tx)
		if err != nil {
			return pyjson.Value{}, err
		}
		if err := t.SetRecords(v.Generation, imp.Records); err != nil {
			return pyjson.Value{}, err
		}
		imp.Apply(mp, v)
		*t.Imports, _ = Remember(*t.Imports, mp.Digest)
		out, warning = imp.Answer(mp)
	}
	if warning != "" {
		t.Warn(warning)
	}
	return out, nil
}

// Answer is the import answer's model member: the member's version, what
// import did, and more.
func (mp *Model) Answer(action string, more ...pyjson.Member) pyjson.Value {
	return pyjson.ObjectValue(append([]pyjson.Member{pyjson.KV("version", mp.Version), pyjson.KV("action", action)}, more...))
}

// OtherVersion is the answer for a member of a model (mp.Version) that is
// not the workspace's (model), with a warning; migratable says the
// workspace could migrate to the member's model.
func (mp *Model) OtherVersion(model string, migratable bool) (answer pyjson.Value, warning string) {
	hint := "export from a " + model + " workspace, or import into a workspace of model " + mp.Version
	if migratable {
		hint = "`ucs migrate --model " + mp.Version + "` first, then import again; or " + hint
	}
	return mp.Answer(ActionNotImported, pyjson.KV("reason", "the workspace's model is "+model), pyjson.KV("hint", hint)),
		"the package's learned model is " + mp.Version + " and this workspace's " + model + ": the model was not imported"
}

// NoModel is the answer, with a warning, for a member of the workspace's
// own model when that model learns nothing of its own (the reference's):
// there is nothing to restore or pool, its routing graph and policy
// biases being the package's own members.
func (mp *Model) NoModel() (answer pyjson.Value, warning string) {
	reason := "a " + mp.Version + " workspace keeps no learned model: its routing graph and policy biases are the package's own members"
	return mp.Answer(ActionNotImported, pyjson.KV("reason", reason),
			pyjson.KV("hint", "leave out the \"model\" member; the routing graph is imported without it")),
		"the package's learned model was not imported: " + reason
}

// ImportLearned decides for a v3 or v4 member: restored (the caller takes
// mp.Learnt) into a workspace of the same manifest whose state (mine) is
// as new (fresh); otherwise not imported, with a warning.
func (mp *Model) ImportLearned(m *torusfield.Manifest, mine, fresh *learn.State) (answer pyjson.Value, warning string) {
	if mp.Manifest != ManifestDigest(m) || string(mine.AppendJSON(nil)) != string(fresh.AppendJSON(nil)) {
		reason := "a " + mp.Version + " model's weights are hashed, not named: they are restored only into a workspace of the same manifest that has learned nothing"
		return mp.Answer(ActionNotImported, pyjson.KV("reason", reason),
				pyjson.KV("hint", "import into a fresh workspace made with the exporting workspace's manifest")),
			"the package's learned model was not imported: " + reason
	}
	return mp.Answer(ActionRestored), ""
}

// A StepsImport is what importing a v5 member does: the records to set
// (in the workspace's generation), and what the answer counts.
type StepsImport struct {
	Action  string // restored, mapped or pooled
	Records []nextstep.Record
	Left    int      // records of no capability the workspace has
	Unknown []string // the member's capabilities the workspace lacks, sorted
}

// ImportSteps decides for a v5 member imported into a workspace of
// manifest m whose state is v: each record projected onto m's
// capabilities (nextstep.ProjectRecord) and, when the workspace has
// learned, pooled with its own, read from tx.
func (mp *Model) ImportSteps(params *nextstep.Params, m *torusfield.Manifest, v *advice.Steps, tx *workspace.Tx) (*StepsImport, error) {
	same := mp.Manifest == ManifestDigest(m)
	fresh := v.Globals.Calls == 0 && v.Globals.Clock == 0
	imp := &StepsImport{Action: ActionPooled}
	switch {
	case fresh && same:
		imp.Action = ActionRestored
	case fresh:
		imp.Action = ActionMapped
	}
	has := m.Has
	if same {
		has = func(string) bool { return true }
	}
	unknown := map[string]bool{}
	for _, r := range mp.Records {
		value, missing, err := nextstep.ProjectRecord(r.Key, r.Value, has)
		if err != nil {
			return nil, badModel("records[%q]: %v", r.Key, err)
		}
		for _, c := range missing {
			unknown[c] = true
		}
		if value == nil {
			imp.Left++
			continue
		}
		if imp.Action == ActionPooled {
			mine, err := tx.Record(advice.RecordKey(v.Generation, r.Key))
			if err != nil {
				return nil, err
			}
			if mine != nil {
				if err := nextstep.CheckRecord(r.Key, mine); err != nil {
					return nil, fault.Corrupt(fmt.Errorf("record %q: %v", r.Key, err), workspace.RelModelLog)
				}
			}
			if value, err = nextstep.PoolRecord(*params, r.Key, mine, value, modelImportWeight, v.Globals); err != nil {
				return nil, fault.Internal(err, "pool record %q", r.Key)
			}
		}
		imp.Records = append(imp.Records, nextstep.Record{Key: r.Key, Value: value})
	}
	imp.Unknown = slices.Sorted(func(yield func(string) bool) {
		for c := range unknown {
			if !yield(c) {
				return
			}
		}
	})
	if imp.Unknown == nil {
		imp.Unknown = []string{}
	}
	return imp, nil
}

// Apply sets what a restored or mapped member brings besides its records
// into the workspace's state v, once the records are set: a restored
// workspace takes the member's trails, advice tallies and globals, a
// mapped one its globals; a pooled one keeps its own.
func (imp *StepsImport) Apply(mp *Model, v *advice.Steps) {
	switch imp.Action {
	case ActionRestored:
		v.Episodes, v.Located = mp.Steps.Episodes, mp.Steps.Located
		v.Followed, v.Unfollowed = mp.Steps.Followed, mp.Steps.Unfollowed
		v.Globals = mp.Steps.Globals
	case ActionMapped:
		v.Globals = mp.Steps.Globals
	}
	v.Model = nil // what the call reads next is the records just set
}

// Answer is the import answer's model member, and a warning when the
// member names capabilities the workspace lacks ("" otherwise).
func (imp *StepsImport) Answer(mp *Model) (answer pyjson.Value, warning string) {
	if n := len(imp.Unknown); n > 0 {
		warning = "the package's model names " + strconv.Itoa(n) + " capabilities this workspace lacks (" +
			strings.Join(imp.Unknown[:min(5, n)], ", ") + "): their evidence was not imported"
	}
	return mp.Answer(imp.Action,
		pyjson.KV("records", len(imp.Records)),
		pyjson.KV("records_left_out", imp.Left),
		pyjson.KV("capabilities_unknown_here", imp.Unknown),
	), warning
}
