package relevance

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/search"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/recall"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// termRuleVersion names what termFields indexes: a change to it is a new
// version, and the term index is rebuilt.
const termRuleVersion = "fields-1"

// termFields are the weighted fields of an entry of a knowledge file, as
// the term index holds them.
var termFields = map[string][]struct {
	name   string
	weight int
}{
	workspace.RelMethodology: {{"text", recall.TextWeight}, {"generalized_pattern", recall.TextWeight},
		{"failure_condition", recall.TextWeight}, {"keywords", recall.KeywordsWeight}, {"capabilities", recall.CapabilitiesWeight}},
	workspace.RelDeadEnds: {{"topic", recall.TitleWeight}, {"why_closed", recall.TextWeight}, {"text", recall.TextWeight},
		{"reopen_conditions", recall.TextWeight}, {"keywords", recall.KeywordsWeight}, {"capabilities", recall.CapabilitiesWeight}},
	// A judgment node's keywords are words of its own text: not counted twice.
	workspace.RelJudgment: {{"context.task_description", recall.TitleWeight}, {"outcome", recall.TextWeight},
		{"methodology_summary", recall.TextWeight}, {"negative_knowledge", recall.TextWeight},
		{"action", recall.CapabilitiesWeight}},
}

// A Source is what a call reads of a workspace's knowledge: its
// transaction, its clock, its term analyzer and the fleet's other
// workspaces.
type Source struct {
	Tx       *workspace.Tx
	Manifest *torusfield.Manifest
	Now      time.Time
	// Analyzer returns the workspace's term analyzer (NewAnalyzer), built
	// when first asked: a call that ranks nothing by terms builds none.
	Analyzer func() *recall.Analyzer
	// Agent names this workspace's hits when Peers are searched too.
	Agent string
	Peers []Peer
	// termKey is the term index's rule key (termRule), once computed.
	termKey string
	// kw answers which capabilities a word evokes, built when first asked.
	kw *Keywords
}

// keywords returns the manifest's Keywords, one per Source: each word it
// is asked is answered once for the call.
func (s *Source) keywords() *Keywords {
	if s.kw == nil {
		s.kw = NewKeywords(s.Manifest)
	}
	return s.kw
}

// A Peer is another agent's workspace of the fleet, read-only.
type Peer struct {
	Name string
	WS   *workspace.Workspace
}

// termRule is the term index's rule for a knowledge file of this workspace.
func (s *Source) termRule(rel string) search.TermRule {
	if s.termKey == "" {
		sum := sha256.Sum256([]byte(gjson.GetBytes(s.Manifest.Bytes(), "synonyms").Raw))
		s.termKey = termRuleVersion + " synonyms:" + hex.EncodeToString(sum[:8])
	}
	fields := termFields[rel]
	return search.TermRule{
		Key:      s.termKey,
		Analyzer: s.Analyzer(),
		Fields: func(v pyjson.Value) []recall.Field {
			var out []recall.Field
			if rel == workspace.RelMethodology {
				// A v4 entry keeps its text whole; an older one, its summary.
				if _, ok := v.Get("text"); !ok {
					out = append(out, recall.Field{Text: v.StrOf("summary"), Weight: recall.TextWeight})
				}
			}
			for _, f := range fields {
				if t := entryText(v, f.name); t != "" {
					out = append(out, recall.Field{Text: t, Weight: f.weight})
				}
			}
			return out
		},
	}
}

// entryText is a field of an entry as text: a string, or a list's strings
// joined; "a.b" names a member of an object member.
func entryText(v pyjson.Value, name string) string {
	for {
		head, rest, nested := strings.Cut(name, ".")
		x, ok := v.Get(head)
		if !ok {
			return ""
		}
		if nested {
			v, name = x, rest
			continue
		}
		switch x.Kind() {
		case pyjson.String:
			return x.Str()
		case pyjson.Array:
			var parts []string
			for _, it := range x.Items() {
				if it.Kind() == pyjson.String {
					parts = append(parts, it.Str())
				}
			}
			return strings.Join(parts, " ")
		}
		return ""
	}
}
