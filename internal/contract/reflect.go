package contract

import (
	"github.com/unified-cognitive-substrate/ucs/belief"
	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
)

var Reflect = Op{
	Output:  ReflectOutput,
	Name:    "reflect",
	Summary: "Store a reflection: methodology, annotation, experiment, dead end or synthesis",
	Long: `What you learned, in your words: post_task (methodology, found again by
consult), annotation (why an artifact works), experiment, dead_end (an avenue
closed, with what would reopen it) or synthesis.`,
	Example: `echo '{"type": "post_task", "text": "Always fetch full pages", "capabilities": ["web_fetch"], "keywords": ["pricing"]}' | ucs reflect
echo '{"type": "annotation", "artifact_id": "c6b826111c1d656d", "text": "why this shortcut works"}' | ucs reflect`,
	Mutating: true,
	Retries:  true,
	Fields: []field.Field{
		{Name: "type", Type: field.String, Enum: reflectTypes, Default: "post_task", Doc: "what kind of reflection"},
		{Name: "text", Type: field.String, Text: true, Max: field.TextCap, Doc: "the reflection, in your words (Markdown); required but for a dead_end with a topic"},
		{Name: "capabilities", Type: field.Strings, Doc: "post_task, dead_end: the capabilities it is about"},
		{Name: "keywords", Type: field.Strings, Text: true, Max: field.PhraseCap, Doc: "post_task, dead_end: words that should find it"},
		{Name: "artifact_id", Type: field.String, Doc: "annotation (required): the artifact explained, from a report's or resume's artifacts"},
		{Name: "generalized_pattern", Type: field.String, Text: true, Max: field.ContextCap, Doc: "annotation: the reusable heuristic (When you see X, do Y because Z)"},
		{Name: "failure_condition", Type: field.String, Text: true, Max: field.ContextCap, Doc: "annotation: when the pattern does not hold"},
		{Name: "topic", Type: field.String, Text: true, Max: field.PhraseCap, Doc: "dead_end: the avenue closed"},
		{Name: "why_closed", Type: field.String, Text: true, Max: field.ContextCap, Doc: "dead_end: why it is closed"},
		{Name: "reopen_conditions", Type: field.String, Text: true, Max: field.ContextCap, Doc: "dead_end: what would reopen it"},
		{Name: "kind", Type: field.String, Enum: belief.KindNames(), Doc: "v4 and later: the observation's kind (default: derived; see ucs observations)"},
		{Name: "subject", Type: field.String, Doc: "v4 and later: what it is about: capability:NAME, project:NAME, agent, global (default: derived)"},
		{Name: "slot", Type: field.String, Text: true, Max: field.PhraseCap, Doc: "v4 and later: the aspect it speaks to, in words (default: from the topic or keywords)"},
		{Name: "contradicts", Type: field.String, Doc: "v4 and later: the id of an observation this reflection contradicts: its text supersedes that claim"},
	},
	Across: checkReflect,
}

// ReflectOutput is the answer of reflect.
var ReflectOutput = []field.Output{
	{Name: "type", Type: field.String, Always: true, Doc: "the reflection's type, as given"},
	{Name: "stored", Type: field.Bool, Always: true, Doc: "the reflection was stored"},
	{Name: "entry_id", Type: field.String, Doc: "the id of the methodology or dead-end entry stored"},
	{Name: "file", Type: field.String, Doc: "the Markdown file the entry was written to"},
	{Name: "artifact_id", Type: field.String, Doc: "the artifact annotated"},
	{Name: "observation", Type: field.Object, Doc: "the observation the reflection recorded (models v4 and later)"},
}

// checkReflect checks a reflection's input before the workspace is opened.
func checkReflect(_, input pyjson.Value) error {
	_, err := knowledge.DecodeReflection(input)
	return err
}
