package relevance

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
)

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
			out = append(out, pyjson.Prefix(text, max))
			break
		}
		if newestOnly {
			break
		}
	}
	return out, nil
}
