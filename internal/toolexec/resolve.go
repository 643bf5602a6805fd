package toolexec

import (
	"os/exec"
	"path/filepath"

	"github.com/unified-cognitive-substrate/ucs/policy"
)

// Resolve finds the program a command line starts, as exec.Command would:
// a name without a "/" on PATH (exec.LookPath, which refuses a PATH entry
// that is not absolute, such as "."), any other name as a file relative to
// the working directory. The path is made absolute and cleaned, never
// following a symbolic link: the policy judges the path that is run. A
// name that resolves to nothing, or to a file that cannot be executed,
// has Path "".
func Resolve(name string) policy.Program {
	prog := policy.Program{Name: name}
	if name == "" {
		return prog
	}
	p, err := exec.LookPath(name)
	if err != nil {
		return prog
	}
	if abs, err := filepath.Abs(p); err == nil {
		prog.Path = abs
	}
	return prog
}
