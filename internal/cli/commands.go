package cli

import (
	"fmt"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/unified-cognitive-substrate/ucs/bridge"
	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/transfer"
	"github.com/unified-cognitive-substrate/ucs/internal/version"
)

const errorContract = `
Output: one JSON object on stdout. On failure it is
  {"error": "<what went wrong>", "code": "<snake_case kind>", "hint": "<how to fix>"}
with one human line on stderr and the exit code of the kind:
  0 ok   1 internal error   2 bad input or usage   3 workspace not initialized
  4 workspace busy (lock not obtained in time)   5 workspace corrupt (run ucs check)
  6 unsupported version (upgrade ucs)   7 store unavailable (the PostgreSQL store
  cannot be reached or refuses the connection)
A failed call changes no file. Every code is in docs/errors.md.

Environment: UCS_WORKSPACE (default workspace), UCS_NOW (RFC 3339 clock, for
reproducible runs), UCS_LOCK_TIMEOUT (default 10s), UCS_AGENT_ID,
UCS_POLICY_FILE (the operator's policy file).`

// rootCommand builds the command tree. With only, the name of a top-level
// command, it builds the root and that command alone: a call runs one
// command, and building all sixteen with their flags, plus the completion
// command and its four shells, cost 80 to 150 µs of every call (a fresh
// process pays for each page of code and heap it touches first); one
// command costs about 10. What a call sees does not change: cobra finds,
// parses, checks and helps a command from the command itself, its children
// and its ancestors' persistent flags, never its siblings (TestPrunedTree
// compares the two trees' outputs). A call that needs the whole tree (root
// help, help, completion, an unknown command) gets it: calledCommand names
// a command only when nothing but the root's own flags (--workspace,
// --store, --workspace-name, --policy-file, --compact) comes before it.
func (st *state) rootCommand(only string) *cobra.Command {
	root := &cobra.Command{
		Use:   "ucs",
		Short: "ucs — a learning memory of how an agent works",
		Long: `ucs gives a persistent AI agent a memory of how it works: a routing engine
over its tools that learns from every reported action (torusfield), and the
qualitative judgment it writes down (methodology, dead ends, judgment nodes).

Each command is one process: it loads the workspace, does one operation,
commits atomically and exits. Typical session:

  ucs resume                                   at session start
  ucs consult --context "..."                  before a significant task
  echo '{"action":...}' | ucs report           after each action
  echo '{"type":"post_task",...}' | ucs reflect when a report asks for reflection
  ucs flush                                    before context compaction
` + errorContract,
		SilenceErrors: true,
		SilenceUsage:  true,
		PersistentPreRun: func(cmd *cobra.Command, _ []string) {
			// cmd/ucs turns the collector off for a call's few milliseconds;
			// commands that stream through a whole history or all the knowledge
			// (export) turn it back on.
			switch cmd.Name() {
			case "verify", "replay", "check", "log", "export":
				debug.SetGCPercent(100)
			}
		},
	}
	if only == "" {
		// --version prints cobra's "ucs version X" line. A version
		// template would make it "ucs X", but executing any template
		// reaches reflect's MethodByName, and then the linker keeps every
		// exported method of every type: 1.3 MB more binary for a fresh
		// process to map (TestNoTemplates). It is the root's own flag, so
		// only a call that builds the whole tree can ask for it, and only
		// such a call pays for reading the build's version.
		root.Version = version.Version()
	}
	root.PersistentFlags().StringVar(&st.workspace, "workspace", "", "workspace directory (default $UCS_WORKSPACE, else ~/.ucs)")
	root.PersistentFlags().StringVar(&st.store, "store", "", "where the workspace is: a directory, or a PostgreSQL store postgres://... (default $UCS_STORE)")
	root.PersistentFlags().StringVar(&st.wsName, "workspace-name", "", "the workspace in a PostgreSQL store (default $UCS_WORKSPACE_NAME, else $UCS_AGENT_ID, else default)")
	root.PersistentFlags().BoolVar(&st.compact, "compact", false, "print the JSON answer on one line, without indentation")
	root.PersistentFlags().StringVar(&st.policyFile, "policy-file", "", "the operator's policy file, which this user must not be able to write: it is the policy, and policy changes are refused (default $UCS_POLICY_FILE)")
	if only != "" {
		if cmd := st.command(only); cmd != nil {
			root.AddCommand(cmd)
			// The completion command is a sibling too.
			root.CompletionOptions.DisableDefaultCmd = true
			return root
		}
	}
	for _, name := range commandNames() {
		root.AddCommand(st.command(name))
	}
	// cobra's completion command prints its help and exits 0 when the shell
	// is missing or unknown; make both usage errors like any other.
	root.InitDefaultCompletionCmd()
	if comp, _, err := root.Find([]string{"completion"}); err == nil && comp.Name() == "completion" {
		comp.Args = cobra.ArbitraryArgs
		comp.RunE = func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return fmt.Errorf("name a shell: bash, zsh, fish or powershell")
			}
			return fmt.Errorf("unknown shell %q: use bash, zsh, fish or powershell", args[0])
		}
	}
	return root
}

// cliCommands are the top-level commands of the command line alone; every
// other command is an operation of the registry (bridge.Specs).
var cliCommands = [...]string{"exec", "mcp", "skill", "store", "replay", "version"}

// commandNames are the top-level commands, in the order they are added:
// the registry's operations, then the command line's own.
func commandNames() []string {
	var names []string
	for _, sp := range bridge.Specs() {
		name := sp.Name
		if g := sp.Group(); g != "" {
			name = g
		}
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	return append(names, cliCommands[:]...)
}

// groupCommand builds the command of a group of operations ("goal"), with
// one subcommand per operation ("goal add"), or returns nil.
func (st *state) groupCommand(name string) *cobra.Command {
	var group *cobra.Command
	for _, sp := range bridge.Specs() {
		if sp.Group() != name {
			continue
		}
		if group == nil {
			group = &cobra.Command{Use: name, Short: groupSummaries[name], Args: cobra.NoArgs,
				RunE: func(cmd *cobra.Command, args []string) error {
					return fmt.Errorf("name a subcommand of %s: see ucs %s --help", name, name)
				}}
		}
		sub := st.opCommand(sp)
		sub.Use = strings.TrimPrefix(sub.Use, name+" ")
		group.AddCommand(sub)
	}
	return group
}

// groupSummaries are the help lines of the groups of operations.
var groupSummaries = map[string]string{
	"goal":   "Goals: what the agent works towards, and how its outcomes move them",
	"policy": "The workspace's policy: which capability permissions are granted",
}

// rootValueFlags are the root's persistent flags that take a value.
var rootValueFlags = []string{"--workspace", "--store", "--workspace-name", "--policy-file"}

// calledCommand is the top-level command args name, when only the root's
// persistent flags come before it; "" otherwise.
func calledCommand(args []string) string {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case slices.Contains(rootValueFlags, a):
			i++ // its value
		case slices.ContainsFunc(rootValueFlags, func(f string) bool { return strings.HasPrefix(a, f+"=") }), a == "--compact":
		case strings.HasPrefix(a, "-"):
			return "" // help, version, "--", an unknown flag: the whole tree
		default:
			return a
		}
	}
	return ""
}

// command builds the top-level command name, or returns nil.
func (st *state) command(name string) *cobra.Command {
	if sp := bridge.Lookup(name); sp != nil {
		return st.opCommand(sp)
	}
	if cmd := st.groupCommand(name); cmd != nil {
		return cmd
	}
	switch name {
	case "exec":
		return st.execCommand()
	case "mcp":
		return st.mcpCommand()
	case "skill":
		return st.skillCommand()
	case "store":
		return st.storeCommand()
	case "replay":
		return st.replayCommand()
	case "version":
		return &cobra.Command{
			Use: "version", Short: "Print the version", Args: cobra.NoArgs,
			RunE: func(cmd *cobra.Command, _ []string) error {
				fmt.Fprintf(cmd.OutOrStdout(), "%s\n", pyjson.Indent(pyjson.Obj(pyjson.KV("ucs", version.Version()),
					pyjson.KV("engine", "torusfield_kernel.v0.2.1"), pyjson.KV("export_format", transfer.Format))))
				return nil
			},
		}
	}
	return nil
}

// opCommand builds the command of an operation from its Spec: its help,
// example and flags. Flags and the stdin object set the same fields: the
// call is sp.Call of one object holding both (a flag wins over a stdin
// member of its name).
func (st *state) opCommand(sp *bridge.Spec) *cobra.Command {
	cmd := &cobra.Command{
		Use:     sp.Name,
		Short:   sp.Summary,
		Example: indent(sp.Example, "  "),
		Args:    cobra.NoArgs,
	}
	// Its long help is made when help is asked for (--help, ucs help):
	// made for every call, it cost about 65 µs of the call's start.
	cmd.SetHelpFunc(func(c *cobra.Command, args []string) {
		c.Long = longHelp(sp) + errorContract
		c.SetHelpFunc(nil) // cobra's own, the root's
		c.HelpFunc()(c, args)
	})
	var positional *field.Field
	for i := range sp.Fields {
		if sp.Fields[i].Positional {
			positional = &sp.Fields[i]
			cmd.Use += " [" + strings.ToUpper(positional.FlagName()) + "]"
			cmd.Args = cobra.MaximumNArgs(1)
		}
	}
	type flagValue struct {
		f *field.Field
		s *string
		b *bool
		n *int64
	}
	var flags []flagValue
	for i := range sp.Fields {
		f := &sp.Fields[i]
		if !f.Flag {
			continue
		}
		v := flagValue{f: f}
		name, usage := f.FlagName(), flagUsage(f)
		switch f.Type {
		case field.Bool:
			v.b = new(bool)
			cmd.Flags().BoolVar(v.b, name, false, usage)
		case field.Int:
			v.n = new(int64)
			def, _ := f.Default.(int)
			cmd.Flags().Int64Var(v.n, name, int64(def), usage)
		default: // a string, or a list of strings separated by commas
			v.s = new(string)
			def, _ := f.Default.(string)
			cmd.Flags().StringVar(v.s, name, def, usage)
		}
		if f.Required && !f.Positional {
			cmd.MarkFlagRequired(name)
		}
		flags = append(flags, v)
	}
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		var ms []pyjson.Member
		if sp.Stdin() {
			input, err := st.readInput(cmd)
			if err != nil {
				return err
			}
			ms = input.Members()
		}
		for _, v := range flags {
			name := v.f.Name
			if !cmd.Flags().Changed(v.f.FlagName()) {
				if env := st.env.Getenv(v.f.Env); v.f.Env != "" && env != "" && v.s != nil {
					ms = append(ms, pyjson.KV(name, env))
				}
				continue
			}
			var x any
			switch {
			case v.b != nil:
				x = *v.b
			case v.n != nil:
				x = *v.n
			case v.f.Type == field.Strings:
				var names []string
				for item := range strings.SplitSeq(*v.s, ",") {
					if item = strings.TrimSpace(item); item != "" {
						names = append(names, item)
					}
				}
				if names == nil {
					continue
				}
				x = names
			case v.f.Type == field.Number:
				// A number as the schema has it; a word that is none
				// goes on as a string, for Do to refuse with its type.
				x = *v.s
				if n, err := strconv.ParseFloat(strings.TrimSpace(*v.s), 64); err == nil {
					x = n
				}
			default:
				x = *v.s
			}
			ms = slices.DeleteFunc(slices.Clip(ms), func(m pyjson.Member) bool { return m.Key == name })
			ms = append(ms, pyjson.KV(name, x))
		}
		if positional != nil && len(args) == 1 {
			if cmd.Flags().Changed(positional.FlagName()) {
				return fmt.Errorf("give %s once: as the argument or as --%s", strings.ToUpper(positional.FlagName()), positional.FlagName())
			}
			var x any = args[0]
			if positional.Type == field.Int {
				if n, err := strconv.ParseInt(args[0], 10, 64); err == nil {
					x = n
				}
			}
			ms = append(ms, pyjson.KV(positional.Name, x))
		}
		return st.do(cmd, sp.Call(pyjson.ObjectValue(ms)))
	}
	return cmd
}
