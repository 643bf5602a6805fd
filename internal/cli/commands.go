package cli

import (
	"fmt"
	"os"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/unified-cognitive-substrate/ucs/bridge"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

const errorContract = `
Output: one JSON object on stdout. On failure it is
  {"error": "<what went wrong>", "code": "<snake_case kind>", "hint": "<how to fix>"}
with one human line on stderr and the exit code of the kind:
  0 ok   1 internal error   2 bad input or usage   3 workspace not initialized
  4 workspace busy (lock not obtained in time)   5 workspace corrupt (run ucs check)
  6 workspace or event from a newer ucs (upgrade ucs)
A failed call changes no file.

Environment: UCS_WORKSPACE (default workspace), UCS_NOW (RFC 3339 clock, for
reproducible runs), UCS_LOCK_TIMEOUT (default 10s), UCS_AGENT_ID.`

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
// a command only when nothing but --workspace comes before it.
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
		// --version prints cobra's "ucs version X" line. A version
		// template would make it "ucs X", but executing any template
		// reaches reflect's MethodByName, and then the linker keeps every
		// exported method of every type: 1.3 MB more binary for a fresh
		// process to map (TestNoTemplates).
		Version: bridge.Version,
	}
	root.PersistentFlags().StringVar(&st.workspace, "workspace", "", "workspace directory (default $UCS_WORKSPACE, else ~/.ucs)")
	if only != "" {
		if cmd := st.command(only); cmd != nil {
			root.AddCommand(cmd)
			// The completion command is a sibling too.
			root.CompletionOptions.DisableDefaultCmd = true
			return root
		}
	}
	for _, name := range commandNames {
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

// commandNames are the top-level commands, in the order they are added.
var commandNames = [...]string{"init", "consult", "report", "reflect", "import", "flush", "resume", "synthesize",
	"status", "export", "check", "verify", "log", "skill", "replay", "version"}

// calledCommand is the top-level command args name, when only --workspace
// comes before it; "" otherwise.
func calledCommand(args []string) string {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--workspace":
			i++ // its value
		case strings.HasPrefix(a, "--workspace="):
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
	switch name {
	case "init":
		return st.initCommand()
	case "consult":
		return st.consultCommand()
	case "report":
		return st.stdinCommand("report", "Report what you did; the engine learns from it",
			`echo '{"action": "web_fetch", "outcome": "got the pricing page", "success": "success", "significance": "routine"}' | ucs report`,
			`Stdin: {"action": capability (required), "outcome": text, "success": success|partial|neutral|failure
(default neutral), "significance": routine|notable|critical (default routine), "context": text,
"reasoning_trace": {"constraints", "alternatives", "decisive_factor", ...}}.`)
	case "reflect":
		return st.stdinCommand("reflect", "Store a reflection: methodology, annotation, experiment, dead end or synthesis",
			`echo '{"type": "post_task", "text": "Always fetch full pages", "capabilities": ["web_fetch"], "keywords": ["pricing"]}' | ucs reflect
  echo '{"type": "annotation", "artifact_id": "c6b826111c1d656d", "text": "why this shortcut works"}' | ucs reflect`,
			`Stdin: {"type": post_task|annotation|experiment|dead_end|synthesis, "text": ... (required), and per type:
annotation: "artifact_id" (required), "failure_condition", "generalized_pattern";
post_task and dead_end: "capabilities", "keywords"; dead_end: "topic", "why_closed", "reopen_conditions"}.`)
	case "import":
		return st.stdinCommand("import", "Merge a cognitive export package (from ucs export) into this workspace",
			`ucs --workspace old export > agent.json && ucs --workspace new import < agent.json`,
			`Stdin: the JSON printed by ucs export. New entries are appended (no duplicates by id),
annotations fill unannotated artifacts, shared edges take the mean weight.`)
	case "flush":
		return st.plainCommand("flush", "Save before context compaction and get the prompts of what to externalize", "ucs flush")
	case "resume":
		return st.plainCommand("resume", "Session-start briefing: state, health trend, open questions, recommendations", "ucs resume")
	case "synthesize":
		return st.plainCommand("synthesize", "Gather the raw material of a periodic synthesis", "ucs synthesize")
	case "status":
		return st.plainCommand("status", "Quick health check", "ucs status")
	case "export":
		return st.plainCommand("export", "Print the whole cognitive state as one portable JSON package", "ucs export > agent.json")
	case "check":
		return st.checkCommand()
	case "verify":
		return st.verifyCommand()
	case "log":
		return st.logCommand()
	case "skill":
		return st.skillCommand()
	case "replay":
		return st.replayCommand()
	case "version":
		return &cobra.Command{
			Use: "version", Short: "Print the version", Args: cobra.NoArgs,
			RunE: func(cmd *cobra.Command, _ []string) error {
				fmt.Fprintf(cmd.OutOrStdout(), "%s\n", pyjson.Indent(pyjson.Obj(pyjson.KV("ucs", bridge.Version),
					pyjson.KV("engine", "torusfield_kernel.v0.2.1"), pyjson.KV("export_format", bridge.ExportFormat))))
				return nil
			},
		}
	}
	return nil
}

func (st *state) initCommand() *cobra.Command {
	var force bool
	var manifest, model string
	cmd := &cobra.Command{
		Use:   "init",
		Short: "Create a workspace and boot the engine (200 warm-up steps)",
		Long: `Create a workspace and boot the engine from a capability manifest: --manifest PATH,
else WORKSPACE/manifest.json when present, else the embedded Aegis manifest
(45 capabilities, 249 edges). The manifest is pinned in the workspace.
An existing workspace is left alone unless --force, which first moves its
state to ucs/state/backup/.` + "\n" + errorContract,
		Example: "  ucs --workspace ~/.ucs init\n  ucs init --manifest my-agent.json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			args := []pyjson.Member{pyjson.KV("force", force)}
			if model == "" {
				model = os.Getenv("UCS_MODEL")
			}
			if model != "" {
				args = append(args, pyjson.KV("model", model))
			}
			if manifest != "" {
				args = append(args, pyjson.KV("manifest", manifest))
			}
			return st.do(cmd, bridge.Call{Op: "init", Args: pyjson.ObjectValue(args), Input: pyjson.NullValue()})
		},
	}
	cmd.Flags().BoolVar(&force, "force", false, "reinitialize an existing workspace (its state is backed up first)")
	cmd.Flags().StringVar(&manifest, "manifest", "", "capability manifest JSON file")
	cmd.Flags().StringVar(&model, "model", "", "the learning model: "+strings.Join(bridge.Models(), ", ")+" (default $UCS_MODEL, else "+bridge.DefaultModel+")")
	return cmd
}

func (st *state) consultCommand() *cobra.Command {
	var context, caps string
	var greedy bool
	cmd := &cobra.Command{
		Use:   "consult",
		Short: "Before a significant task: suggested paths, methodology, dead ends, judgment",
		Long: `Advise before acting: energizes the capabilities the context evokes (and those
named with --capabilities), scores the paths leaving the cursor, and finds the
methodology, dead ends and judgment nodes that fit. The advisory suggests; the
agent decides.` + "\n" + errorContract,
		Example: `  ucs consult --context "research competitor pricing on the web"
  ucs consult --context "research pricing" --capabilities web_fetch,read`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var capList any
			if caps != "" {
				var names []string
				for _, name := range strings.Split(caps, ",") {
					if name = strings.TrimSpace(name); name != "" {
						names = append(names, name)
					}
				}
				capList = names
			}
			args := pyjson.Obj(pyjson.KV("context", context), pyjson.KV("capabilities", capList))
			if greedy {
				args = args.With("greedy", true)
			}
			return st.do(cmd, bridge.Call{Op: "consult", Input: pyjson.NullValue(), Args: args})
		},
	}
	cmd.Flags().StringVar(&context, "context", "", "the task or situation (required)")
	cmd.Flags().StringVar(&caps, "capabilities", "", "comma-separated capability names to energize")
	cmd.Flags().BoolVar(&greedy, "greedy", false, "v3: rank by the estimate alone, without the exploration bonus")
	cmd.MarkFlagRequired("context")
	return cmd
}

func (st *state) stdinCommand(name, short, example, long string) *cobra.Command {
	return &cobra.Command{
		Use: name, Short: short, Long: short + ".\n\n" + long + "\n" + errorContract,
		Example: "  " + example, Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			input, err := st.readInput(cmd)
			if err != nil {
				return err
			}
			return st.do(cmd, bridge.Call{Op: name, Args: pyjson.Obj(), Input: input})
		},
	}
}

func (st *state) plainCommand(name, short, example string) *cobra.Command {
	return &cobra.Command{
		Use: name, Short: short, Long: short + ".\n" + errorContract, Example: "  " + example, Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return st.do(cmd, bridge.Call{Op: name, Args: pyjson.Obj(), Input: pyjson.NullValue()})
		},
	}
}

func (st *state) checkCommand() *cobra.Command {
	var repair bool
	cmd := &cobra.Command{
		Use:   "check",
		Short: "Verify the workspace; with --repair, restore what can be restored",
		Long: `Verify every file of the workspace: the journal's hash chain, the state file
(schema, grid sizes, edges against the pinned manifest, finite numbers, counters
against the journal) and every data file against the line count and hash the
state records. Each problem is reported with its file and field; exit 5 when any
remains.

--repair first rolls back a call that was cut short, cuts torn or uncommitted
lines off files, and restores a damaged state file from the previous commit.
Whatever it removes is kept under ucs/state/backup/.` + "\n" + errorContract,
		Example: "  ucs check\n  ucs check --repair",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			b, err := st.bridgeFor()
			if err != nil {
				return err
			}
			out, err := b.Check(repair)
			if err != nil {
				return bridge.AsError(err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s\n", pyjson.Indent(out))
			return nil
		},
	}
	cmd.Flags().BoolVar(&repair, "repair", false, "repair what can be repaired, keeping a backup of anything removed")
	return cmd
}

func (st *state) verifyCommand() *cobra.Command {
	var from, diff int64
	var fromSnapshot bool
	cmd := &cobra.Command{
		Use:   "verify",
		Short: "Prove the workspace's history: replay the journal and compare every state hash",
		Long: `Replay the journal on a scratch copy of the workspace — the pinned manifest, the
recorded inputs and clock values — and prove that every event reproduces the
state hash it recorded, that the hash chain is unbroken, and that the final
state is exactly the workspace's. Exit 5 names the first event that does not
hold, with the fields that diverged.

--from-snapshot starts from the newest sound snapshot (one is kept every 1,000
events, UCS_SNAPSHOT_EVERY); --from SEQ from the newest at or before SEQ.
--diff SEQ replays up to event SEQ and shows how it compares.` + "\n" + errorContract,
		Example: "  ucs verify\n  ucs verify --from-snapshot\n  ucs verify --diff 42",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			b, err := st.bridgeFor()
			if err != nil {
				return err
			}
			opts := bridge.VerifyOptions{From: from, FromSnapshot: fromSnapshot, Until: diff,
				Progress: func(done, total int64) {
					fmt.Fprintf(cmd.ErrOrStderr(), "ucs: verified %d of %d journal bytes\n", done, total)
				}}
			out, err := b.Verify(opts)
			if err != nil {
				return bridge.AsError(err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s\n", pyjson.Indent(out))
			return nil
		},
	}
	cmd.Flags().Int64Var(&from, "from", 0, "replay from the newest sound snapshot at or before this event")
	cmd.Flags().BoolVar(&fromSnapshot, "from-snapshot", false, "replay only the events after the newest sound snapshot")
	cmd.Flags().Int64Var(&diff, "diff", 0, "replay up to this event and show how it compares")
	return cmd
}

func (st *state) logCommand() *cobra.Command {
	var opts bridge.LogOptions
	var format string
	cmd := &cobra.Command{
		Use:   "log",
		Short: "Show the history: what the agent reported and asked, when, and what it changed",
		Long: `Print the journal's events, oldest first, as JSON lines (the events as stored,
hash-chained) or as a table for people.` + "\n" + errorContract,
		Example: "  ucs log --format table --limit 20\n  ucs log --op report --since 2026-11-21T00:00:00Z",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch format {
			case "json":
			case "table":
				opts.Table = true
			default:
				return fmt.Errorf("--format must be json or table, not %q", format)
			}
			b, err := st.bridgeFor()
			if err != nil {
				return err
			}
			if err := b.Log(opts, cmd.OutOrStdout()); err != nil {
				return bridge.AsError(err)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&opts.Since, "since", "", "from this event (a sequence number) or time (RFC 3339) on")
	cmd.Flags().StringVar(&opts.Op, "op", "", "only events of this operation")
	cmd.Flags().IntVar(&opts.Limit, "limit", 0, "only the last N matching events")
	cmd.Flags().StringVar(&format, "format", "json", "json (one event per line) or table")
	return cmd
}
