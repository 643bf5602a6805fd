package bridge

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/field"
)

// statPrint lists every file with its size and modification time to the
// nanosecond: any write changes it. Cheaper than hashing contents, which
// keeps the fuzz targets fast.
func statPrint(t *testing.T, root string) string {
	var lines []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == "lock" {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		lines = append(lines, fmt.Sprintf("%s %d %d", path, info.Size(), info.ModTime().UnixNano()))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// fuzzWorkspace is a workspace the fuzz targets share within one process,
// reset from a pristine copy when accepted inputs have grown it.
type fuzzWorkspace struct {
	b        *Bridge
	pristine string
	accepted int
}

func newFuzzWorkspace(f *testing.F) *fuzzWorkspace {
	dir := f.TempDir()
	pristine := filepath.Join(dir, "pristine")
	b := New(Options{Workspace: pristine, Now: testNow})
	if _, err := b.Do(Call{Op: "init"}); err != nil {
		f.Fatal(err)
	}
	fw := &fuzzWorkspace{pristine: pristine}
	fw.reset(dir)
	return fw
}

func (fw *fuzzWorkspace) reset(dir string) {
	ws := filepath.Join(dir, "ws")
	os.RemoveAll(ws)
	if err := os.CopyFS(ws, os.DirFS(fw.pristine)); err != nil {
		panic(err)
	}
	fw.b = New(Options{Workspace: ws, Now: testNow})
	fw.accepted = 0
}

// fuzzOp feeds raw stdin bytes to an operation the way the command line
// does. The property: no panic, and a rejected input leaves every byte of
// the workspace unchanged.
func fuzzOp(f *testing.F, op string, seeds ...string) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	fw := newFuzzWorkspace(f)
	dir := filepath.Dir(fw.b.ws.Root())
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := field.ParseInput(data)
		if err != nil {
			if fault.Exit(err) != int(fault.KindBadInput) {
				t.Fatalf("field.ParseInput error of kind %d: %v", fault.Exit(err), err)
			}
			return // rejected before the workspace was touched
		}
		before := statPrint(t, fw.b.ws.Root())
		if _, err := fw.b.Do(Call{Op: op, Input: in}); err != nil {
			if k := fault.Exit(err); k != int(fault.KindBadInput) {
				t.Fatalf("input %q: error of kind %d: %v", data, k, err)
			}
			if after := statPrint(t, fw.b.ws.Root()); after != before {
				t.Fatalf("rejected input %q changed the workspace", data)
			}
			return
		}
		if fw.accepted++; fw.accepted > 200 {
			fw.reset(dir)
		}
	})
}

func FuzzReport(f *testing.F) {
	fuzzOp(f, "report",
		`{"action": "read", "outcome": "ok", "success": "success", "significance": "notable"}`,
		`{"action": "web_fetch", "reasoning_trace": {"constraints": "c", "alternatives": "a", "decisive_factor": "d"}}`,
		`{"action": "nope", "request_id": "x"}`,
		`{"action": "read", "success": "great"}`,
		`{"action": ["read"]}`, `[]`, `{"action": "read", "context": "\u00e9\ud83d\ude00"}`)
}

func FuzzReflect(f *testing.F) {
	fuzzOp(f, "reflect",
		`{"type": "post_task", "text": "### t\n`+"```"+`\ncode", "capabilities": ["read"], "keywords": ["k"]}`,
		`{"type": "annotation", "artifact_id": "64eee9608f0eebb7", "text": "why"}`,
		`{"type": "dead_end", "text": "x", "topic": "t", "why_closed": "w", "reopen_conditions": "r"}`,
		`{"type": "synthesis", "text": "s"}`, `{"type": "experiment", "text": "e"}`,
		`{"type": "other", "text": "x"}`, `{"type": "annotation", "text": "no id"}`)
}

func FuzzImport(f *testing.F) {
	fuzzOp(f, "import",
		`{"format": "ucs_cognitive_export_v2", "methodology": [{"id": "a", "summary": "s"}], "dead_ends": [], "judgment_nodes": [{"x": 1}],
		  "artifacts": {"64eee9608f0eebb7": {"annotation": {"text": "t"}}}, "routing_graph": {"edges": [{"src": "read", "dst": "edit", "w": 1.5}]}}`,
		`{"format": "ucs_cognitive_export_v2", "routing_graph": {"edges": [{"src": "read", "dst": "edit", "w": "x"}]}}`,
		`{"format": "other"}`, `{"format": "ucs_cognitive_export_v2", "methodology": {"not": "a list"}}`)
}
