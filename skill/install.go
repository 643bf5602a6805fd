// Package skill installs, removes and checks the ucs Agent Skill: a folder
// that OpenClaw or any Agent Skills runtime loads from a skills directory,
// holding the skill's files (SKILL.md, and references/commands.md read on
// demand) and bin/ucs, a copy of the binary.
//
// The files are the binary's own (embedded at build time), so checking an
// installed skill is comparing bytes: a file that differs is reported as
// another skill's (its SKILL.md names another skill) or as modified (an
// older or newer ucs installed it, or it was edited). The frontmatter of
// SKILL.md is validated against the Agent Skills specification when ucs is
// tested (with yaml.v3, and `make skill-validate` runs the reference
// validator), never at run time.
package skill

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/renameio/v2"
)

// Name is the skill's name, and so its folder's.
const Name = "ucs"

// MCPName is the MCP server's binary (cmd/ucs-mcp), installed beside ucs.
const MCPName = "ucs-mcp"

// StoreName is the PostgreSQL store's binary (cmd/ucs-pg), installed
// beside ucs: ucs becomes it for a call on --store postgres://...
const StoreName = "ucs-pg"

// SkillMD is the path of the skill's main file in its folder.
const SkillMD = "SKILL.md"

// A File is one file of the skill as this binary holds it: its
// slash-separated path in the skill folder and its content.
type File struct {
	Path string
	Data []byte
}

// DefaultDir returns the skills directory shared by all OpenClaw agents:
// ~/.openclaw/skills.
func DefaultDir() (string, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".openclaw", "skills"), nil
}

// ErrExists reports a different skill, or different files of this one,
// already installed under the name.
var ErrExists = errors.New("the skill folder holds files this ucs did not write")

// A Result says what an install or uninstall did to each file.
type Result struct {
	Dir     string // the skill folder, DIR/ucs
	SkillMD string // its SKILL.md
	Binary  string // its bin/ucs
	// MCPBinary is its bin/ucs-mcp, the MCP server, copied when one is
	// beside the executable installing ("" when none is).
	MCPBinary string
	Written   []string // files written
	Unchanged []string // files that already held the same bytes
	Removed   []string // files removed
}

func newResult(dir string) Result {
	target := filepath.Join(dir, Name)
	return Result{Dir: target, SkillMD: filepath.Join(target, SkillMD), Binary: filepath.Join(target, "bin", Name)}
}

// Install writes files into dir/ucs and a copy of the executable at exe
// as dir/ucs/bin/ucs (mode 0755), each atomically. It is idempotent: files
// that already hold the same bytes are left alone. A file that holds
// other bytes belongs to another skill, or to another version of this one
// (see Check): Install refuses to replace it unless force.
func Install(dir string, files []File, exe string, force bool) (Result, error) {
	r := newResult(dir)
	bin, err := os.ReadFile(exe)
	if err != nil {
		return r, fmt.Errorf("read the running executable: %w", err)
	}
	if !force {
		ours := ourVersion(files)
		for _, f := range files {
			st, err := stateOf(r.Dir, f, ours)
			if err != nil {
				return r, err
			}
			if st.State == Foreign || st.State == Modified {
				return r, fmt.Errorf("%w: %s; --force replaces it", ErrExists, st.Detail)
			}
		}
	}
	type out struct {
		path string
		data []byte
		perm os.FileMode
	}
	var outs []out
	for _, f := range files {
		outs = append(outs, out{filepath.Join(r.Dir, filepath.FromSlash(f.Path)), f.Data, 0o644})
	}
	outs = append(outs, out{r.Binary, bin, 0o755})
	if data, err := os.ReadFile(filepath.Join(filepath.Dir(exe), MCPName)); err == nil {
		r.MCPBinary = filepath.Join(r.Dir, "bin", MCPName)
		outs = append(outs, out{r.MCPBinary, data, 0o755})
	}
	if data, err := os.ReadFile(filepath.Join(filepath.Dir(exe), StoreName)); err == nil {
		outs = append(outs, out{filepath.Join(r.Dir, "bin", StoreName), data, 0o755})
	}
	for _, f := range outs {
		if old, err := os.ReadFile(f.path); err == nil && bytes.Equal(old, f.data) {
			if st, err := os.Stat(f.path); err == nil && st.Mode().Perm() == f.perm {
				r.Unchanged = append(r.Unchanged, f.path)
				continue
			}
		}
		if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
			return r, err
		}
		if err := renameio.WriteFile(f.path, f.data, f.perm, renameio.WithTempDir(filepath.Dir(f.path)),
			renameio.WithStaticPermissions(f.perm)); err != nil {
			return r, err
		}
		r.Written = append(r.Written, f.path)
	}
	return r, nil
}

// Uninstall removes the files and dir/ucs/bin/ucs, then the folders they
// leave empty. It refuses to remove a SKILL.md that is not the ucs skill's
// unless force.
func Uninstall(dir string, files []File, force bool) (Result, error) {
	r := newResult(dir)
	if content, err := os.ReadFile(r.SkillMD); err == nil && !force {
		if name, _ := Identify(content); name != Name {
			return r, fmt.Errorf("%w: %s is not the ucs skill's; use --force to remove it", ErrExists, r.SkillMD)
		}
	}
	paths := []string{}
	for _, f := range files {
		paths = append(paths, filepath.Join(r.Dir, filepath.FromSlash(f.Path)))
	}
	paths = append(paths, r.Binary, filepath.Join(r.Dir, "bin", MCPName), filepath.Join(r.Dir, "bin", StoreName))
	for _, p := range paths {
		if err := os.Remove(p); err == nil {
			r.Removed = append(r.Removed, p)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return r, err
		}
	}
	for _, p := range paths { // folders, deepest first, only if empty
		for d := filepath.Dir(p); d != r.Dir && strings.HasPrefix(d, r.Dir); d = filepath.Dir(d) {
			os.Remove(d)
		}
	}
	os.Remove(r.Dir)
	return r, nil
}

// The states of an installed file.
const (
	Current  = "current"  // the bytes this binary holds
	Missing  = "missing"  // not there
	Modified = "modified" // the ucs skill's, but other bytes: another version of ucs, or an edit
	Foreign  = "foreign"  // SKILL.md of another skill
)

// A FileState is what Check found of one file.
type FileState struct {
	Path   string // in the skill folder, slash-separated
	State  string // Current, Missing, Modified or Foreign
	Detail string // for any state but Current, what is wrong, for people
}

// A Report is what Check found in a skill folder.
type Report struct {
	Dir      string
	Name     string      // the name in the installed SKILL.md
	Files    []FileState // one per file, in order
	Problems []string    // one line for each file not Current, and for a binary that does not run
	Version  string      // what bin/ucs version printed, when it runs
	// BinaryVersion is the version of bin/ucs: the "ucs" member of the
	// JSON its version command prints, else what it printed (an older
	// or foreign binary); "" when it does not run.
	BinaryVersion string
}

// Check compares the skill folder dir with files, this binary's, and runs
// bin/ucs version when bin/ucs is there.
func Check(dir string, files []File) Report {
	r := Report{Dir: dir}
	if content, err := os.ReadFile(filepath.Join(dir, SkillMD)); err == nil {
		r.Name, _ = Identify(content)
	}
	ours := ourVersion(files)
	for _, f := range files {
		st, err := stateOf(dir, f, ours)
		if err != nil {
			st = FileState{Path: f.Path, State: Missing, Detail: err.Error()}
		}
		r.Files = append(r.Files, st)
		if st.State != Current {
			r.Problems = append(r.Problems, st.Detail)
		}
	}
	bin := filepath.Join(dir, "bin", Name)
	if _, err := os.Stat(bin); err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		out, err := exec.CommandContext(ctx, bin, "version").Output()
		if err != nil {
			r.Problems = append(r.Problems, fmt.Sprintf("bin/%s does not run: %v", Name, err))
		} else {
			r.Version = string(bytes.TrimSpace(out))
			r.BinaryVersion = versionOf(r.Version)
		}
	}
	return r
}

// versionOf reads the version out of what `ucs version` printed: the
// "ucs" member of its JSON object, else the text itself.
func versionOf(printed string) string {
	var v struct {
		UCS *string `json:"ucs"`
	}
	if err := json.Unmarshal([]byte(printed), &v); err == nil && v.UCS != nil {
		return *v.UCS
	}
	return printed
}

// stateOf compares the file f of the skill folder dir with this binary's;
// ours is the version in this binary's SKILL.md.
func stateOf(dir string, f File, ours string) (FileState, error) {
	st := FileState{Path: f.Path}
	path := filepath.Join(dir, filepath.FromSlash(f.Path))
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		st.State, st.Detail = Missing, path+" is missing"
		return st, nil
	case err != nil:
		return st, err
	case bytes.Equal(data, f.Data):
		st.State = Current
		return st, nil
	}
	st.State = Modified
	installed := ""
	if content, err := os.ReadFile(filepath.Join(dir, SkillMD)); err == nil {
		var name string
		name, installed = Identify(content)
		if f.Path == SkillMD && name != Name {
			st.State = Foreign
			st.Detail = fmt.Sprintf("%s is another skill's (name %q)", path, name)
			return st, nil
		}
	}
	switch {
	case installed != "" && installed != ours:
		st.Detail = fmt.Sprintf("%s differs from this ucs's: ucs %s installed it, this is ucs %s", path, installed, ours)
	default:
		st.Detail = fmt.Sprintf("%s differs from this ucs's (%s): edited, or installed by another build", path, ours)
	}
	return st, nil
}

func ourVersion(files []File) string {
	for _, f := range files {
		if f.Path == SkillMD {
			_, v := Identify(f.Data)
			return v
		}
	}
	return ""
}

// Identify reads a SKILL.md's name and metadata version from its
// frontmatter, line by line: the top-level `name:` and the `version:`
// indented under `metadata:`. It is no YAML parser, only enough to tell
// the ucs skill from another and which version of it is installed; either
// is "" when not found in that form.
func Identify(content []byte) (name, version string) {
	text := strings.ReplaceAll(string(content), "\r\n", "\n")
	rest, ok := strings.CutPrefix(text, "---\n")
	if !ok {
		return "", ""
	}
	inMetadata, metaIndent := false, 0
	for line := range strings.SplitSeq(rest, "\n") {
		if line == "---" {
			break
		}
		key, value, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok || strings.HasPrefix(key, "#") {
			continue
		}
		indent := len(line) - len(strings.TrimLeft(line, " "))
		switch {
		case indent == 0: // a top-level key
			inMetadata, metaIndent = key == "metadata", 0
			if key == "name" {
				name = scalar(value)
			}
		case inMetadata && (metaIndent == 0 || indent == metaIndent):
			metaIndent = indent // the first key under metadata sets its level
			if key == "version" {
				version = scalar(value)
			}
		}
	}
	return name, version
}

// scalar is a plain or quoted one-line YAML scalar's text.
func scalar(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	if i := strings.Index(s, " #"); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	return s
}
