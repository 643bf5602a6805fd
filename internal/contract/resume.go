package contract

import (
	"github.com/unified-cognitive-substrate/ucs/internal/field"
)

var Resume = Op{
	Output:  ResumeOutput,
	Name:    "resume",
	Summary: "Session-start briefing: state, health trend, open questions, recommendations",
	Long: `Where the agent is (t, cursor, PP health and trend), its top artifacts, the
open questions of its working state, its recent methodology and what to do
next.`,
	Example: "ucs resume",
}

// ResumeOutput is the answer of resume.
var ResumeOutput = []field.Output{
	{Name: "status", Type: field.String, Always: true, Doc: "\"resumed\""},
	{Name: "session_briefing", Type: field.Object, Always: true, Doc: "where the agent is, its active goals, recent outcomes, and what to do first"},
}
