package bridge

import (
	"testing"
)

// BenchmarkReport is one whole report call in process: lock, recover
// check, load, reinforce, commit (journal, appends, state file) with fsync.
func BenchmarkReport(b *testing.B) {
	br := newWorkspace(b)
	actions := []string{"read", "web_fetch"}
	for i := 0; b.Loop(); i++ {
		if _, err := report(b, br, actions[i%2]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStatus is one status call: shared lock, load, answer.
func BenchmarkStatus(b *testing.B) {
	br := newWorkspace(b)
	for b.Loop() {
		if _, err := br.Do(Call{Op: "status"}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkConsult is one consult call on a fresh workspace.
func BenchmarkConsult(b *testing.B) {
	br := newWorkspace(b)
	for b.Loop() {
		if _, err := br.Do(Call{Op: "consult", Args: argsOf("context", "research competitor pricing on the web")}); err != nil {
			b.Fatal(err)
		}
	}
}
