package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/belief"
	"github.com/unified-cognitive-substrate/ucs/internal/contract"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/relevance"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
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
			s.warn(s.manifest.Unknown(name, "stored but matches no capability"))
		}
	}
	switch in.Type {
	case "post_task":
		s.appendText(workspace.RelMethodologyMD, in.Text)
		anns, err := s.annotations()
		if err != nil {
			return pyjson.Value{}, err
		}
		entry := knowledge.MethodologyEntry(in.Record(today, s.model.GovernsKnowledge()), in.Summary(), s.meta.AgentID,
			relevance.RoutingAt(s.engine, anns, s.engine.Cursor.Node, 3))
		id, err := s.addEntry(workspace.RelMethodology, entry)
		if err != nil {
			return pyjson.Value{}, err
		}
		out = append(out, pyjson.KV("entry_id", id), pyjson.KV("file", s.ws.Path(workspace.RelMethodologyMD)))
	case "annotation":
		if _, ok := s.engine.Artifacts.Get(in.ArtifactID); !ok {
			s.warn("artifact " + pyjson.Quote(in.ArtifactID) + " is not among the current artifacts; the annotation is stored for it anyway")
		}
		if err := s.add(workspace.RelAnnotations, knowledge.Annotation(in.ArtifactID, in.Text, in.FailureCondition, in.GeneralizedPattern, pyjson.ISOTime(s.now))); err != nil {
			return pyjson.Value{}, err
		}
		out = append(out, pyjson.KV("artifact_id", in.ArtifactID))
	case "experiment":
		s.appendText(workspace.RelExperimentsMD, in.Text)
		out = append(out, pyjson.KV("file", s.ws.Path(workspace.RelExperimentsMD)))
	case "dead_end":
		s.appendText(workspace.RelDeadEndsMD, in.DeadEndText(today))
		entry := knowledge.DeadEndEntry(in.Record(today, s.model.GovernsKnowledge() && in.HasText()), in.Topic, in.WhyClosed, in.ReopenConditions)
		id, err := s.addEntry(workspace.RelDeadEnds, entry)
		if err != nil {
			return pyjson.Value{}, err
		}
		out = append(out, pyjson.KV("entry_id", id), pyjson.KV("file", s.ws.Path(workspace.RelDeadEndsMD)))
	case "synthesis":
		rel := workspace.RelSynthesisDir + "/" + today + ".md"
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
	Op:  contract.Reflect,
	run: opReflect,
}
