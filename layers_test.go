package ucs

import (
	"os/exec"
	"strings"
	"testing"
)

// layers are the module's packages from the bottom up. A package may
// import packages of lower layers only: never one of its own layer or of
// one above it. A new package must be placed here.
var layers = [][]string{
	{"internal/pyjson", "internal/suggest"},
	{"internal/fault", "internal/pgtest", "torusfield", "knowledge", "outcome", "policy", "dashboard"},
	{"learn"}, // the model learns on the engine's graph (torusfield)
	{"recall", "belief", "learn/nextstep"},
	{"learn/advice"}, // joins the models (learn, learn/nextstep) to a workspace
	{"internal/workspace", "internal/workspace/workspacetest", "internal/knowledgegen", "internal/newuser"},
	{"bridge"},
	{"internal/replay", "internal/toolexec", "skill", ""}, // "": the module's root (the embedded SKILL.md)
	{"internal/cli", "internal/mcpserver"},
	{"cmd/ucs", "internal/pgstore", "internal/tools/benchstore", "internal/tools/benchview", "internal/tools/benchmcp", "internal/tools/benchcalls", "internal/tools/benchmodel", "internal/tools/genknowledge", "internal/tools/gennewuser", "internal/learnbench", "internal/realbench"},
	{"internal/tools/benchlearning", "cmd/ucs-pg", "cmd/ucs-mcp", "internal/tools/benchreal", "internal/tools/taureduce"},
}

// TestImportLayers lists every package's imports (go list) and fails when
// a package imports one that is not below it: storage below the
// operations, the operations below the command line.
func TestImportLayers(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH")
	}
	out, err := exec.Command(goBin, "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const module = "github.com/unified-cognitive-substrate/ucs"
	layer := map[string]int{}
	for i, names := range layers {
		for _, name := range names {
			layer[strings.TrimSuffix(module+"/"+name, "/")] = i
		}
	}
	for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := fields[0]
		at, ok := layer[pkg]
		if !ok {
			t.Errorf("%s is in no layer: add it to layers", pkg)
			continue
		}
		for _, imp := range fields[1:] {
			if imp != module && !strings.HasPrefix(imp, module+"/") {
				continue
			}
			if l, ok := layer[imp]; ok && l >= at {
				t.Errorf("%s (layer %d) imports %s (layer %d): a package imports only layers below its own", pkg, at, imp, l)
			}
		}
	}
}
