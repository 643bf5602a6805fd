package recall

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A corpusEntry is an entry as an agent writes it after a task: a
// methodology, a dead end (title: its topic, text: why it was closed) or
// a judgment node.
type corpusEntry struct {
	id, kind     string
	title, text  string
	keywords     []string
	capabilities []string
}

func (e corpusEntry) doc() Doc {
	return Doc{ID: e.id, Kind: e.kind, Fields: []Field{
		{e.title, TitleWeight},
		{e.text, TextWeight},
		{strings.Join(e.keywords, " "), KeywordsWeight},
		{strings.Join(e.capabilities, " "), CapabilitiesWeight},
	}}
}

// corpus is 44 entries on varied topics: code and tests, deploys and
// operations, research, pricing, data, documentation and everyday work.
var corpus = []corpusEntry{
	// Code and tests.
	{"m-parser-test", "methodology", "Fixing a failing parser unit test",
		"When a unit test in the parser package fails, run it alone with go test -run and the -v flag, read the first assertion that differs, and fix the parser before touching the expected output.",
		[]string{"parser", "unit test", "go test"}, []string{"exec", "edit"}},
	{"m-flaky-tests", "methodology", "Flaky integration tests",
		"Integration tests that pass on rerun usually depend on timing: replace sleeps with polling on the condition and give each test its own temporary directory.",
		[]string{"flaky", "integration", "timing"}, []string{"exec"}},
	{"d-mock-db", "dead_end", "Mocking the database in repository tests",
		"Mocking the SQL driver made the repository tests pass while real queries failed; the mocks drifted from the schema. Use a throwaway Postgres container instead.",
		[]string{"mock", "database", "postgres"}, []string{"exec"}},
	{"m-refactor", "methodology", "Refactoring a large function safely",
		"Before splitting a long function, pin its behaviour with characterization tests, then extract one helper at a time and run the tests after each extraction.",
		[]string{"refactor", "extract function", "characterization tests"}, []string{"edit", "exec"}},
	{"j-error-wrap", "judgment", "Wrapping errors with context",
		"Chose to wrap errors with fmt.Errorf and %w at each layer instead of logging them where they happen, so the caller sees which file and field failed.",
		[]string{"errors", "wrapping", "logging"}, []string{"edit"}},
	{"m-race", "methodology", "Finding data races",
		"Run the test suite with the race detector; a race report names both goroutines' stacks, so protect the shared map with a mutex or give each goroutine its own copy.",
		[]string{"race detector", "goroutine", "mutex"}, []string{"exec"}},
	{"m-bisect", "methodology", "Locating the commit that broke the build",
		"Use git bisect with the failing test as the check script; it finds the first bad commit in log2 of the commits.",
		[]string{"git bisect", "regression"}, []string{"exec"}},
	{"d-coverage", "dead_end", "Chasing 100% line coverage",
		"Pushing line coverage to 100% produced tests that asserted nothing; coverage stopped being a signal of quality.",
		[]string{"coverage"}, []string{"exec"}},
	{"m-lint", "methodology", "Lint errors in CI",
		"Run golangci-lint locally with the same config file as the pipeline before pushing; most CI lint failures are unused variables and unchecked errors.",
		[]string{"lint", "golangci-lint", "ci"}, []string{"exec"}},
	{"m-dependency", "methodology", "Upgrading a dependency with breaking changes",
		"Read the changelog for the major version, upgrade in a branch, fix the compile errors first, then run the full test suite; pin the version in go.mod.",
		[]string{"dependency upgrade", "go.mod", "breaking changes"}, []string{"exec", "edit"}},

	// Deploys and operations.
	{"m-rollback", "methodology", "Rolling back a bad deployment",
		"When a release raises the error rate, roll back to the previous image tag first and investigate afterwards; keep the last three images in the registry.",
		[]string{"rollback", "deployment", "image tag"}, []string{"exec"}},
	{"m-canary", "methodology", "Canary releases",
		"Ship new versions to 5% of traffic, compare latency and error rate with the stable pool for 30 minutes, then promote.",
		[]string{"canary", "release", "traffic"}, []string{"exec"}},
	{"d-k8s-probe", "dead_end", "Raising liveness probe timeouts",
		"Increasing the liveness probe timeout did not stop the pods restarting; the real cause was memory limits and OOM kills.",
		[]string{"kubernetes", "liveness probe", "OOM"}, []string{"exec"}},
	{"m-migration", "methodology", "Database schema migrations during deploys",
		"Make schema changes backward compatible: add the column, deploy code that writes both, backfill, then drop the old column in a later release.",
		[]string{"schema migration", "database", "backfill"}, []string{"exec"}},
	{"m-config-secret", "methodology", "Secrets in configuration",
		"Never commit API keys to the repository; load them from the environment or the secret manager and rotate any key that reached git history.",
		[]string{"secrets", "api keys", "environment"}, []string{"edit"}},
	{"j-docker-cache", "judgment", "Docker build cache",
		"Ordered the Dockerfile to copy go.mod and go.sum and download modules before copying the source, cutting image builds from six minutes to forty seconds.",
		[]string{"docker", "build cache", "dockerfile"}, []string{"exec"}},
	{"m-incident", "methodology", "Handling a production incident",
		"Declare the incident, name one person in charge, post status updates every 30 minutes, mitigate before diagnosing, and write a blameless postmortem within a week.",
		[]string{"incident", "outage", "postmortem"}, []string{"write"}},
	{"m-logs", "methodology", "Reading logs during an outage",
		"Filter the logs by request id and time window around the first alert; sort by timestamp and look for the first error, not the loudest.",
		[]string{"logs", "request id", "outage"}, []string{"exec", "read"}},
	{"d-restart", "dead_end", "Restarting the service to clear memory growth",
		"Scheduled restarts hid a memory leak instead of fixing it; heap profiles with pprof found the unbounded cache.",
		[]string{"memory leak", "restart", "pprof"}, []string{"exec"}},
	{"m-cert", "methodology", "Expired TLS certificates",
		"When clients report certificate errors, check the expiry date with openssl s_client, renew through the ACME client, and add an alert 14 days before expiry.",
		[]string{"tls", "certificate", "expiry"}, []string{"exec"}},

	// Research.
	{"m-competitor-pricing", "methodology", "Researching competitor pricing",
		"Start from each competitor's public pricing page, record plan names, prices per seat and limits in a table, and note the date, since prices change often.",
		[]string{"competitor", "pricing", "research"}, []string{"web_fetch", "web_search"}},
	{"d-paywall", "dead_end", "Scraping paywalled market reports",
		"Fetching market research reports behind a paywall returned only the abstract; the full numbers are not reachable without a subscription.",
		[]string{"paywall", "market report", "scraping"}, []string{"web_fetch"}},
	{"d-stripe", "dead_end", "Stripe API for usage-based billing",
		"Stripe's metered billing could not express our tiered usage with monthly resets in API v1.",
		[]string{"stripe", "billing", "api"}, []string{"web_fetch"}},
	{"m-api-docs", "methodology", "Learning a third-party API",
		"Read the API reference and the changelog, then make one authenticated request with curl before writing client code; note rate limits and pagination.",
		[]string{"api", "authentication", "rate limit", "pagination"}, []string{"web_fetch", "exec"}},
	{"m-literature", "methodology", "Literature review",
		"Search Google Scholar and arXiv with two or three phrasings of the question, follow the citations of the most cited paper, and keep a list of sources with one-line summaries.",
		[]string{"literature review", "papers", "citations"}, []string{"web_search"}},
	{"m-source-check", "methodology", "Verifying a claim found online",
		"Trace a statistic back to its primary source before citing it; blogs often repeat numbers with the wrong year or unit.",
		[]string{"fact checking", "sources", "statistics"}, []string{"web_search", "web_fetch"}},

	// Pricing.
	{"j-price-increase", "judgment", "Raising the price of the basic plan",
		"Decided to raise the basic plan from 9 to 12 dollars for new customers only, grandfathering existing ones; rejected a usage fee because it confused buyers.",
		[]string{"pricing", "basic plan", "grandfathering"}, []string{"write"}},
	{"m-discount", "methodology", "Annual discount",
		"Offer about two months free on annual billing; deeper discounts attracted customers who churned at renewal.",
		[]string{"discount", "annual billing", "churn"}, []string{"write"}},

	// Data.
	{"m-csv", "methodology", "Cleaning CSV exports",
		"Check the encoding and delimiter first, strip the byte order mark, parse dates with an explicit format, and count rows before and after each cleaning step.",
		[]string{"csv", "data cleaning", "encoding"}, []string{"exec"}},
	{"m-sql-slow", "methodology", "Slow SQL queries",
		"Run EXPLAIN ANALYZE on the slow query, look for sequential scans on large tables, and add an index on the filtered columns; measure again after.",
		[]string{"sql", "query performance", "index", "explain"}, []string{"exec"}},
	{"d-pandas-memory", "dead_end", "Loading the whole event log into pandas",
		"Reading the 40 GB event log into a pandas DataFrame ran out of memory; chunked reading or DuckDB handled it.",
		[]string{"pandas", "memory", "large file"}, []string{"exec"}},
	{"m-dashboard", "methodology", "Building a metrics dashboard",
		"Agree on the definition of each metric with its owner before charting it, and show the query behind every panel.",
		[]string{"dashboard", "metrics", "charts"}, []string{"write"}},
	{"j-dedupe", "judgment", "Deduplicating customer records",
		"Matched duplicates on normalised email plus phone rather than fuzzy names; fuzzy matching merged different people with the same name.",
		[]string{"deduplication", "customer records", "matching"}, []string{"exec"}},
	{"m-etl", "methodology", "Nightly ETL job failures",
		"Make each ETL step idempotent and record a watermark, so a failed nightly run can be rerun from where it stopped.",
		[]string{"etl", "pipeline", "idempotent"}, []string{"exec"}},

	// Documentation.
	{"m-readme", "methodology", "Writing a README",
		"Lead with what the project does and a command that works, then installation, then configuration; move history and design notes to docs.",
		[]string{"readme", "documentation"}, []string{"write"}},
	{"m-changelog", "methodology", "Keeping a changelog",
		"Add an entry under Unreleased in the same pull request as the change, grouped by Added, Changed, Fixed, Removed.",
		[]string{"changelog", "release notes"}, []string{"write", "edit"}},
	{"m-api-reference", "methodology", "Documenting HTTP endpoints",
		"Describe each endpoint with its method, path, parameters, one example request and response, and the error codes it returns.",
		[]string{"api documentation", "endpoints", "openapi"}, []string{"write"}},
	{"d-doc-gen", "dead_end", "Generating docs from code comments alone",
		"Docs generated only from comments listed functions but never explained how to use them together; readers still needed a tutorial.",
		[]string{"documentation generation", "comments"}, []string{"exec"}},

	// Everyday work.
	{"m-outreach", "methodology", "Cold email outreach",
		"Keep the first email under 120 words, name one specific reason for writing to that person, and follow up once after a week.",
		[]string{"email", "outreach", "sales"}, []string{"write"}},
	{"m-translation", "methodology", "Translating the user interface",
		"Extract all strings into message catalogs before translating, leave room for text 30% longer, and have a native speaker review.",
		[]string{"translation", "i18n", "localization"}, []string{"edit"}},
	{"j-queue", "judgment", "Choosing a job queue",
		"Picked a Postgres-backed queue over Kafka because volume was a few thousand jobs a day and the team already ran Postgres.",
		[]string{"queue", "kafka", "postgres"}, []string{"write"}},
	{"m-meeting-notes", "methodology", "Summarising meeting notes",
		"Open the summary with decisions and owners with due dates, then open questions; leave out who said what.",
		[]string{"meeting notes", "summary", "action items"}, []string{"write"}},
	{"d-regex-html", "dead_end", "Parsing HTML with regular expressions",
		"Regular expressions broke on nested tags and attributes in other orders; an HTML parser such as goquery worked.",
		[]string{"html", "regex", "scraping"}, []string{"exec"}},
	{"m-timezone", "methodology", "Timezone bugs in scheduled reports",
		"Store timestamps in UTC, convert to the user's zone only for display, and test the days when daylight saving time changes.",
		[]string{"timezone", "utc", "daylight saving"}, []string{"edit", "exec"}},
}

// paraphrases are tasks as an agent would phrase them when it meets the
// task again, each with the entry written about it: other inflections,
// identifiers instead of words, another word order, now and then another
// word for the same thing.
var paraphrases = []struct{ context, want string }{
	{"fix the failing unit test in parser_test.go", "m-parser-test"},
	{"tests keep failing intermittently in CI but pass when rerun", "m-flaky-tests"},
	{"should I mock the db for the repo tests?", "d-mock-db"},
	{"split up a huge function without breaking its behavior", "m-refactor"},
	{"where should errors be logged vs returned with context", "j-error-wrap"},
	{"concurrent map writes panic in goroutines", "m-race"},
	{"find which commit introduced the regression", "m-bisect"},
	{"aim for full test coverage of the package", "d-coverage"},
	{"golangci-lint fails on the pipeline", "m-lint"},
	{"bump a library to a new major version that breaks the API", "m-dependency"},
	{"revert the deploy, error rates spiked after the release", "m-rollback"},
	{"roll out the new version gradually to a small share of users", "m-canary"},
	{"pods keep restarting, increase the liveness probe timeout?", "d-k8s-probe"},
	{"add a column to the users table without downtime", "m-migration"},
	{"an API key was committed to git by accident", "m-config-secret"},
	{"docker image builds are too slow", "j-docker-cache"},
	{"production is down, run the incident response", "m-incident"},
	{"search the logs for the first error after the alert fired", "m-logs"},
	{"the service's memory keeps growing, schedule restarts?", "d-restart"},
	{"certificate expired on the api gateway", "m-cert"},
	{"compare what competitors charge per seat", "m-competitor-pricing"},
	{"get the full numbers from the paywalled market research report", "d-paywall"},
	{"use Stripe metered billing for usage pricing", "d-stripe"},
	{"integrate with an unfamiliar REST API", "m-api-docs"},
	{"find academic papers on the topic and summarize them", "m-literature"},
	{"double-check a statistic from a blog post before quoting it", "m-source-check"},
	{"should we raise prices for existing customers", "j-price-increase"},
	{"how much discount for yearly plans", "m-discount"},
	{"clean up a messy CSV file with weird dates", "m-csv"},
	{"speed up a slow Postgres query", "m-sql-slow"},
	{"process a 40GB log file in Python without running out of RAM", "d-pandas-memory"},
	{"merge duplicate customers in the CRM", "j-dedupe"},
	{"the nightly data pipeline failed halfway, rerun it", "m-etl"},
	{"write the readme for the project", "m-readme"},
	{"update CHANGELOG.md for this PR", "m-changelog"},
	{"document the REST endpoints", "m-api-reference"},
	{"convert dates in reports to the user's timezone", "m-timezone"},
	{"pick between Kafka and a database table for background jobs", "j-queue"},
	{"extract href links from web pages with a regex", "d-regex-html"},
}

// hitAt3 searches the corpus for every paraphrase and returns the share
// whose entry is among the first three hits, with a line per miss.
func hitAt3(a *Analyzer) (float64, []string) {
	ix := NewIndex(a)
	for _, e := range corpus {
		ix.Add(e.doc())
	}
	var misses []string
	for _, p := range paraphrases {
		hits := ix.Search(Query{Text: p.context, Max: 3})
		if !slices.ContainsFunc(hits, func(h Hit) bool { return h.ID == p.want }) {
			var got []string
			for _, h := range hits {
				got = append(got, fmt.Sprintf("%s %.2f", h.ID, h.Score))
			}
			misses = append(misses, fmt.Sprintf("%q %v: want %s, got %v", p.context, a.Terms(p.context), p.want, got))
		}
	}
	return 1 - float64(len(misses))/float64(len(paraphrases)), misses
}

// The entry written about a task is found by the task's paraphrase, with
// stems and split identifiers alone (no synonym table).
func TestParaphraseHitAt3(t *testing.T) {
	assert.GreaterOrEqual(t, len(corpus), 40)
	assert.GreaterOrEqual(t, len(paraphrases), 30)
	score, misses := hitAt3(NewAnalyzer(Synonyms{}))
	t.Logf("hit@3 without synonyms: %.3f (%d of %d paraphrases)", score, len(paraphrases)-len(misses), len(paraphrases))
	for _, m := range misses {
		t.Logf("miss: %s", m)
	}
	assert.GreaterOrEqual(t, score, 0.9)
}

// A context that shares no stemmed content word with an entry never
// returns it, whatever else it finds.
func TestNoSharedTermNoHit(t *testing.T) {
	ix := NewIndex(nil)
	for _, e := range corpus {
		ix.Add(e.doc())
	}
	contexts := []string{
		"research the PayPal API", "book a flight to Lisbon", "water the office plants",
		"the of and to", "",
	}
	for _, p := range paraphrases {
		contexts = append(contexts, p.context)
	}
	for _, c := range contexts {
		terms := ix.Analyzer().Terms(c)
		found := map[string]bool{}
		for _, h := range ix.Search(Query{Text: c}) {
			found[h.ID] = true
		}
		for _, e := range corpus {
			docTerms, _ := ix.Terms(e.id)
			shares := slices.ContainsFunc(terms, func(t string) bool { _, ok := slices.BinarySearch(docTerms, t); return ok })
			assert.Equal(t, shares, found[e.id], "%q and %s", c, e.id)
		}
	}
}

// genericSynonyms is the kind of table a workspace's manifest would hold:
// everyday vocabulary of software and business work, words for the same
// thing and forms the light stemmer does not join, written without
// looking at the paraphrases above (they were measured without it first).
var genericSynonyms = map[string][]string{
	"fix":      {"repair", "patch", "resolve"},
	"fail":     {"failure", "error", "crash"},
	"break":    {"broke", "broken"},
	"deploy":   {"deployment", "release", "ship", "rollout"},
	"revert":   {"rollback", "undo"},
	"document": {"documentation", "docs"},
	"repo":     {"repository"},
	"config":   {"configuration", "configure", "settings"},
	"remove":   {"delete", "drop"},
	"find":     {"locate", "discover"},
	"price":    {"cost", "charge", "fee"},
	"annual":   {"yearly"},
	"memory":   {"ram"},
	"summary":  {"summarize", "summarise"},
	"customer": {"buyer"},
}

// The same measure with the generic synonym table: it must not cost what
// stems alone find.
func TestParaphraseHitAt3Synonyms(t *testing.T) {
	plain, syn := NewAnalyzer(Synonyms{}), NewAnalyzer(mustSynonyms(t, genericSynonyms))
	before, _ := hitAt3(plain)
	score, misses := hitAt3(syn)
	t.Logf("hit@3 without synonyms: %.3f; with %d generic synonym groups: %.3f (%d of %d paraphrases)",
		before, len(genericSynonyms), score, len(paraphrases)-len(misses), len(paraphrases))
	t.Logf("hit@1 without synonyms: %.3f; with: %.3f", hitAt1(plain), hitAt1(syn))
	for _, m := range misses {
		t.Logf("miss: %s", m)
	}
	assert.GreaterOrEqual(t, score, 0.9)
}

// hitAt1 returns the share of paraphrases whose entry is the first hit.
func hitAt1(a *Analyzer) float64 {
	ix := NewIndex(a)
	for _, e := range corpus {
		ix.Add(e.doc())
	}
	n := 0
	for _, p := range paraphrases {
		if hits := ix.Search(Query{Text: p.context, Max: 1}); len(hits) == 1 && hits[0].ID == p.want {
			n++
		}
	}
	return float64(n) / float64(len(paraphrases))
}

var updateCorpus = flag.Bool("update-corpus", false, "rewrite testdata/paraphrases.json from the corpus above")

// The corpus and its paraphrases as JSON, for the tests that run them
// through a whole consult (package bridge): the file must say what the
// Go tables say.
func TestParaphraseCorpusFile(t *testing.T) {
	type entry struct {
		ID           string   `json:"id"`
		Kind         string   `json:"kind"`
		Title        string   `json:"title"`
		Text         string   `json:"text"`
		Keywords     []string `json:"keywords"`
		Capabilities []string `json:"capabilities"`
	}
	type pair struct {
		Context string `json:"context"`
		Want    string `json:"want"`
	}
	var file struct {
		Entries     []entry `json:"entries"`
		Paraphrases []pair  `json:"paraphrases"`
	}
	for _, e := range corpus {
		file.Entries = append(file.Entries, entry{e.id, e.kind, e.title, e.text, e.keywords, e.capabilities})
	}
	for _, p := range paraphrases {
		file.Paraphrases = append(file.Paraphrases, pair{p.context, p.want})
	}
	want, err := json.MarshalIndent(file, "", "  ")
	require.NoError(t, err)
	want = append(want, '\n')
	name := filepath.Join("testdata", "paraphrases.json")
	if *updateCorpus {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(name, want, 0o644))
	}
	got, err := os.ReadFile(name)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got), "go test ./recall -run TestParaphraseCorpusFile -update-corpus")
}
