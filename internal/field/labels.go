package field

import (
	"slices"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
)

// The command line names a flag field --name in its messages ("--context
// is required", "give --success, --action or both"); a tool has no flags,
// only arguments. ToolError says the same error in a tool's words, so an
// agent is never told to give a flag it cannot give.

// ToolError returns err as a tool taking the fields inputs reports it:
// every flag field named in its message and hint (--name) named as the
// argument ("argument \"name\""). Any other error is returned as it is.
func ToolError(err error, inputs []Field) error {
	e, ok := err.(*fault.Error)
	if !ok || e == nil {
		return err
	}
	var flags []string
	for _, f := range inputs {
		if f.Flag {
			flags = append(flags, f.FlagName())
		}
	}
	if flags == nil {
		return err
	}
	// The longest first: --from-snapshot is not --from followed by text.
	slices.SortFunc(flags, func(a, b string) int { return len(b) - len(a) })
	msg, hint := argumentLabels(e.Msg, flags), argumentLabels(e.Hint, flags)
	if msg == e.Msg && hint == e.Hint {
		return err
	}
	out := *e
	out.Msg, out.Hint = msg, hint
	return &out
}

// argumentLabels rewrites each --flag of flags in s as its argument.
func argumentLabels(s string, flags []string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		j := strings.Index(s[i:], "--")
		if j < 0 {
			b.WriteString(s[i:])
			break
		}
		b.WriteString(s[i : i+j])
		i += j
		matched := false
		for _, f := range flags {
			end := i + 2 + len(f)
			if strings.HasPrefix(s[i+2:], f) && (end == len(s) || !isFlagByte(s[end])) && (i == 0 || !isFlagByte(s[i-1])) {
				b.WriteString(`argument "` + strings.ReplaceAll(f, "-", "_") + `"`)
				i, matched = end, true
				break
			}
		}
		if !matched {
			b.WriteString("--")
			i += 2
		}
	}
	return b.String()
}

func isFlagByte(c byte) bool {
	return c == '-' || c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}
