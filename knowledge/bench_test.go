package knowledge_test

import (
	"testing"

	"github.com/unified-cognitive-substrate/ucs/internal/bench/knowledgegen"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
)

// BenchmarkScore scores 10,000 methodology entries, 2,000 judgment nodes
// and 1,000 dead ends for one consult-like query: "decode" runs the
// searches on the decoded entries (a workspace without a current index),
// "index" scores their feature lines (the index path).
func BenchmarkScore(b *testing.B) {
	pkg := knowledgegen.Package(knowledgegen.Options{Methodology: 10000, Judgment: 2000, DeadEnds: 1000, Seed: 7})
	kinds := []struct {
		name string
		kind knowledge.Kind
	}{{"methodology", knowledge.MethodologyKind}, {"judgment_nodes", knowledge.JudgmentKind}, {"dead_ends", knowledge.DeadEndKind}}
	var corpora []corpus
	for _, k := range kinds {
		list, _ := pkg.Get(k.name)
		corpora = append(corpora, load(b, list.Items(), nil))
	}
	const context = "research competitor pricing on the web"
	q := queries(b, corpora[0])[1] // with the consult's routing snapshot
	dq := q
	dq.Routing = knowledge.Entry{}
	b.Run("decode", func(b *testing.B) {
		for b.Loop() {
			knowledge.SearchMethodology(corpora[0].entries, q)
			knowledge.SearchJudgmentNodes(corpora[1].entries, q)
			knowledge.SearchDeadEnds(corpora[2].entries, dq, context)
		}
	})
	b.Run("index", func(b *testing.B) {
		for b.Loop() {
			p, dp := q.Prepare(""), dq.Prepare(context)
			for i, k := range kinds {
				pk := p
				if k.kind == knowledge.DeadEndKind {
					pk = dp
				}
				for _, line := range corpora[i].lines {
					pk.Score(k.kind, line)
				}
			}
		}
	})
}
