package knowledge

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestMarkdownBlock(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"plain", "Fetch whole pages.", "Fetch whole pages."},
		{"markdown and unicode kept", "### Pricing ✓\n- a\n- b — c", "### Pricing ✓\n- a\n- b — c"},
		{"crlf", "a\r\nb\rc", "a\nb\nc"},
		{"control characters dropped", "a\x00b\x1bc\td", "abc\td"},
		{"line separators dropped", "a\u2028b", "ab"},
		{"closed fence untouched", "```go\nx := 1\n```\nafter", "```go\nx := 1\n```\nafter"},
		{"open fence closed", "```go\nx := 1", "```go\nx := 1\n```"},
		{"open tilde fence closed", "~~~~\ncode\n", "~~~~\ncode\n~~~~"},
		{"shorter fence does not close", "````\n```\n", "````\n```\n````"},
		{"indented four spaces is code, not a fence", "    ```\ntext", "    ```\ntext"},
		{"info string on closing line does not close", "```\na\n``` x", "```\na\n``` x\n```"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, MarkdownBlock(c.in))
		})
	}
}

func TestWords(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"Research competitor PRICING on the web", []string{"research", "competitor", "pricing", "the", "web"}},
		{"a an of to", nil},
		{"web_fetch web_fetch read", []string{"web_fetch", "read"}},
		{"go2market ab-cd x__y", []string{"market", "x__y"}},
		{"naïve café", []string{"caf"}},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, Words(c.in), c.in)
	}
}

func TestDeadEndMarkdown(t *testing.T) {
	assert.Equal(t, "### [DEAD END] API scraping\n\n**Date:** 2026-11-21\n\n**Why closed:** rate limited after 3 requests\n\n**Reopen conditions:** a public API",
		DeadEndMarkdown("2026-11-21", "API scraping", "rate limited after 3 requests", "a public API"))
	// A topic spanning lines stays one heading; fields left out are left out.
	assert.Equal(t, "### [DEAD END] API scraping, again\n\n**Date:** 2026-11-21",
		DeadEndMarkdown("2026-11-21", "API scraping,\nagain", "", " "))
}
