package relevance

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/phrase"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
)

// The working state is what an agent writes down before its context is
// compacted (flush asks for it, Externalization) and what the next resume
// and consult read back (OpenQuestions): one file per prompt, named by
// the day and the prompt's suffix.

// externalization are the files flush asks the agent to write, each with
// its prompt.
var externalization = []struct{ key, suffix, prompt string }{
	{"hypotheses", "hypotheses", "What are you currently thinking about? What's unresolved? What mental models are you holding that haven't been tested?"},
	{"reasoning", "reasoning", "What chains of logic are active? Not conclusions — the chains. What inferences are you making and what are they based on?"},
	{"open_questions", "open-questions", "What would you investigate next if the session continued? What information are you missing?"},
	{"confidence", "confidence", "What are you certain about vs. uncertain about? Where would you bet and where would you hedge?"},
	{"dependencies", "dependencies", "What context are you relying on that wouldn't survive a summary? What nuances would compaction flatten?"},
}

// Externalization is flush's "externalization_prompts": the instructions
// to write each file into dir, and each file's name (of the day date,
// YYYY-MM-DD) and prompt.
func Externalization(dir, date string) pyjson.Value {
	prompts := []pyjson.Member{pyjson.KV("instructions", "Write each of the following to a separate file in: "+dir+"/")}
	for _, x := range externalization {
		prompts = append(prompts, pyjson.KV(x.key, pyjson.Obj(
			pyjson.KV("file", date+"-"+x.suffix+".md"),
			pyjson.KV("prompt", x.prompt),
		)))
	}
	return pyjson.ObjectValue(prompts)
}

// OpenQuestions returns the text of the newest open-questions file of the
// working state (by name, descending), trimmed and cut to max characters,
// in a list of one. When newestOnly, an empty newest
// file gives nothing (consult); otherwise the newest non-empty file counts
// (resume). The error is the listing's.
func OpenQuestions(ws *workspace.Workspace, max int, newestOnly bool) ([]string, error) {
	matches, err := filepath.Glob(filepath.Join(ws.Path(workspace.RelWorkingState), "*open-questions*"))
	if err != nil {
		return nil, err
	}
	slices.Sort(matches)
	slices.Reverse(matches)
	out := []string{}
	for _, p := range matches {
		data, err := workspace.ReadFile(p)
		if err != nil {
			continue // a directory or unreadable file: the reference would fail; skip it
		}
		if text := strings.TrimSpace(string(data)); text != "" {
			out = append(out, phrase.RunePrefix(text, max))
			break
		}
		if newestOnly {
			break
		}
	}
	return out, nil
}
