package knowledge

import (
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/phrase"
)

// Record is what an index entry keeps of the reflection, dated date: its
// capabilities and keywords, and its text only when keepText (a model
// that governs knowledge reads it back).
func (in ReflectionInput) Record(date string, keepText bool) Reflection {
	return Reflection{Date: date, Capabilities: in.Capabilities, Words: in.Keywords, Text: in.Text, KeepText: keepText}
}

// Summary is a methodology entry's summary of the reflection: its text's
// first 200 characters, on one line.
func (in ReflectionInput) Summary() string {
	return strings.ReplaceAll(phrase.RunePrefix(in.Text, 200), "\n", " ")
}

// HasText reports whether the reflection carries text of its own (a dead
// end may come without, its Markdown composed by DeadEndText).
func (in ReflectionInput) HasText() bool { return strings.TrimSpace(in.Text) != "" }

// DeadEndText is the Markdown a dead end appends, dated date: its text,
// or without one, what DeadEndMarkdown composes from its fields.
func (in ReflectionInput) DeadEndText(date string) string {
	if in.HasText() {
		return in.Text
	}
	return DeadEndMarkdown(date, in.Topic, in.WhyClosed, in.ReopenConditions)
}
