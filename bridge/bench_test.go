package bridge

import (
	"testing"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/relevance"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// Benchmarks of the hot paths, in process, on workspaces of each size of
// scaleSizes (fresh; 1k/200/100; 10k/2k/1k methodology/judgment/dead-end
// entries), generated once per run. `make bench` runs them with the
// whole-process measurements of internal/bench/cmd/benchcalls.

func forSizes(b *testing.B, fn func(b *testing.B, br *Bridge)) {
	for _, size := range scaleSizes {
		b.Run(size.name, func(b *testing.B) { fn(b, scaleWorkspace(b, size.name)) })
	}
}

// openBench loads the workspace as every call does: lock, read the state
// file, check for an interrupted call, decode the state.
func openBench(b *testing.B, br *Bridge, exclusive bool) (*session, func()) {
	tx, err := br.ws.Begin(exclusive)
	if err != nil {
		b.Fatal(err)
	}
	s, err := br.openSession(tx)
	if err != nil {
		b.Fatal(err)
	}
	return s, tx.Close
}

// BenchmarkLoad is what every call pays before it operates.
func BenchmarkLoad(b *testing.B) {
	forSizes(b, func(b *testing.B, br *Bridge) {
		for b.Loop() {
			_, unlock := openBench(b, br, false)
			unlock()
		}
	})
}

// BenchmarkSave is a commit: the state file encoded, the journal event
// and the appends written and synced, the state file replaced atomically.
func BenchmarkSave(b *testing.B) {
	forSizes(b, func(b *testing.B, br *Bridge) {
		for b.Loop() {
			s, unlock := openBench(b, br, true)
			c := Call{Op: "flush", Args: pyjson.Obj(), Input: pyjson.NullValue()}
			if _, err := opFlush(s, c); err != nil {
				b.Fatal(err)
			}
			if err := s.commit(c, s.engine.Grid.T); err != nil {
				b.Fatal(err)
			}
			unlock()
		}
	})
}

// BenchmarkKeywordSearch is a consult's three searches (methodology, the
// judgment window, dead ends) for a task: from the index, and decoding
// every entry as a workspace without an index does.
func BenchmarkKeywordSearch(b *testing.B) {
	const context = "research competitor pricing on the web"
	forSizes(b, func(b *testing.B, br *Bridge) {
		for _, mode := range []string{"index", "decode"} {
			b.Run(mode, func(b *testing.B) {
				s, unlock := openBench(b, br, true)
				defer unlock()
				s.tx.NoIndex = mode == "decode"
				basis, err := s.consultBasis(consultCall(context))
				if err != nil {
					b.Fatal(err)
				}
				resolved, energy := basis.Resolved, basis.Energy
				paths, err := s.scorePaths(s.engine.Cursor.Node, nil, nil)
				if err != nil {
					b.Fatal(err)
				}
				w, _ := s.enrich(torusfield.KindWormhole, 5)
				a, _ := s.enrich(torusfield.KindAttractor, 3)
				q := knowledge.Query{Keywords: knowledge.Words(context), Capabilities: resolved, Now: s.now,
					DecayRate: relevance.DecayRate, StructuralWeight: relevance.StructuralWeight, Max: relevance.MaxMethodologyHits,
					Routing: relevance.RoutingSnapshot(s.engine, s.engine.Cursor.Node, paths[:min(6, len(paths))], energy, w, a)}
				dq := q
				dq.Routing = pyjson.NullValue()
				for b.Loop() {
					b.StopTimer()
					s.tx.Discard() // as a new call: nothing read yet
					b.StartTimer()
					k := s.knowledge()
					dead, err := k.ReferenceDeadEnds(context, dq)
					if err != nil {
						b.Fatal(err)
					}
					if _, _, _, err := k.Reference(q, dead, judgmentWindow); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	})
}

// BenchmarkReport is one whole report call: lock, recovery check, load,
// reinforce, commit with fsync. Reports alternate along an edge and back;
// every fifth runs a φ-cycle.
func BenchmarkReport(b *testing.B) {
	forSizes(b, func(b *testing.B, br *Bridge) {
		actions := []string{"read", "web_fetch"}
		for i := 0; b.Loop(); i++ {
			if _, err := report(b, br, actions[i%2]); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkConsult is one whole consult call.
func BenchmarkConsult(b *testing.B) {
	forSizes(b, func(b *testing.B, br *Bridge) {
		for b.Loop() {
			if _, err := br.Do(Call{Op: "consult", Args: argsOf("context", "research competitor pricing on the web")}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkStatus is one status call: shared lock, load, answer.
func BenchmarkStatus(b *testing.B) {
	forSizes(b, func(b *testing.B, br *Bridge) {
		for b.Loop() {
			if _, err := br.Do(Call{Op: "status"}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
