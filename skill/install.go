package skill

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/google/renameio/v2"
)

// Name is the skill's name, and so its folder's.
const Name = "ucs"

// DefaultDir returns the skills directory shared by all OpenClaw agents:
// ~/.openclaw/skills.
func DefaultDir() (string, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".openclaw", "skills"), nil
}

// ErrExists reports a different skill already installed under the name.
var ErrExists = errors.New("a different skill named ucs is installed there")

// A Result says what an install or uninstall did to each file.
type Result struct {
	Dir       string   // the skill folder, DIR/ucs
	SkillMD   string   // its SKILL.md
	Binary    string   // its bin/ucs
	Written   []string // files written
	Unchanged []string // files that already held the same bytes
	Removed   []string // files removed
}

// Install writes dir/ucs/SKILL.md (skillMD) and dir/ucs/bin/ucs (a copy of
// the executable at exe, mode 0755), each atomically. It is idempotent:
// files that already hold the same bytes are left alone. A SKILL.md with
// other content is another skill, or another version of this one: Install
// refuses to replace it unless force.
func Install(dir string, skillMD []byte, exe string, force bool) (Result, error) {
	target := filepath.Join(dir, Name)
	r := Result{Dir: target, SkillMD: filepath.Join(target, "SKILL.md"), Binary: filepath.Join(target, "bin", Name)}
	bin, err := os.ReadFile(exe)
	if err != nil {
		return r, fmt.Errorf("read the running executable: %w", err)
	}
	existing, err := os.ReadFile(r.SkillMD)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return r, err
	case !bytes.Equal(existing, skillMD) && !force:
		return r, fmt.Errorf("%w: %s differs from this version's SKILL.md; use --force to replace it", ErrExists, r.SkillMD)
	}
	for _, f := range []struct {
		path string
		data []byte
		perm os.FileMode
	}{{r.SkillMD, skillMD, 0o644}, {r.Binary, bin, 0o755}} {
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

// Uninstall removes dir/ucs/SKILL.md and dir/ucs/bin/ucs, then the folders
// if they are empty. It refuses to remove a SKILL.md that is not the ucs
// skill's unless force.
func Uninstall(dir string, force bool) (Result, error) {
	target := filepath.Join(dir, Name)
	r := Result{Dir: target, SkillMD: filepath.Join(target, "SKILL.md"), Binary: filepath.Join(target, "bin", Name)}
	if content, err := os.ReadFile(r.SkillMD); err == nil && !force {
		fm, _, err := ParseFrontmatter(content)
		if err != nil || fmt.Sprint(fm["name"]) != Name {
			return r, fmt.Errorf("%w: %s is not the ucs skill's; use --force to remove it", ErrExists, r.SkillMD)
		}
	}
	for _, p := range []string{r.SkillMD, r.Binary} {
		if err := os.Remove(p); err == nil {
			r.Removed = append(r.Removed, p)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return r, err
		}
	}
	os.Remove(filepath.Join(target, "bin")) // only if empty
	os.Remove(target)
	return r, nil
}

// A Report is what Check found in a skill folder.
type Report struct {
	Dir      string
	Name     string
	Problems []string
	Version  string // what bin/ucs version printed, when it runs
}

// Check validates a skill folder: its SKILL.md frontmatter against the
// specification (see Validate), and that bin/ucs, when present, runs.
func Check(dir string) Report {
	r := Report{Dir: dir}
	content, err := os.ReadFile(filepath.Join(dir, "SKILL.md"))
	if err != nil {
		r.Problems = append(r.Problems, "missing SKILL.md: "+err.Error())
		return r
	}
	fm, _, err := ParseFrontmatter(content)
	if err != nil {
		r.Problems = append(r.Problems, err.Error())
		return r
	}
	r.Name = fmt.Sprint(fm["name"])
	abs, _ := filepath.Abs(dir)
	r.Problems = append(r.Problems, Validate(fm, abs)...)
	bin := filepath.Join(dir, "bin", Name)
	if _, err := os.Stat(bin); err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		out, err := exec.CommandContext(ctx, bin, "version").Output()
		if err != nil {
			r.Problems = append(r.Problems, fmt.Sprintf("bin/%s does not run: %v", Name, err))
		} else {
			r.Version = string(bytes.TrimSpace(out))
		}
	}
	return r
}
