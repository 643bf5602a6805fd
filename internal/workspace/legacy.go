package bridge

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// A refWorkspace is a workspace written by the Python reference: its
// knowledge and counters live in ucs_index.json, its PP history in
// pp_history.json, and its manifest is WS/manifest.json or the default.
type refWorkspace struct {
	meta     meta
	manifest *torusfield.Manifest
	raw      []byte // the manifest's bytes
	lists    map[string][]pyjson.Value
}

func (r *refWorkspace) list(rel string) []pyjson.Value { return r.lists[rel] }

// openReference reads a reference workspace without changing it.
func openReference(l layout) (*refWorkspace, error) {
	r := &refWorkspace{lists: map[string][]pyjson.Value{}, meta: meta{Format: WorkspaceFormat, Model: ModelV2, Files: map[string]fileSum{}}}
	r.raw = torusfield.DefaultManifestJSON()
	if data, err := readFile(l.path(relRootManifest)); err == nil {
		r.raw = data
	}
	var err error
	if r.manifest, err = torusfield.ParseManifest(r.raw); err != nil {
		return nil, corrupt(err, relRootManifest)
	}
	index, err := readJSONFile(l, relRefIndex)
	if err != nil {
		return nil, err
	}
	if index.Kind() == pyjson.Object {
		for _, k := range []struct{ key, rel string }{
			{"methodology_entries", relMethodology}, {"dead_end_entries", relDeadEnds},
			{"judgment_nodes", relJudgment}, {"policy_overrides", relOverrides}} {
			v, _ := index.Get(k.key)
			r.lists[k.rel] = v.Items()
		}
		anns, _ := index.Get("annotations")
		for _, m := range anns.Members() {
			r.lists[relAnnotations] = append(r.lists[relAnnotations],
				pyjson.Obj(pyjson.KV("artifact_id", m.Key), pyjson.KV("annotation", m.Value)))
		}
		for _, c := range []struct {
			key string
			dst *int
		}{{"report_counter", &r.meta.ReportCounter}, {"last_phi_t", &r.meta.LastPhiT}} {
			if v, ok := index.Get(c.key); ok {
				n, isInt := v.Int()
				if !isInt || n < 0 {
					return nil, corrupt(errors.New(c.key+" must be a non-negative integer"), relRefIndex)
				}
				*c.dst = int(n)
			}
		}
		if v, _ := index.Get("last_synthesis_date"); v.Kind() == pyjson.String {
			r.meta.LastSynthesisDate = v.Str()
		}
	}
	pp, err := readJSONFile(l, relRefPPHistory)
	if err != nil {
		return nil, err
	}
	snaps, _ := pp.Get("snapshots")
	r.lists[relPPHistory] = snaps.Items()
	return r, nil
}

// readJSONFile parses a whole JSON file; a missing file is null.
func readJSONFile(l layout, rel string) (pyjson.Value, error) {
	data, err := readFile(l.path(rel))
	if errors.Is(err, fs.ErrNotExist) {
		return pyjson.NullValue(), nil
	}
	if err != nil {
		return pyjson.Value{}, internal(err, "read %s", rel)
	}
	v, err := pyjson.Parse(data)
	if err != nil {
		return pyjson.Value{}, corrupt(err, rel)
	}
	return v, nil
}

// adopt converts a reference workspace to the ucs layout before its first
// change, in a commit of its own (an "adopt" event): the index is split into
// the data files, the manifest is pinned, and the reference's files are
// moved to ucs/state/backup/reference/ once the commit holds.
func (s *session) adopt() error {
	r := s.ref
	actions, err := readJSONL(s.l, relActionLog)
	if err != nil {
		return err
	}
	// The action log stays where it is: its summary starts over the lines
	// it already holds, as they are on disk.
	sum, err := sumFile(s.l, relActionLog)
	if err != nil {
		return err
	}
	s.meta.Files = map[string]fileSum{relActionLog: sum}
	s.pending = append(s.pending, pendingAppend{relPinned, r.raw})
	for _, rel := range countedFiles {
		if rel == relActionLog {
			continue
		}
		for _, v := range r.lists[rel] {
			s.pending = append(s.pending, pendingAppend{rel, append(pyjson.AppendDumps(nil, v), '\n')})
		}
	}
	if err := s.commit(Call{Op: "adopt", Args: pyjson.Obj(pyjson.KV("from", "reference")), Input: pyjson.NullValue()}, s.engine.Grid.T); err != nil {
		return err
	}
	s.lists = map[string][]pyjson.Value{relActionLog: actions}
	s.added = map[string][]pyjson.Value{}
	for rel, v := range r.lists {
		s.lists[rel] = v
	}
	s.ref = nil
	dir := s.l.path(relBackupDir + "/reference")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return internal(err, "create %s", dir)
	}
	for _, rel := range []string{relRefIndex, relRefPPHistory} {
		if err := os.Rename(s.l.path(rel), filepath.Join(dir, filepath.Base(rel))); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return internal(err, "move %s to backup", rel)
		}
	}
	return nil
}
