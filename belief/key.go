package belief

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/unified-cognitive-substrate/ucs/learn"
)

// A Key names what an observation is about. A book believes at most one
// observation per key; a new claim under a key supersedes the old one.
// Keys are computed by code (CanonicalKey, DeriveKey), never chosen freely,
// so the same subject and slot always land on the same key.
type Key struct {
	Kind    Kind
	Subject string // "global", "agent", "capability:NAME[+NAME…]", "project:NAME", …
	Slot    string // normalised terms joined with "-" (NormalizeSlot)
}

// String writes a key as kind/subject/slot.
func (k Key) String() string { return string(k.Kind) + "/" + k.Subject + "/" + k.Slot }

// Limits and defaults of a key's parts.
const (
	MaxSlot     = 64        // bytes of a slot, cut at a term boundary
	MaxSubject  = 128       // bytes of a subject, cut at a character boundary
	DefaultSlot = "general" // the slot of a text without content terms
	Global      = "global"  // the subject of what is about nothing in particular
	Agent       = "agent"   // the subject of a self model: the agent itself
)

// CanonicalKey computes the key of a kind, a subject and a slot's text:
// the kind lowercased, the subject normalised (NormalizeSubject) and the
// slot normalised (NormalizeSlot). The kind is not checked here; the
// book refuses an invalid one.
func CanonicalKey(kind Kind, subject, slotText string) Key {
	return Key{
		Kind:    Kind(strings.ToLower(strings.TrimSpace(string(kind)))),
		Subject: NormalizeSubject(subject),
		Slot:    NormalizeSlot(slotText),
	}
}

// NormalizeSlot turns a slot's text into its canonical form: the text's
// content terms (learn.Terms: lowercased, without stop words, stemmed,
// sorted, each once) joined with "-", as many whole terms as fit in
// MaxSlot bytes (a single longer term is cut), and DefaultSlot when no
// term is left. Paraphrases meet: "fetching full pages" and "Full page
// fetch" are both "fetch-full-pag". The rule is applied again to its own
// result until nothing changes, so a slot given back normalises to
// itself.
func NormalizeSlot(text string) string {
	s := slotOnce(text)
	// Every pass that changes a slot drops a term or shortens one, so the
	// slot gets shorter until a pass leaves it as it is.
	for {
		next := slotOnce(s)
		if next == s {
			break
		}
		s = next
	}
	if s == "" {
		return DefaultSlot
	}
	return s
}

func slotOnce(text string) string {
	var b strings.Builder
	for _, t := range learn.Terms(text) {
		switch {
		case b.Len() == 0 && len(t) > MaxSlot:
			return cut(t, MaxSlot)
		case b.Len() == 0:
			b.WriteString(t)
		case b.Len()+1+len(t) <= MaxSlot:
			b.WriteByte('-')
			b.WriteString(t)
		default:
			return b.String()
		}
	}
	return b.String()
}

// NormalizeSubject turns a subject into its canonical form: valid UTF-8,
// lowercased, runs of space replaced by one "-", cut to MaxSubject bytes,
// and Global when empty.
func NormalizeSubject(s string) string {
	s = strings.Join(strings.Fields(strings.ToLower(strings.ToValidUTF8(s, "\uFFFD"))), "-")
	s = cut(s, MaxSubject)
	if s == "" {
		return Global
	}
	return s
}

// cut shortens s to at most n bytes without splitting a character.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// CapabilitySubject is the subject of an observation about capabilities:
// "capability:" and their normalised names, sorted, each once, joined
// with "+" ("" for none). The order they are named in does not matter.
func CapabilitySubject(capabilities []string) string {
	var names []string
	for _, c := range capabilities {
		if c = strings.Join(strings.Fields(strings.ToLower(c)), "-"); c != "" {
			names = append(names, c)
		}
	}
	if len(names) == 0 {
		return ""
	}
	slices.Sort(names)
	return NormalizeSubject("capability:" + strings.Join(slices.Compact(names), "+"))
}

// DeriveKey computes the key of what a reflection teaches. A hint the
// reflection gives wins; without one:
//
//   - kind: a dead end or a methodology (reflection type "dead_end", or
//     "post_task", the default, "") that names capabilities is the
//     tooling_state of those capabilities; any other reflection, a
//     post-task lesson about no capability in particular, is self_model.
//     A kind hint that is not a kind is ignored (the caller checks input
//     with ParseKind first).
//   - subject: "agent" for a self model; CapabilitySubject of the
//     capabilities when there are some; else "global".
//   - slot: the slot hint, else the topic, else the keywords, normalised
//     (NormalizeSlot: the order of keywords does not matter).
func DeriveKey(kindHint, subjectHint, slotHint, reflectionType string, capabilities, keywords []string, topic string) Key {
	caps := CapabilitySubject(capabilities)
	kind, err := ParseKind(kindHint)
	if err != nil {
		kind = SelfModel
		if caps != "" && (reflectionType == "" || reflectionType == "post_task" || reflectionType == "dead_end") {
			kind = ToolingState
		}
	}
	subject := subjectHint
	if strings.TrimSpace(subject) == "" {
		switch {
		case kind == SelfModel:
			subject = Agent
		case caps != "":
			subject = caps
		default:
			subject = Global
		}
	}
	slot := slotHint
	if strings.TrimSpace(slot) == "" {
		slot = topic
	}
	if strings.TrimSpace(slot) == "" {
		slot = strings.Join(keywords, " ")
	}
	return CanonicalKey(kind, subject, slot)
}
