package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// externalization are the files flush asks the agent to write before its
// context is compacted, each with its prompt.
var externalization = []struct{ key, suffix, prompt string }{
	{"hypotheses", "hypotheses", "What are you currently thinking about? What's unresolved? What mental models are you holding that haven't been tested?"},
	{"reasoning", "reasoning", "What chains of logic are active? Not conclusions — the chains. What inferences are you making and what are they based on?"},
	{"open_questions", "open-questions", "What would you investigate next if the session continued? What information are you missing?"},
	{"confidence", "confidence", "What are you certain about vs. uncertain about? Where would you bet and where would you hedge?"},
	{"dependencies", "dependencies", "What context are you relying on that wouldn't survive a summary? What nuances would compaction flatten?"},
}

var flushSpec = Spec{
	Output:  flushOutput,
	Name:    "flush",
	Summary: "Save before context compaction and get the prompts of what to externalize",
	Long: `Snapshots the PP vector and names the files the agent should write into
ucs/working-state/ before its context is compacted: hypotheses, reasoning,
open questions, confidence, dependencies. The next resume and consult show
its open questions. The directory is private (0700, made by init), so the
files may have any mode (0644 as usual): check judges the directory's mode,
not theirs.`,
	Example:  "ucs flush",
	Mutating: true,
	run:      opFlush,
}

// opFlush prepares for compaction: the state is saved, the PP vector
// snapshotted, and the agent is told what to externalize, and where.
func opFlush(s *session, _ Call) (pyjson.Value, error) {
	e := s.engine
	if err := s.snapshotPP(); err != nil {
		return pyjson.Value{}, err
	}
	dir := s.ws.Path(relWorkingState)
	prompts := []pyjson.Member{pyjson.KV("instructions", "Write each of the following to a separate file in: "+dir+"/")}
	for _, x := range externalization {
		prompts = append(prompts, pyjson.KV(x.key, pyjson.Obj(
			pyjson.KV("file", isoDate(s.now)+"-"+x.suffix+".md"),
			pyjson.KV("prompt", x.prompt),
		)))
	}
	return pyjson.Obj(
		pyjson.KV("torusfield_saved", true),
		pyjson.KV("state_digest", e.Digest()[:16]),
		pyjson.KV("pp_health", round(e.PP.Health(), 4)),
		pyjson.KV("pp_snapshot_saved", true),
		pyjson.KV("artifact_count", e.Artifacts.Len()),
		pyjson.KV("externalization_prompts", pyjson.ObjectValue(prompts)),
		pyjson.KV("write_to", dir),
	), nil
}

// flushOutput is the answer of flush.
var flushOutput = []field.Output{
	{Name: "torusfield_saved", Type: field.Bool, Always: true, Doc: "the engine's state was saved"},
	{Name: "state_digest", Type: field.String, Always: true, Doc: "the first 16 hex digits of the engine state's digest"},
	{Name: "pp_health", Type: field.Number, Always: true, Doc: "the health of the engine's PP vector, 0 to 1"},
	{Name: "pp_snapshot_saved", Type: field.Bool, Always: true, Doc: "a PP snapshot was added to the history"},
	{Name: "artifact_count", Type: field.Int, Always: true, Doc: "the artifacts the engine holds"},
	{Name: "externalization_prompts", Type: field.Object, Always: true, Doc: "what to write down before the context is compacted, file by file"},
	{Name: "write_to", Type: field.String, Always: true, Doc: "the directory to write those files in"},
}
