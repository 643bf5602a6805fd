package recall

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestJaccard(t *testing.T) {
	for _, tc := range []struct {
		a, b []string
		want float64
	}{
		{[]string{"fix", "parser", "test"}, []string{"fix", "parser", "test"}, 1},
		{[]string{"fix", "parser"}, []string{"parser", "test"}, 1.0 / 3},
		{[]string{"test", "parser", "test"}, []string{"parser"}, 0.5},
		{[]string{"a"}, []string{"b"}, 0},
		{nil, nil, 0},
		{nil, []string{"x"}, 0},
	} {
		assert.InDelta(t, tc.want, Jaccard(tc.a, tc.b), 1e-15, "%v %v", tc.a, tc.b)
		assert.InDelta(t, tc.want, Jaccard(tc.b, tc.a), 1e-15, "symmetric")
	}
}

// The threshold's evidence: two wordings of one lesson are near
// duplicates, two lessons about the same tool or task with different
// advice are not.
func TestNearDuplicate(t *testing.T) {
	a := NewAnalyzer(Synonyms{})
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"Run the parser tests alone with go test -run before fixing the parser",
			"Before fixing the parser, run its tests alone using go test -run", true},
		{"When a release raises the error rate, roll back to the previous image tag first and investigate afterwards",
			"If the error rate rises after a release, roll back to the previous image first and investigate later", true},
		{"Replace sleeps with polling in flaky integration tests",
			"Flaky integration tests: poll for the condition instead of sleeping", true},
		{"Record competitor prices per seat from their public pricing pages, with the date",
			"Note the date when recording per-seat prices from competitors' public pricing pages", true},
		{"Make schema changes backward compatible: add the column, deploy, backfill, then drop the old column later",
			"Add the new column, deploy, backfill and only later drop the old column, so schema changes stay backward compatible", true},

		{"Run go test with the race detector to find data races between goroutines",
			"Run go test with -count=1 to bypass the test cache", false},
		{"Use git bisect to find the commit that broke the build",
			"Use git stash before switching branches to keep uncommitted work", false},
		{"Docker: copy go.mod before the source so module downloads are cached",
			"Docker: run the container as a non-root user", false},
		{"Stripe: use idempotency keys when retrying payment requests",
			"Stripe: verify webhook signatures with the endpoint secret", false},
		{"Roll back to the previous image tag when the error rate rises after a release",
			"Roll out a release to 5% of traffic first and watch the error rate", false},
		{"Retry flaky network tests with exponential backoff",
			"Flaky network tests: give each test its own stub server instead of retrying", false},
	} {
		ta, tb := a.Terms(tc.a), a.Terms(tc.b)
		assert.Equal(t, tc.want, NearDuplicate(ta, tb), "%.2f: %q / %q", Jaccard(ta, tb), tc.a, tc.b)
	}
}

func TestMatches(t *testing.T) {
	a := NewAnalyzer(Synonyms{})
	doc := a.Terms("Stripe's metered billing could not express tiered usage")
	assert.True(t, Matches(a.Terms("set up Stripe billing"), doc, 1))
	assert.True(t, Matches(a.Terms("set up Stripe billing"), doc, 2))
	assert.False(t, Matches(a.Terms("set up Stripe billing"), doc, 3))
	assert.False(t, Matches(a.Terms("research the PayPal API"), doc, 1))
	assert.False(t, Matches(nil, doc, 0), "no shared term never matches")
	assert.True(t, Matches([]string{"strip", "bill", "strip"}, doc, 0), "unsorted, repeated")
}
