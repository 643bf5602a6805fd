package recall

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unified-cognitive-substrate/ucs/learn"
)

// The failures of matching words as written: the task's own words must give the terms
// the entries about it are indexed under, whatever the inflection, and
// identifiers split into their words.
func TestAnalyzerTerms(t *testing.T) {
	a := NewAnalyzer(Synonyms{})
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"fix the failing unit test in parser_test.go", []string{"fail", "fix", "parser", "test", "unit"}},
		{"Tests fail; testing failed", []string{"fail", "test"}},
		{"refactor, refactoring, refactored", []string{"refactor"}},
		{"parser_test.go", []string{"parser", "test"}},
		{"HTTPServer.ServeHTTP", []string{"httpserver", "servehttp"}},
		{"deploy-prod v2 to k8s", []string{"deploy", "k8s", "prod"}},
		{"the and of it", nil},
		{"", nil},
		{"naïve café – résumé", []string{"café", "naïv", "résumé"}},
	} {
		assert.Equal(t, tc.want, a.Terms(tc.text), "%q", tc.text)
		assert.Equal(t, learn.Terms(tc.text), a.Terms(tc.text), "learn.Terms agrees: %q", tc.text)
	}
	var none *Analyzer
	assert.Equal(t, []string{"fail", "test"}, none.Terms("failing tests"), "a nil analyzer has no synonyms")
}

func TestAnalyzerCounts(t *testing.T) {
	a := NewAnalyzer(Synonyms{})
	assert.Equal(t, []TermCount{{"fail", 2}, {"parser", 1}, {"test", 3}},
		a.Counts("Test parser_test: the tests failed, failing"))
	assert.Nil(t, a.Counts("a an the"))
}
