package knowledge

import (
	"strings"
	"unicode"
)

// MarkdownBlock prepares an agent's text for a Markdown knowledge file
// without changing what it says: line endings become \n, control
// characters other than tab and newline (which would make the file
// unreadable or binary) are dropped, and a code fence the text leaves open
// is closed, so that it cannot swallow the entries appended after it. The
// JSON index keeps the text exactly as written.
func MarkdownBlock(text string) string {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	text = strings.Map(func(r rune) rune {
		if r != '\n' && r != '\t' && (unicode.IsControl(r) || r == '\u2028' || r == '\u2029') {
			return -1
		}
		return r
	}, text)
	if fence := openFence(text); fence != "" {
		if !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		text += fence
	}
	return text
}

// openFence returns the fence that closes a code block text leaves open,
// or "". A fence is a line of three or more backticks or tildes, indented
// by at most three spaces; a block closes with a fence of the same
// character at least as long.
func openFence(text string) string {
	open := ""
	for _, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimLeft(line, " ")
		if len(line)-len(trimmed) > 3 || len(trimmed) < 3 {
			continue
		}
		c := trimmed[0]
		if c != '`' && c != '~' {
			continue
		}
		n := len(trimmed) - len(strings.TrimLeft(trimmed, string(c)))
		if n < 3 {
			continue
		}
		switch {
		case open == "":
			open = trimmed[:n]
		case c == open[0] && n >= len(open) && strings.TrimSpace(trimmed[n:]) == "":
			open = ""
		}
	}
	return open
}

// DeadEndMarkdown composes the Markdown of a dead end reflected without
// text from its fields, in the shape the reference's SKILL.md shows for a
// dead end's text: a "### [DEAD END] topic" heading, then the date and
// each field given, one labelled paragraph each.
func DeadEndMarkdown(date, topic, whyClosed, reopenConditions string) string {
	var b strings.Builder
	b.WriteString("### [DEAD END] " + strings.Join(strings.Fields(topic), " ") + "\n\n**Date:** " + date)
	for _, f := range []struct{ label, text string }{{"Why closed", whyClosed}, {"Reopen conditions", reopenConditions}} {
		if strings.TrimSpace(f.text) != "" {
			b.WriteString("\n\n**" + f.label + ":** " + strings.TrimSpace(f.text))
		}
	}
	return b.String()
}
