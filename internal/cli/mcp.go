package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// ucs mcp serves the operations as MCP tools over stdio. The server is
// its own binary, ucs-mcp (cmd/ucs-mcp, internal/mcpserver): linking the
// MCP SDK into ucs would add its packages' start-up to every call. ucs mcp
// finds it beside this executable, else on PATH, and becomes it (exec), so
// the client talks to the server directly. ucs mcp config prints what an
// MCP client needs to start it.

// mcpBinary is the name of the MCP server's binary.
const mcpBinary = "ucs-mcp"

func (st *state) mcpCommand() *cobra.Command {
	var operator bool // the operator's surface, for ucs mcp and ucs mcp config
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve every operation as an MCP tool over stdio (runs ucs-mcp)",
		Long: `Serves ucs over the Model Context Protocol on stdin and stdout: every command
is a tool of its name (goal add is goal_add), with its input schema, and the
OpenSentience tools session_start, goal_register, goal_status, execute_action,
report_outcome_manual and coverage_check. Each tool call is one whole operation
on the workspace, as a command is. The server is the ucs-mcp binary, found
beside ucs or on PATH (make install and ucs skill install put it there); ucs mcp
becomes it. An MCP client may start ucs-mcp directly: ucs mcp config prints its
configuration.

The server serves the agent's surface: the operator's operations (the policy,
init, migrate, import, view) are no tools of it, so the agent cannot lift the
policy that binds it, and a verdict it gives (report_outcome_manual, confirm,
contradict, retire) weighs as its own report, whoever it names. --operator
serves them too, and weighs verdicts as a person's: for an operator's own
client, never the agent's.`,
		Example: "  ucs mcp --workspace ~/.ucs\n  ucs mcp config --client cursor\n  ucs mcp config --client claude --operator",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			bin, err := findMCP()
			if err != nil {
				return err
			}
			args := []string{mcpBinary}
			if st.workspace != "" {
				args = append(args, "--workspace", st.workspace)
			}
			if st.store != "" {
				args = append(args, "--store", st.store)
			}
			if st.wsName != "" {
				args = append(args, "--workspace-name", st.wsName)
			}
			if operator {
				args = append(args, "--operator")
			}
			err = syscall.Exec(bin, args, os.Environ())
			return &fault.Error{Kind: fault.KindInternal, Code: fault.CodeInternal, Msg: "cannot run " + bin + ": " + err.Error(),
				Hint: "run it directly: " + bin}
		},
	}
	cmd.Flags().BoolVar(&operator, "operator", false, "serve the operator's tools too (for an operator's own client, never the agent's)")
	var client string
	config := &cobra.Command{
		Use:   "config",
		Short: "Print the configuration an MCP client needs to start the ucs server",
		Long: `Prints, for the client named by --client, the file it reads its MCP servers
from and what to put there (config, or config_toml for codex; claude-code also
gets the command line that adds it). The server is the ucs-mcp binary beside
this ucs (else ucs-mcp on PATH), on --workspace or $UCS_WORKSPACE when given.
With --operator it is the operator's server (ucs-mcp --operator, named
ucs-operator): for the operator's own client, never the agent's.`,
		Example: "  ucs mcp config --client claude\n  ucs --workspace ~/agents/aegis/.ucs mcp config --client cursor",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !slices.Contains(mcpClients, client) {
				return &fault.Error{Kind: fault.KindBadInput, Code: fault.CodeInvalidValue,
					Msg: "--client is " + pyjson.Quote(client) + ", not one of " + strings.Join(mcpClients, ", "), Hint: "use one of: " + strings.Join(mcpClients, ", ")}
			}
			bin, err := findMCP()
			if err != nil {
				bin = mcpBinary // on PATH once installed
			}
			var args []string
			ws := st.workspace
			if ws == "" {
				ws = st.env.Getenv("UCS_WORKSPACE")
			}
			if url := st.storeURL(); isDatabase(url) {
				// A workspace of a PostgreSQL store: the server keeps a
				// connection to it.
				args = []string{"--store", url, "--workspace-name", st.workspaceName()}
			} else if ws != "" {
				if abs, err := filepath.Abs(ws); err == nil {
					ws = abs
				}
				args = []string{"--workspace", ws}
			}
			name := "ucs"
			if operator {
				name, args = "ucs-operator", append(args, "--operator")
			}
			return printJSON(cmd, mcpConfig(client, name, bin, args))
		},
	}
	config.Flags().StringVar(&client, "client", "claude", "the MCP client: "+strings.Join(mcpClients, ", "))
	config.Flags().BoolVar(&operator, "operator", false, "the operator's server (ucs-mcp --operator) instead of the agent's")
	cmd.AddCommand(config)
	return cmd
}

// mcpClients are the clients mcp config knows.
var mcpClients = []string{"claude", "claude-code", "cursor", "vscode", "windsurf", "codex"}

// mcpConfig is the configuration of client for a server named name,
// started as bin args.
func mcpConfig(client, name, bin string, args []string) pyjson.Value {
	if args == nil {
		args = []string{}
	}
	server := pyjson.Obj(pyjson.KV("command", bin), pyjson.KV("args", args))
	servers := pyjson.Obj(pyjson.KV("mcpServers", pyjson.Obj(pyjson.KV(name, server))))
	out := pyjson.Obj(pyjson.KV("client", client))
	switch client {
	case "claude":
		return out.With("file", "claude_desktop_config.json (~/Library/Application Support/Claude/ on macOS, ~/.config/Claude/ on Linux)").
			With("config", servers)
	case "claude-code":
		line := "claude mcp add " + name + " -- " + shellQuote(bin)
		for _, a := range args {
			line += " " + shellQuote(a)
		}
		return out.With("command_line", line).With("file", ".mcp.json (a project's), or the command line").With("config", servers)
	case "cursor":
		return out.With("file", "~/.cursor/mcp.json (or .cursor/mcp.json in a project)").With("config", servers)
	case "windsurf":
		return out.With("file", "~/.codeium/windsurf/mcp_config.json").With("config", servers)
	case "vscode":
		return out.With("file", ".vscode/mcp.json").With("config", pyjson.Obj(pyjson.KV("servers", pyjson.Obj(pyjson.KV(name,
			pyjson.Obj(pyjson.KV("type", "stdio"), pyjson.KV("command", bin), pyjson.KV("args", args)))))))
	default: // codex
		toml := "[mcp_servers." + name + "]\ncommand = " + pyjson.Quote(bin) + "\nargs = ["
		for i, a := range args {
			if i > 0 {
				toml += ", "
			}
			toml += pyjson.Quote(a)
		}
		return out.With("file", "~/.codex/config.toml").With("config_toml", toml+"]\n")
	}
}

// findMCP finds the ucs-mcp binary: beside this executable (as make
// install and ucs skill install put it), else on PATH.
func findMCP() (string, error) {
	p, err := findBeside(mcpBinary, "the MCP server ucs-mcp",
		"install it: make install, or go install github.com/unified-cognitive-substrate/ucs/cmd/ucs-mcp@latest")
	if err != nil {
		err.(*fault.Error).Code = fault.CodeMCPNotInstalled
	}
	return p, err
}

// findBeside finds a companion binary of ucs: beside this executable,
// else on PATH.
func findBeside(name, what, hint string) (string, error) {
	if exe, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		p := filepath.Join(filepath.Dir(exe), name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	return "", &fault.Error{Kind: fault.KindInternal, Code: fault.CodeNotInstalled,
		Msg: what + " is neither beside ucs nor on PATH", Hint: hint}
}

// shellQuote quotes a word for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:~+@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
