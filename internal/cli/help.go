package cli

import (
	"strings"

	"github.com/unified-cognitive-substrate/ucs/bridge"
	"github.com/unified-cognitive-substrate/ucs/internal/field"
)

// longHelp is an operation's --help text before the error contract: its
// summary and description, its stdin fields, and what it does to the
// workspace, all from its Spec (the flags are cobra's to list).
func longHelp(sp *bridge.Spec) string {
	var b strings.Builder
	b.WriteString(sp.Summary + ".\n\n" + sp.Long + "\n")
	if sp.Stdin() {
		if sp.Open {
			b.WriteString("\nStdin: one JSON object; " + sp.Name + " reads these members and leaves any other alone:\n")
		} else {
			b.WriteString("\nStdin: one JSON object with these fields (any other is refused):\n")
		}
		for _, f := range sp.Inputs() {
			if !f.Flag {
				b.WriteString("  " + quoted(f.Name) + ": " + fieldType(&f) + "\n      " + f.Describe() + "\n")
			}
		}
	}
	b.WriteString("\n" + effect(sp) + "\n")
	return b.String()
}

// fieldType says what a field takes: its type or its words, whether it is
// required, and its default.
func fieldType(f *field.Field) string {
	t := f.Type.String()
	if f.Enum != nil {
		t = strings.Join(f.Enum, "|")
		if f.AnyCase {
			t += " (any case)"
		}
	}
	if f.Required {
		t += ", required"
	}
	if d, ok := f.Default.(string); ok {
		t += ", default " + d
	}
	return t
}

// effect says what the operation does to the workspace.
func effect(sp *bridge.Spec) string {
	s := "Only reads the workspace."
	if sp.Mutating {
		s = "Can change the workspace."
	}
	if sp.Retries {
		s += " A call retried with the same request_id is applied once."
	}
	return s
}

// flagUsage is a flag's line in --help.
func flagUsage(f *field.Field) string {
	s := f.Describe()
	if f.Type == field.Strings {
		s += ", comma-separated"
	}
	if f.Required {
		s += " (required)"
	}
	if f.Env != "" {
		s += " (default $" + f.Env + ")"
	}
	return s
}

func quoted(s string) string { return `"` + s + `"` }

// indent puts prefix before every line of s.
func indent(s, prefix string) string {
	if s == "" {
		return ""
	}
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}
