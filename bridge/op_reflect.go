package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/belief"
	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/relevance"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// opReflect stores a reflection (stdin: type, text, and the type's fields):
//
//	post_task   methodology: appended to methodology.md and indexed with a routing snapshot
//	annotation  explains an artifact (artifact_id, failure_condition, generalized_pattern)
//	experiment  appended to experiments.md
//	dead_end    appended to dead-ends.md and indexed (topic, why_closed, reopen_conditions);
//	            without text, its Markdown is composed from those fields
//	synthesis   appended to synthesis/DATE.md; marks the date of the last synthesis
func opReflect(s *session, c Call) (pyjson.Value, error) {
	in, err := knowledge.DecodeReflection(c.Input)
	if err != nil {
		return pyjson.Value{}, err
	}
	today := isoDate(s.now)
	out := []pyjson.Member{pyjson.KV("type", in.Type), pyjson.KV("stored", true)}
	for _, name := range in.Capabilities {
		if !s.manifest.Has(name) {
			s.warn(unknownCapability(s, name, "stored but matches no capability"))
		}
	}
	switch in.Type {
	case "post_task":
		s.appendText(relMethodologyMD, in.Text)
		e := s.engine
		paths, err := s.scorePaths(e.Cursor.Node, nil, nil)
		if err != nil {
			return pyjson.Value{}, err
		}
		wormholes, err := s.enrich(torusfield.KindWormhole, 3)
		if err != nil {
			return pyjson.Value{}, err
		}
		attractors, err := s.enrich(torusfield.KindAttractor, 3)
		if err != nil {
			return pyjson.Value{}, err
		}
		entry := knowledge.MethodologyEntry(in.Record(today, s.model.GovernsKnowledge()), in.Summary(), s.meta.AgentID,
			relevance.RoutingSnapshot(s.engine, e.Cursor.Node, paths[:min(5, len(paths))], nil, wormholes, attractors))
		id, err := s.addEntry(relMethodology, entry)
		if err != nil {
			return pyjson.Value{}, err
		}
		out = append(out, pyjson.KV("entry_id", id), pyjson.KV("file", s.ws.Path(relMethodologyMD)))
	case "annotation":
		if _, ok := s.engine.Artifacts.Get(in.ArtifactID); !ok {
			s.warn("artifact " + pyjson.Quote(in.ArtifactID) + " is not among the current artifacts; the annotation is stored for it anyway")
		}
		if err := s.add(relAnnotations, knowledge.Annotation(in.ArtifactID, in.Text, in.FailureCondition, in.GeneralizedPattern, pyjson.ISOTime(s.now))); err != nil {
			return pyjson.Value{}, err
		}
		out = append(out, pyjson.KV("artifact_id", in.ArtifactID))
	case "experiment":
		s.appendText(relExperimentsMD, in.Text)
		out = append(out, pyjson.KV("file", s.ws.Path(relExperimentsMD)))
	case "dead_end":
		s.appendText(relDeadEndsMD, in.DeadEndText(today))
		entry := knowledge.DeadEndEntry(in.Record(today, s.model.GovernsKnowledge() && in.HasText()), in.Topic, in.WhyClosed, in.ReopenConditions)
		id, err := s.addEntry(relDeadEnds, entry)
		if err != nil {
			return pyjson.Value{}, err
		}
		out = append(out, pyjson.KV("entry_id", id), pyjson.KV("file", s.ws.Path(relDeadEndsMD)))
	case "synthesis":
		rel := relSynthesisDir + "/" + today + ".md"
		s.appendText(rel, in.Text)
		s.meta.LastSynthesisDate = today
		out = append(out, pyjson.KV("file", s.ws.Path(rel)))
	}
	if s.model.GovernsKnowledge() && in.Type != "synthesis" {
		obs, err := s.believe(belief.ReflectionOf(in, c.Input), c.Input, s.now)
		if err != nil {
			return pyjson.Value{}, err
		}
		out = append(out, pyjson.KV("observation", obs))
	}
	return pyjson.ObjectValue(out), nil
}

// addEntry adds an index entry under its content id, and returns the id.
func (s *session) addEntry(rel string, entry pyjson.Value) (string, error) {
	id := knowledge.EntryID(entry)
	return id, s.add(rel, entry.With("id", id))
}

var reflectSpec = Spec{
	Output:  reflectOutput,
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
	check: checkReflect,
	run:   opReflect,
}

// reflectOutput is the answer of reflect.
var reflectOutput = []field.Output{
	{Name: "type", Type: field.String, Always: true, Doc: "the reflection's type, as given"},
	{Name: "stored", Type: field.Bool, Always: true, Doc: "the reflection was stored"},
	{Name: "entry_id", Type: field.String, Doc: "the id of the methodology or dead-end entry stored"},
	{Name: "file", Type: field.String, Doc: "the Markdown file the entry was written to"},
	{Name: "artifact_id", Type: field.String, Doc: "the artifact annotated"},
	{Name: "observation", Type: field.Object, Doc: "the observation the reflection recorded (models v4 and later)"},
}

// checkReflect checks a reflection's input before the workspace is opened.
func checkReflect(c Call) error {
	_, err := knowledge.DecodeReflection(c.Input)
	return err
}
