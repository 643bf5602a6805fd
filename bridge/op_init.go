package bridge

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

var initSpec = Spec{
	Name:    "init",
	Summary: "Create a workspace and boot the engine (200 warm-up steps)",
	Long: `Boots the engine from a capability manifest: --manifest PATH, else
WORKSPACE/manifest.json when present, else the embedded Aegis manifest (45
capabilities, 249 edges), and pins the manifest in the workspace. An existing
workspace is left alone unless --force, which first moves its state to
ucs/state/backup/.`,
	Example:  "ucs --workspace ~/.ucs init\nucs init --manifest my-agent.json",
	Mutating: true,
	Fields: []Field{
		{Name: "force", Type: TypeBool, Flag: true, Doc: "reinitialize an existing workspace (its state is backed up first)"},
		{Name: "manifest", Type: TypeString, Flag: true, Doc: "capability manifest JSON file"},
		{Name: "model", Type: TypeString, Flag: true, Env: "UCS_MODEL",
			Doc: "the learning model: v3 (ucs's own) or v2 (the reference's, bit for bit); default " + DefaultModel},
	},
	tool: (*Bridge).init,
}

// InitWarmup is the number of θ-steps init runs so a new workspace starts
// with a formed landscape, as the reference does.
const InitWarmup = 200

// Markdown headers of the knowledge files.
var knowledgeHeaders = []struct{ rel, text string }{
	{relMethodologyMD, "# Methodology\n\nAccumulated expertise from post-task reflections.\n"},
	{relExperimentsMD, "# Experiment Log\n\nConfiguration experiments with hypothesis, measurement, verdict.\n"},
	{relDeadEndsMD, "# Dead Ends\n\nConfirmed closed avenues with conditions for reopening.\n"},
}

// init creates a workspace: a fresh engine from the manifest warmed up by
// 200 θ-steps, empty knowledge, one PP snapshot. Args: "force" (bool)
// reinitializes an existing workspace after moving its state to
// ucs/state/backup/; "manifest" (path) names the manifest, else
// WS/manifest.json is used when present, else the embedded Aegis manifest.
func (b *Bridge) init(c Call) (pyjson.Value, error) {
	l := b.l
	force := argBool(c, "force")
	if exists(l, relState) && !force {
		return pyjson.Obj(
			pyjson.KV("status", "already_initialized"),
			pyjson.KV("workspace", b.opts.Workspace),
			pyjson.KV("message", "Workspace exists. Use --force to reinitialize."),
		), nil
	}
	format := b.format
	if format == 0 {
		format = WorkspaceFormat
	}
	model := argString(c, "model")
	if model == "" {
		model = DefaultModel
	}
	if lookupModel(model) == nil {
		return pyjson.Value{}, badInput("invalid_value", "use one of: "+modelNames(), "there is no learning model %q", model)
	}
	raw, err := b.manifestBytes(argString(c, "manifest"))
	if err != nil {
		return pyjson.Value{}, err
	}
	m, err := torusfield.ParseManifest(raw)
	if err != nil {
		return pyjson.Value{}, badInput("invalid_manifest", "fix the manifest; see the manifest format in README.md", "%v", err)
	}
	// The warm-up (for the embedded manifest, decoding its stored result)
	// is pure computation: it runs on the other core while this one makes
	// the directories, takes the lock and checks what is there.
	type booted struct {
		e      *torusfield.Engine
		stored []byte
	}
	// The reference's model starts from a formed landscape; ucs's own (v3)
	// invents nothing before the agent's first real action.
	warmup := InitWarmup
	if model == ModelV3 {
		warmup = 0
	}
	boot := make(chan booted, 1)
	go func() {
		e, stored := torusfield.Boot(m, warmup)
		boot <- booted{e, stored}
	}()
	var newDirs []string
	for _, d := range []string{relStateDir, relKnowledgeDir, relWorkingState, relSynthesisDir} {
		made, err := mkdirs(l.path(d))
		if err != nil {
			return pyjson.Value{}, internal(err, "create %s", d)
		}
		newDirs = append(newDirs, made...)
	}
	// New directories are durable once their parents are synced: started
	// now, the syncs overlap the rest of init, and the commit waits for
	// them before its rename.
	var dirsSynced chan error
	if len(newDirs) > 0 {
		dirsSynced = make(chan error, 1)
		go func() { dirsSynced <- syncDirs(newDirs) }()
	}
	tm := newTimings(b.opts.Timings)
	defer tm.done(c.Op)
	lock, err := lockWorkspace(l.path(relLock), true, b.opts.LockTimeout)
	if err != nil {
		return pyjson.Value{}, err
	}
	defer lock.unlock()
	tm.mark("lock")
	now := b.now()
	// An init cut short leaves a journal and no state: roll it back. With
	// --force a damaged workspace is moved aside whole instead.
	if _, err := recoverWorkspace(l); err != nil && !force {
		return pyjson.Value{}, err
	}
	if exists(l, relState) {
		if !force { // another process initialized it while we waited
			return b.init(Call{Op: "init", Args: pyjson.Obj()})
		}
		if err := backupState(l, now); err != nil {
			return pyjson.Value{}, err
		}
	}

	// For the embedded manifest this restores the warm-up's stored result
	// (torusfield.Boot) instead of running 200 θ-steps.
	bt := <-boot
	e, stored := bt.e, bt.stored
	tm.mark("boot")
	s := newSession(l, now, b.opts.AgentID)
	s.tm = tm
	s.manifest, s.engine, s.storedState, s.dirsSynced = m, e, stored, dirsSynced
	s.meta = meta{Format: format, Model: model, AgentID: b.opts.AgentID, Files: map[string]fileSum{}}
	s.model = lookupModel(model)
	s.snapshotEvery = max(b.opts.SnapshotEvery, 0)
	s.pending = append(s.pending, pendingAppend{relPinned, raw})
	if err := s.snapshotPP(); err != nil {
		return pyjson.Value{}, err
	}
	for _, h := range knowledgeHeaders {
		if size, _ := fileSize(l, h.rel); size <= 0 {
			s.appendText(h.rel, h.text)
		}
	}
	sum := sha256.Sum256(raw)
	// The journal records everything that shapes the new state: the
	// manifest (pinned beside it), the model and the agent id.
	args := []pyjson.Member{pyjson.KV("force", force), pyjson.KV("manifest_sha256", hex.EncodeToString(sum[:]))}
	if format >= 2 {
		args = append(args, pyjson.KV("model", model), pyjson.KV("agent_id", b.opts.AgentID))
	}
	journaled := Call{Op: "init", Args: pyjson.ObjectValue(args), Input: pyjson.NullValue()}
	if err := s.commit(journaled, 0); err != nil {
		return pyjson.Value{}, err
	}
	return pyjson.Obj(
		pyjson.KV("status", "initialized"),
		pyjson.KV("workspace", b.opts.Workspace),
		pyjson.KV("graph", pyjson.Obj(pyjson.KV("nodes", len(e.Graph.Nodes)), pyjson.KV("edges", len(e.Graph.Edges)))),
		pyjson.KV("warmup_steps", warmup),
		pyjson.KV("artifacts_after_warmup", e.Artifacts.Len()),
		pyjson.KV("pp_health", round(e.PP.Health(), 4)),
		pyjson.KV("pp", ppRounded(e.PP)),
	), nil
}

// manifestBytes finds the manifest for init: the named file, else
// WS/manifest.json, else the embedded default.
func (b *Bridge) manifestBytes(path string) ([]byte, error) {
	if path == "" {
		p := b.l.path(relRootManifest)
		if _, err := os.Stat(p); err != nil {
			return torusfield.DefaultManifestJSON(), nil
		}
		path = p
	}
	raw, err := readFile(path)
	if err != nil {
		return nil, badInput("invalid_manifest", "check the --manifest path", "cannot read manifest: %v", err)
	}
	return raw, nil
}

// backupState moves a workspace's state files aside before a forced
// reinitialization: nothing learned is deleted.
func backupState(l layout, now time.Time) error {
	dir, err := newBackupDir(l, "init-"+now.Format("20060102T150405Z"))
	if err != nil {
		return err
	}
	entries, err := os.ReadDir(l.path(relStateDir))
	if err != nil {
		return internal(err, "read %s", relStateDir)
	}
	for _, ent := range entries {
		name := ent.Name()
		if name == "backup" || name == "lock" {
			continue
		}
		if err := os.Rename(filepath.Join(l.path(relStateDir), name), filepath.Join(dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return internal(err, "move %s to backup", name)
		}
	}
	return nil
}

// ppRounded is the PP vector with every dimension rounded to 4 places.
func ppRounded(p torusfield.PP) pyjson.Value {
	ms := make([]pyjson.Member, len(p))
	for i, name := range torusfield.PPDimensions {
		ms[i] = pyjson.KV(name, round(p[i], 4))
	}
	return pyjson.ObjectValue(ms)
}

// ppExact is the PP vector unrounded, as PP history stores it.
func ppExact(p torusfield.PP) pyjson.Value {
	ms := make([]pyjson.Member, len(p))
	for i, name := range torusfield.PPDimensions {
		ms[i] = pyjson.KV(name, p[i])
	}
	return pyjson.ObjectValue(ms)
}

// snapshotPP records the PP vector in the PP history.
func (s *session) snapshotPP() error {
	e := s.engine
	return s.add(relPPHistory, pyjson.Obj(
		pyjson.KV("t", e.Grid.T),
		pyjson.KV("timestamp", isoTime(s.now)),
		pyjson.KV("pp", ppExact(e.PP)),
		pyjson.KV("health", round(e.PP.Health(), 4)),
		pyjson.KV("artifact_count", e.Artifacts.Len()),
	))
}
