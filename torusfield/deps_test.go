package torusfield

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoBridgeImports keeps the engine free of the layers above it: the
// torusfield package must not depend, even indirectly, on the bridge or the
// knowledge packages of this module.
func TestNoBridgeImports(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH")
	}
	out, err := exec.Command(goBin, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	const module = "github.com/unified-cognitive-substrate/ucs"
	deps := strings.Fields(string(out))
	if len(deps) == 0 || deps[len(deps)-1] != module+"/torusfield" {
		t.Fatalf("go list -deps did not list the torusfield package last: %q", deps)
	}
	for _, dep := range deps {
		rest, ok := strings.CutPrefix(dep, module+"/")
		if !ok {
			continue
		}
		for _, seg := range strings.Split(rest, "/") {
			if seg == "bridge" || seg == "knowledge" {
				t.Errorf("torusfield depends on %s", dep)
			}
		}
	}
}
