package cli

import (
	"strconv"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/bridge"
	"github.com/unified-cognitive-substrate/ucs/internal/field"
)

// CommandReference renders the full command reference from the operation
// registry: the file references/commands.md of the skill, read on demand
// by an agent that needs a command's every field. TestCommandReference
// fails when the repository's copy differs;
// `go test ./internal/cli -run TestCommandReference -update` rewrites it.
func CommandReference() []byte {
	var b strings.Builder
	b.WriteString(`# ucs command reference

<!-- Generated from the operation registry (bridge.Specs) by
go test ./internal/cli -run TestCommandReference -update. Do not edit. -->

Every command is ` + "`{baseDir}/bin/ucs [--workspace DIR] COMMAND`" + ` (written ` + "`ucs`" + ` below), one
process per call, and prints one JSON object on stdout (log: one event a line,
or a table); on failure
` + "`{\"error\", \"code\", \"hint\"}`" + ` and the exit code of its kind (SKILL.md). An input is
checked before the workspace is touched: a field the command does not take is
refused (` + "`unknown_field`" + `), as are a wrong type (` + "`wrong_type`" + `), a word not allowed
(` + "`invalid_value`" + `) and a missing required field (` + "`missing_field`" + `). Flags and stdin
members are the same fields: a flag is written ` + "`--name`" + `, with hyphens for
underscores.

| command | what it does | changes the workspace | request_id |
| --- | --- | --- | --- |
`)
	for _, sp := range bridge.Specs() {
		b.WriteString("| [`" + sp.Name + "`](#" + strings.ReplaceAll(sp.Name, " ", "-") + ") | " + sp.Summary + " | " + yesNo(sp.Mutating) + " | " + yesNo(sp.Retries) + " |\n")
	}
	for _, sp := range bridge.Specs() {
		b.WriteString("\n## " + sp.Name + "\n\n" + sp.Summary + ".\n\n" + unwrap(sp.Long) + "\n\n" + effect(sp) + "\n")
		var flags, stdin []field.Field
		for _, f := range sp.Inputs() {
			if f.Flag {
				flags = append(flags, f)
			} else {
				stdin = append(stdin, f)
			}
		}
		if flags != nil {
			b.WriteString("\n| flag | takes | meaning |\n| --- | --- | --- |\n")
			for _, f := range flags {
				b.WriteString("| `--" + f.FlagName() + "` | " + takes(&f) + " | " + f.Describe() + " |\n")
			}
		}
		if stdin != nil {
			if sp.Open {
				b.WriteString("\nStdin, one JSON object; other members are left alone:\n")
			} else {
				b.WriteString("\nStdin, one JSON object:\n")
			}
			b.WriteString("\n| field | takes | meaning |\n| --- | --- | --- |\n")
			for _, f := range stdin {
				b.WriteString("| `" + f.Name + "` | " + takes(&f) + " | " + f.Describe() + " |\n")
			}
		}
		b.WriteString("\nAnswer, one JSON object (it may hold members not listed):\n\n| member | is | meaning |\n| --- | --- | --- |\n")
		for _, f := range sp.Outputs() {
			b.WriteString("| `" + f.Name + "` | " + is(&f) + " | " + f.Doc + " |\n")
		}
		b.WriteString("\n```sh\n" + sp.Example + "\n```\n")
	}
	b.WriteString(`
## Commands of the binary

` + "`ucs version`" + ` prints the version; ` + "`ucs skill install|uninstall|check`" + ` manages
this skill's folder; ` + "`ucs replay SCRIPT`" + ` runs a scripted session (for CI);
` + "`ucs completion bash|zsh|fish|powershell`" + ` prints a shell completion script;
` + "`ucs mcp`" + ` serves every command above as an MCP tool over stdio (the tool's name is the
command's, with _ for a space; ` + "`ucs mcp config --client NAME`" + ` prints a client's
configuration).
`)
	return []byte(b.String())
}

// takes says what a field takes, for a table cell.
func takes(f *field.Field) string {
	var s string
	switch {
	case f.Enum != nil:
		s = "`" + strings.Join(f.Enum, "`, `") + "`"
		if f.AnyCase {
			s += " (any case)"
		}
	case f.Flag && f.Type == field.Strings:
		s = "names, comma-separated"
	case f.Flag && f.Type == field.Bool:
		s = "nothing (a switch)"
	default:
		s = f.Type.String()
	}
	if f.Required {
		s += ", **required**"
	}
	switch d := f.Default.(type) {
	case string:
		s += ", default `" + d + "`"
	case int:
		s += ", default " + strconv.Itoa(d)
	}
	return s
}

// is says what an answer's member is, for a table cell.
func is(f *field.Output) string {
	s := f.Type.String()
	if f.Null {
		s += " or null"
	}
	if f.Always {
		s += ", always"
	}
	return s
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// unwrap joins the lines of each paragraph, so Markdown tables and
// renderers wrap them as they will.
func unwrap(s string) string {
	paras := strings.Split(s, "\n\n")
	for i, p := range paras {
		paras[i] = strings.Join(strings.Fields(p), " ")
	}
	return strings.Join(paras, "\n\n")
}
