package recall

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestConditionHolds(t *testing.T) {
	a := NewAnalyzer(Synonyms{})
	for _, tc := range []struct {
		cond, context string
		want          bool
	}{
		// The failure that made reopen conditions conditions: a shared "api" reopened a Stripe dead end.
		{"Stripe API v2 released with webhooks", "research the PayPal API", false},
		{"Stripe API v2 released with webhooks", "Stripe released webhooks for its v2 API", true},
		{"Stripe API v2 released with webhooks", "stripe api webhook release", true},
		{"Stripe API v2 released with webhooks", "Stripe API webhooks", false},
		{"a subscription to the report provider", "we bought a subscription from the report provider", true},
		{"a subscription to the report provider", "write the quarterly report", false},
		{"the parser_test.go suite is rewritten", "rewrite the suite in parser_test.go", false}, // rewritten is not a form of rewrite to the stemmer
		{"once parser_test.go is split", "split parser_test.go in two", true},

		// Expressions.
		{"stripe AND (refund OR chargeback) AND NOT test", "handle Stripe refunds", true},
		{"stripe AND (refund OR chargeback) AND NOT test", "Stripe chargebacks in production", true},
		{"stripe AND (refund OR chargeback) AND NOT test", "Stripe refund tests", false},
		{"stripe AND (refund OR chargeback) AND NOT test", "Stripe invoices", false},
		{"stripe AND (refund OR chargeback) AND NOT test", "refund a PayPal chargeback", false},
		{"paypal OR stripe", "PayPal payouts", true},
		{"stripe webhooks OR paypal", "stripe only", false},
		{"stripe webhooks OR paypal", "stripe webhooks", true},
		{`"stripe api" AND NOT paypal`, "the Stripe API", true},
		{`"stripe api" AND NOT paypal`, "Stripe and PayPal API", false},
		{"NOT NOT stripe", "stripe", true},

		// Nothing asked for: never holds.
		{"", "anything at all", false},
		{"the and of it", "the and of it", false},
		{"NOT test", "deploy the service", false},
		{"NOT test", "", false},
		{"stripe OR NOT test", "deploy the service", false},
		{"(the) AND stripe", "stripe", true},
	} {
		c, err := ParseCondition(tc.cond, a)
		require.NoError(t, err, tc.cond)
		assert.Equal(t, tc.want, c.Holds(a.Terms(tc.context)), "%q on %q (%s)", tc.cond, tc.context, c)
	}
	assert.False(t, Condition{}.Holds([]string{"x"}))
}

// Terms need not be sorted; they are analysed terms, not words.
func TestConditionHoldsUnsorted(t *testing.T) {
	c, err := ParseCondition("stripe webhooks", nil)
	require.NoError(t, err)
	assert.True(t, c.Holds([]string{"webhook", "api", "strip"}))
	assert.False(t, c.Holds([]string{"webhooks", "stripe"}), "words, not terms")
}

// Synonyms apply to conditions as to contexts.
func TestConditionSynonyms(t *testing.T) {
	a := NewAnalyzer(mustSynonyms(t, map[string][]string{"release": {"ship"}}))
	c, err := ParseCondition("webhooks shipped", a)
	require.NoError(t, err)
	assert.True(t, c.Holds(a.Terms("once webhooks are released")))
}

func TestConditionString(t *testing.T) {
	for _, tc := range []struct{ cond, want string }{
		{"Stripe API v2 released with webhooks", "api AND releas AND strip AND webhook"},
		{"stripe AND (refund OR chargeback) AND NOT test", "strip AND (refund OR chargeback) AND NOT test"},
		{"ab OR abc abd OR (abe abf) OR NOT (abg OR abh)", "(abc AND abd) OR (abe AND abf) OR NOT (abg OR abh)"},
		{"paypal OR stripe webhooks", "paypal OR (strip AND webhook)"},
		{"NOT (stripe webhooks)", "NOT (strip AND webhook)"},
		{"NOT the", ""},
		{"", ""},
	} {
		c, err := ParseCondition(tc.cond, nil)
		require.NoError(t, err, tc.cond)
		assert.Equal(t, tc.want, c.String(), tc.cond)
	}
	c, _ := ParseCondition("stripe AND NOT test AND (refund OR chargeback)", nil)
	assert.Equal(t, []string{"chargeback", "refund", "strip"}, c.Terms())
}

func TestParseConditionErrors(t *testing.T) {
	for _, tc := range []struct{ cond, want string }{
		{"stripe AND", "condition: at byte 10: the condition ends where a word, a phrase or ( was expected"},
		{"AND stripe", `condition: at byte 0: "AND" where a word, a phrase or ( was expected`},
		{"stripe OR OR paypal", `condition: at byte 10: "OR" where a word, a phrase or ( was expected`},
		{"(stripe OR paypal", "condition: at byte 0: a parenthesis that is not closed"},
		{"stripe OR paypal)", `condition: at byte 16: unexpected ")"`},
		{`stripe AND "api`, "condition: at byte 11: a quote that is not closed"},
		{"NOT", "condition: at byte 3: the condition ends where a word, a phrase or ( was expected"},
		{"stripe AND ()", `condition: at byte 12: ")" where a word, a phrase or ( was expected`},
		{strings.Repeat("NOT ", 100) + "x", "condition: at byte 256: nested deeper than 64"},
	} {
		_, err := ParseCondition(tc.cond, nil)
		assert.EqualError(t, err, tc.want, tc.cond)
	}
	// A plain sentence is never an error, whatever its punctuation.
	for _, s := range []string{`when "v2 ships`, "if (Stripe adds webhooks", "Stripe ) API"} {
		c, err := ParseCondition(s, nil)
		assert.NoError(t, err, s)
		assert.NotEmpty(t, c.String(), s)
	}
}

// FuzzParseCondition: ParseCondition never panics; a condition it accepts
// can be written and evaluated, and the terms it asks for make it hold
// when they are all the context has and nothing is negated.
func FuzzParseCondition(f *testing.F) {
	for _, s := range []string{
		"Stripe API v2 released with webhooks", "stripe AND (refund OR chargeback) AND NOT test",
		`"stripe api" OR paypal`, "NOT NOT x", "((a", ")", `"`, "AND OR NOT", "parser_test.go AND naïve",
	} {
		f.Add(s, "stripe refund api")
	}
	a := NewAnalyzer(Synonyms{})
	f.Fuzz(func(t *testing.T, cond, context string) {
		c, err := ParseCondition(cond, a)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "condition: at byte ") {
				t.Fatalf("error without an offset: %v", err)
			}
			return
		}
		s := c.String()
		if !utf8.ValidString(cond) {
			return
		}
		if !utf8.ValidString(s) {
			t.Fatalf("String %q of a valid condition", s)
		}
		holds := c.Holds(a.Terms(context))
		if holds && len(c.Terms()) == 0 {
			t.Fatalf("%q holds on %q without a term", cond, context)
		}
		if !strings.Contains(cond, "NOT") && !strings.Contains(cond, "OR") && len(c.Terms()) > 0 && !c.Holds(c.Terms()) {
			t.Fatalf("%q (%s) does not hold on its own terms %v", cond, s, c.Terms())
		}
	})
}

// reopenConditions are reopen conditions for the corpus's dead ends, as an
// agent writes them when it closes one.
var reopenConditions = map[string]string{
	"d-mock-db":       "the driver ships a fake that checks queries against the schema",
	"d-coverage":      "coverage tooling that measures assertions, such as mutation testing",
	"d-k8s-probe":     "pods restart with memory well under their limits",
	"d-restart":       "memory growth comes back after the cache is bounded",
	"d-paywall":       "a subscription to the report provider",
	"d-stripe":        "Stripe API v2 released with webhooks",
	"d-pandas-memory": "pandas adds out-of-core processing",
	"d-doc-gen":       `"generated tutorials" OR (generated AND examples AND NOT comments)`,
	"d-regex-html":    "the pages are plain text without nested tags",
}

// A context sharing no stemmed content word with a reopen condition never
// reopens its dead end; one that meets the condition does.
func TestNoSharedTermNoReopen(t *testing.T) {
	a := NewAnalyzer(Synonyms{})
	contexts := []string{"research the PayPal API", "deploy the web app", "write the quarterly report", ""}
	for _, p := range paraphrases {
		contexts = append(contexts, p.context)
	}
	for id, text := range reopenConditions {
		c, err := ParseCondition(text, a)
		require.NoError(t, err, id)
		for _, ctx := range contexts {
			terms := a.Terms(ctx)
			if !Matches(terms, a.Terms(text), 1) {
				assert.False(t, c.Holds(terms), "%s reopened by %q", id, ctx)
			}
		}
	}
	for ctx, id := range map[string]string{
		"Stripe released API v2 with webhooks":                    "d-stripe",
		"we now have a subscription with that report provider":    "d-paywall",
		"pods restart while memory stays well under their limits": "d-k8s-probe", // "well" is a key term too
		"examples generated from the test suite":                  "d-doc-gen",
	} {
		c, err := ParseCondition(reopenConditions[id], a)
		require.NoError(t, err)
		assert.True(t, c.Holds(a.Terms(ctx)), "%s by %q (%s)", id, ctx, c)
	}
}
