package cli

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestNoTemplates keeps the linker's dead-code elimination on for ucs.
// Executing a text/template (a cobra usage, help or version template)
// reaches reflect's MethodByName; the linker then keeps every exported
// method of every reachable type, and the binary grows by a quarter, which
// every call pays for in pages mapped at start-up. The linker's dependency
// dump marks such a reach <ReflectMethod>.
func TestNoTemplates(t *testing.T) {
	if testing.Short() {
		t.Skip("links the binary")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	cmd := exec.Command(gobin, "build", "-ldflags=-dumpdep", "-o", os.DevNull, "../../cmd/ucs")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, lastBytes(out, 2000))
	}
	for line := range strings.SplitSeq(string(out), "\n") {
		if strings.Contains(line, "<ReflectMethod>") {
			t.Fatalf("the binary reaches reflect's method lookup, which turns off dead-code elimination: %s", line)
		}
	}
}

func lastBytes(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}
