package ucs

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// layers are the module's packages from the bottom up. A package may
// import packages of lower layers only: never one of its own layer or of
// one above it. A new package must be placed here.
var layers = [][]string{
	{"internal/pyjson", "internal/quickjson", "internal/suggest", "internal/phrase", "internal/version", "internal/bench", "internal/handoff"}, // internal/bench: its doc comment only; handoff: a store call's exec from ucs to ucs-pg, the standard library only; phrase: numbers and text in words, for the answers and the dashboard
	{"internal/fault", "internal/handoff/atstart"}, // the errors every layer returns; atstart: the hand-off while cmd/ucs starts
	{"outcome"}, // the vocabulary of outcomes the domain speaks
	{"internal/bench/pgtest", "internal/bench/browsertest", "torusfield", "knowledge", "policy", "goal"},
	{"learn", "internal/field"}, // the model learns on the engine's graph (torusfield); field: an operation's input and answer (fault, outcome)
	{"recall", "learn/nextstep"},
	{"learn/advice", "belief"}, // advice joins the models (learn, learn/nextstep) to a workspace; belief ranks its observations with recall
	{"internal/workspace", "internal/workspace/workspacetest", "internal/bench/knowledgegen", "internal/bench/newuser"},
	// Above storage, each reads a workspace: search scores the index storage keeps (knowledge); history reads the report history back and sums it up; transfer is the export package; initmanifest is init's manifest choice; audit proves and repairs a history; bookstore keeps the observation book and its context index.
	{"internal/search", "internal/history", "internal/transfer", "internal/initmanifest", "internal/audit", "internal/bookstore"},
	{"internal/relevance", "dashboard", "internal/contract"}, // contract: each operation's description, its input's checks made of the domain's (outcome, goal, transfer); relevance: what the workspace knows about a context, ranked on search's indexes; dashboard: its data is made of the domain's values (the engine, transitions, goals, observations), gathered from a transaction, the journal (summed up as audit does) and history
	{"bridge"},
	{"internal/replay", "internal/toolexec", "skill", "internal/store", ""}, // "": the module's root (the embedded SKILL.md)
	// The front ends and a store's backend, apart: they meet in internal/store.
	{"internal/cli", "internal/mcpserver", "internal/pgstore"},
	{"cmd/ucs", "internal/bench/cmd/benchstore", "internal/bench/cmd/benchview", "internal/bench/cmd/benchmcp", "internal/bench/cmd/benchcalls", "internal/bench/cmd/benchmodel", "internal/bench/cmd/genknowledge", "internal/bench/cmd/gennewuser", "internal/bench/learnbench", "internal/bench/realbench"},
	{"internal/bench/cmd/benchlearning", "cmd/ucs-pg", "cmd/ucs-mcp", "internal/bench/cmd/benchreal", "internal/bench/cmd/taureduce"},
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

// TestBenchOutsideProduct fails when a package outside internal/bench
// imports one under it other than from its tests. The layer table alone
// allows it (pgtest and the generators sit low, so tests everywhere may
// use them), but the benchmarks and test helpers must stay out of the
// binaries: they would cost every call start-up work and size for nothing.
func TestBenchOutsideProduct(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH")
	}
	out, err := exec.Command(goBin, "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const bench = "github.com/unified-cognitive-substrate/ucs/internal/bench"
	under := func(pkg string) bool { return pkg == bench || strings.HasPrefix(pkg, bench+"/") }
	for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		if under(fields[0]) {
			continue
		}
		for _, imp := range fields[1:] {
			if under(imp) {
				t.Errorf("%s imports %s: only tests and internal/bench may", fields[0], imp)
			}
		}
	}
}

// TestStorageImportsNoDomain fails when storage (internal/workspace)
// depends on a package of the domain: it stores bytes, and what they mean
// (the knowledge's index features, the learning, the search) is given to
// it by the caller: the index's features and the manifest's parser come
// through its Options. It may depend on nothing above internal/fault.
func TestStorageImportsNoDomain(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH")
	}
	out, err := exec.Command(goBin, "list", "-deps", "./internal/workspace").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const module = "github.com/unified-cognitive-substrate/ucs/"
	allowed := append([]string{"internal/fault"}, layers[0]...) // the bottom: JSON, errors, words
	for pkg := range strings.FieldsSeq(string(out)) {
		rel, ours := strings.CutPrefix(pkg, module)
		if ours && rel != "internal/workspace" && !slices.Contains(allowed, rel) {
			t.Errorf("internal/workspace depends on %s: storage imports no domain package", rel)
		}
	}
}
