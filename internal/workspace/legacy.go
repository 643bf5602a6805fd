package workspace

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// A refWorkspace is a workspace written by the Python reference: its
// knowledge and counters live in ucs_index.json, its PP history in
// pp_history.json, and its manifest is WS/manifest.json or the default.
// A transaction reads it whole and presents it in the ucs layout
// (loadReference); its first commit is Adopt's, which converts it.
type refWorkspace struct {
	meta     Meta
	manifest Manifest
	raw      []byte // the manifest's bytes
	lists    map[string][]pyjson.Value
}

// openReference reads a reference workspace without changing it.
func openReference(l *Workspace) (*refWorkspace, error) {
	r := &refWorkspace{lists: map[string][]pyjson.Value{}, meta: Meta{Format: Format, Model: LegacyModel, Files: map[string]FileSum{}}}
	ms := l.opts.Manifests
	if ms.Parse == nil || ms.Default == nil {
		return nil, fault.Internal(errNoManifests, "open the reference workspace")
	}
	if data, err := readFile(l.path(RelRootManifest)); err == nil {
		r.raw = data
	} else {
		r.raw = ms.Default()
	}
	var err error
	if r.manifest, err = ms.Parse(r.raw); err != nil {
		return nil, fault.Corrupt(err, RelRootManifest)
	}
	index, err := readJSONFile(l, RelRefIndex)
	if err != nil {
		return nil, err
	}
	if index.Kind() == pyjson.Object {
		for _, k := range []struct{ key, rel string }{
			{"methodology_entries", RelMethodology}, {"dead_end_entries", RelDeadEnds},
			{"judgment_nodes", RelJudgment}, {"policy_overrides", RelOverrides}} {
			v, _ := index.Get(k.key)
			r.lists[k.rel] = v.Items()
		}
		anns, _ := index.Get("annotations")
		for _, m := range anns.Members() {
			r.lists[RelAnnotations] = append(r.lists[RelAnnotations],
				pyjson.Obj(pyjson.KV("artifact_id", m.Key), pyjson.KV("annotation", m.Value)))
		}
		for _, c := range []struct {
			key string
			dst *int
		}{{"report_counter", &r.meta.ReportCounter}, {"last_phi_t", &r.meta.LastPhiT}} {
			if v, ok := index.Get(c.key); ok {
				n, isInt := v.Int()
				if !isInt || n < 0 {
					return nil, fault.Corrupt(errors.New(c.key+" must be a non-negative integer"), RelRefIndex)
				}
				*c.dst = int(n)
			}
		}
		if v, _ := index.Get("last_synthesis_date"); v.Kind() == pyjson.String {
			r.meta.LastSynthesisDate = v.Str()
		}
	}
	pp, err := readJSONFile(l, RelRefPPHistory)
	if err != nil {
		return nil, err
	}
	snaps, _ := pp.Get("snapshots")
	r.lists[RelPPHistory] = snaps.Items()
	return r, nil
}

// readJSONFile parses a whole JSON file; a missing file is null.
func readJSONFile(l *Workspace, rel string) (pyjson.Value, error) {
	data, err := readFile(l.path(rel))
	if errors.Is(err, fs.ErrNotExist) {
		return pyjson.NullValue(), nil
	}
	if err != nil {
		return pyjson.Value{}, fault.Internal(err, "read %s", rel)
	}
	v, err := pyjson.Parse(data)
	if err != nil {
		return pyjson.Value{}, fault.Corrupt(err, rel)
	}
	return v, nil
}

// Adopt converts a reference workspace to the ucs layout before its first
// change, in a commit of its own (an "adopt" event, with a snapshot, since
// its state cannot be replayed from anything): the index is split into the
// data files, the manifest is pinned, and the reference's files are moved
// to ucs/state/backup/reference/ once the commit holds. ev gives the
// event's clock, t and agent, as for Commit. The transaction goes on in
// the ucs layout, with nothing queued.
func (tx *Tx) Adopt(ev Event, state StateFunc) ([]string, error) {
	r := tx.ref
	actions, err := readJSONL(tx.l, RelActionLog)
	if err != nil {
		return nil, err
	}
	// The action log stays where it is: its summary starts over the lines
	// it already holds, as they are on disk.
	sum, err := sumFile(tx.l, RelActionLog)
	if err != nil {
		return nil, err
	}
	tx.Meta.Files = map[string]FileSum{RelActionLog: sum}
	tx.Pin(r.raw, r.manifest)
	for _, rel := range countedFiles {
		if rel == RelActionLog {
			continue
		}
		for _, v := range r.lists[rel] {
			tx.pending = append(tx.pending, pendingAppend{rel, append(pyjson.AppendDumps(nil, v), '\n')})
		}
	}
	ev.Op, ev.Args, ev.Input = "adopt", pyjson.Obj(pyjson.KV("from", "reference")), pyjson.NullValue()
	tx.warnings = nil
	if err := tx.commit(ev, state, true); err != nil {
		return nil, err
	}
	tx.lists = map[string][]pyjson.Value{RelActionLog: actions}
	tx.added = map[string][]pyjson.Value{}
	for rel, v := range r.lists {
		tx.lists[rel] = v
	}
	tx.ref = nil
	tx.l.untracked() // the reference's files move to the backup
	dir := tx.l.path(RelBackupDir + "/reference")
	if err := os.MkdirAll(dir, DirPerm); err != nil {
		return nil, fault.Internal(err, "create %s", dir)
	}
	for _, rel := range []string{RelRefIndex, RelRefPPHistory} {
		if err := os.Rename(tx.l.path(rel), filepath.Join(dir, filepath.Base(rel))); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fault.Internal(err, "move %s to backup", rel)
		}
	}
	return tx.warnings, nil
}

// loadReference reads a reference workspace, without changing it, into
// the transaction's meta, manifest and data files: as a workspace in the
// ucs layout whose data files are already decoded (the action log is the
// one file both layouts share), so that a transaction's reads need no
// other case.
func (tx *Tx) loadReference() error {
	r, err := openReference(tx.l)
	if err != nil {
		return err
	}
	tx.ref, tx.Meta, tx.manifest = r, r.meta, r.manifest
	tx.Meta.Files = map[string]FileSum{}
	for _, rel := range countedFiles {
		if rel == RelActionLog {
			continue // the one file in the ucs layout already
		}
		tx.lists[rel] = r.lists[rel]
		// What the meta would count: a reference workspace has no chain
		// hashes (and no index that would need them).
		tx.Meta.Files[rel] = FileSum{Lines: len(r.lists[rel])}
	}
	return nil
}
