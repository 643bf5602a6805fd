package knowledge

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestReflectionRecord(t *testing.T) {
	in := ReflectionInput{Type: "post_task", Text: "line one\nline two", Capabilities: []string{"web_fetch"}, Keywords: []string{"pricing"}}
	assert.Equal(t, Reflection{Date: "2026-01-02", Capabilities: []string{"web_fetch"}, Words: []string{"pricing"}, Text: in.Text},
		in.Record("2026-01-02", false))
	assert.True(t, in.Record("2026-01-02", true).KeepText)
	assert.Equal(t, "line one line two", in.Summary(), "one line")
	long := ReflectionInput{Text: strings.Repeat("é", 250)}
	assert.Equal(t, strings.Repeat("é", 200), long.Summary(), "200 characters, not bytes")
}

func TestDeadEndText(t *testing.T) {
	for _, c := range []struct {
		name string
		in   ReflectionInput
		has  bool
		want string
	}{
		{"its own text", ReflectionInput{Text: "## closed", Topic: "t"}, true, "## closed"},
		{"composed", ReflectionInput{Topic: "large  pages", WhyClosed: "truncated"}, false,
			"### [DEAD END] large pages\n\n**Date:** 2026-01-02\n\n**Why closed:** truncated"},
		{"blank text is none", ReflectionInput{Text: " \n", Topic: "x"}, false, "### [DEAD END] x\n\n**Date:** 2026-01-02"},
	} {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.has, c.in.HasText())
			assert.Equal(t, c.want, c.in.DeadEndText("2026-01-02"))
		})
	}
}
