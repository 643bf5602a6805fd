package cli

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	ucs "github.com/unified-cognitive-substrate/ucs"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/skill"
)

func (st *state) skillCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "skill",
		Short: "Install, remove or check the ucs Agent Skill (SKILL.md, references/commands.md, bin/ucs)",
		Long: `Manage the ucs skill folder an agent runtime loads: DIR/ucs/SKILL.md and
DIR/ucs/references/commands.md (the ones built into this binary; the command
reference is read on demand) and DIR/ucs/bin/ucs (a copy of this binary, and of
the MCP server ucs-mcp when it is beside it), so the skill works without
anything on PATH. DIR is ~/.openclaw/skills (shared by
all OpenClaw agents) unless --dir names another, or --workspace-skills names an
agent's workspace (its skills/ folder is used).`,
	}
	var dir, agentWorkspace string
	var force bool
	resolve := func() (string, error) {
		switch {
		case agentWorkspace != "" && dir != "":
			return "", fmt.Errorf("give --dir or --workspace-skills, not both")
		case agentWorkspace != "":
			return filepath.Join(agentWorkspace, "skills"), nil
		case dir != "":
			return dir, nil
		}
		return skill.DefaultDir()
	}
	install := &cobra.Command{
		Use:     "install",
		Short:   "Write the skill's files and bin/ucs into DIR/ucs (idempotent)",
		Example: "  ucs skill install\n  ucs skill install --dir ~/my-skills\n  ucs skill install --workspace-skills ~/agents/aegis",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			d, err := resolve()
			if err != nil {
				return err
			}
			exe, err := os.Executable()
			if err != nil {
				return err
			}
			r, err := skill.Install(d, skillFiles(), exe, force)
			if err != nil {
				return skillError(err)
			}
			return printJSON(cmd, resultValue("installed", r))
		},
	}
	uninstall := &cobra.Command{
		Use:     "uninstall",
		Short:   "Remove the skill's files and bin/ucs from DIR/ucs",
		Example: "  ucs skill uninstall",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			d, err := resolve()
			if err != nil {
				return err
			}
			r, err := skill.Uninstall(d, skillFiles(), force)
			if err != nil {
				return skillError(err)
			}
			return printJSON(cmd, resultValue("uninstalled", r))
		},
	}
	for _, c := range []*cobra.Command{install, uninstall} {
		c.Flags().StringVar(&dir, "dir", "", "skills directory (default ~/.openclaw/skills)")
		c.Flags().StringVar(&agentWorkspace, "workspace-skills", "", "an agent's workspace: install into its skills/ folder")
		c.Flags().BoolVar(&force, "force", false, "replace or remove files this ucs did not write (another skill, or another version of this one)")
	}
	check := &cobra.Command{
		Use:   "check SKILL_DIR",
		Short: "Check a skill folder: its files are this binary's, and bin/ucs runs",
		Long: `Compare each file of the skill folder with the one built into this binary.
A file is current, missing, modified (the ucs skill's, but installed by an older
or newer ucs, or edited) or foreign (a SKILL.md of another skill); bin/ucs, when
present, must run.`,
		Example: "  ucs skill check ~/.openclaw/skills/ucs",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			r := skill.Check(args[0], skillFiles())
			var files []pyjson.Member
			for _, f := range r.Files {
				files = append(files, pyjson.KV(f.Path, f.State))
			}
			out := pyjson.Obj(pyjson.KV("ok", len(r.Problems) == 0), pyjson.KV("skill", r.Dir),
				pyjson.KV("name", r.Name), pyjson.KV("files", pyjson.ObjectValue(files)),
				pyjson.KV("problems", orEmpty(r.Problems)), pyjson.KV("binary_version", r.BinaryVersion))
			if len(r.Problems) > 0 {
				return &fault.Error{Kind: fault.KindBadInput, Code: fault.CodeInvalidSkill,
					Msg:  r.Problems[0],
					Hint: "`ucs skill install --force` writes this binary's files (a foreign SKILL.md is another skill's: install elsewhere with --dir)", Details: out.Members()}
			}
			return printJSON(cmd, out)
		},
	}
	cmd.AddCommand(install, uninstall, check)
	return cmd
}

// skillFiles are the skill's files as this binary holds them.
func skillFiles() []skill.File {
	return []skill.File{{Path: skill.SkillMD, Data: ucs.SkillMD}, {Path: "references/commands.md", Data: ucs.CommandsMD}}
}

func skillError(err error) error {
	if errors.Is(err, skill.ErrExists) {
		return &fault.Error{Kind: fault.KindBadInput, Code: fault.CodeSkillExists, Msg: err.Error(),
			Hint: "check what is installed there; --force replaces it"}
	}
	return &fault.Error{Kind: fault.KindInternal, Code: fault.CodeInternal, Msg: err.Error(),
		Hint: "check the directory's permissions"}
}

func resultValue(status string, r skill.Result) pyjson.Value {
	return pyjson.Obj(pyjson.KV("status", status), pyjson.KV("skill", r.Dir), pyjson.KV("skill_md", r.SkillMD),
		pyjson.KV("binary", r.Binary), pyjson.KV("mcp_binary", orNull(r.MCPBinary)), pyjson.KV("written", orEmpty(r.Written)), pyjson.KV("unchanged", orEmpty(r.Unchanged)),
		pyjson.KV("removed", orEmpty(r.Removed)))
}

func orNull(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func orEmpty(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}

// printJSON prints a command's result, streamed: an export at 10,000
// entries is 17 MB of JSON, never whole in memory as bytes.
func printJSON(cmd *cobra.Command, v pyjson.Value) error {
	w := bufio.NewWriterSize(cmd.OutOrStdout(), 64<<10)
	if err := pyjson.WriteIndent(w, v); err != nil {
		return err
	}
	w.WriteByte('\n')
	return w.Flush()
}
