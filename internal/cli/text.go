package cli

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/unified-cognitive-substrate/ucs/internal/field"
)

// recordedEnv are the environment variables whose values a call may
// record or print: they must be text, as its flags must.
var recordedEnv = []string{"UCS_WORKSPACE", "UCS_WORKSPACE_NAME", "UCS_AGENT_ID", "UCS_STORE", "UCS_MODEL", "UCS_NOW"}

// checkText refuses a command line or an environment holding bytes that
// are not UTF-8 before anything is read or run, naming the flag, argument
// or variable: the journal, the state and every answer are JSON text, and
// one invalid byte recorded would make the workspace unreadable. The
// command exec runs (the words after --) is the caller's own and is kept
// as it is.
func checkText(args []string, getenv func(string) string) error {
	for _, name := range recordedEnv {
		if err := field.CheckUTF8(name, getenv(name)); err != nil {
			return err
		}
	}
	exec := false
	for i, a := range args {
		if a == "--" && exec {
			break
		}
		if a == "exec" {
			exec = true // exec's own command is after its --
		}
		if utf8.ValidString(a) {
			continue
		}
		return field.CheckUTF8(argName(args, i), a)
	}
	return nil
}

// argName names the i-th word of a command line as its caller sees it:
// the flag it is or is the value of, else its position.
func argName(args []string, i int) string {
	a := args[i]
	if strings.HasPrefix(a, "-") {
		flag, _, _ := strings.Cut(a, "=")
		if utf8.ValidString(flag) {
			return flag
		}
		return "a flag"
	}
	if i > 0 && strings.HasPrefix(args[i-1], "--") && !strings.Contains(args[i-1], "=") && utf8.ValidString(args[i-1]) {
		return args[i-1]
	}
	return "argument " + strconv.Itoa(i+1)
}
