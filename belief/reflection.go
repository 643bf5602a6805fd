package belief

import (
	"strings"
	"time"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
	"github.com/unified-cognitive-substrate/ucs/recall"
)

// A Reflection is what a reflection that states something (post_task,
// dead_end, annotation, experiment) says to the book: its type and text,
// what it is about, and the caller's hints (Kind, Subject, Slot: see
// DeriveKey; Contradicts: the id of the observation it contradicts).
type Reflection struct {
	Type, Text, Topic, WhyClosed, GeneralizedPattern, ArtifactID string
	Capabilities, Keywords                                       []string
	Kind, Subject, Slot, Contradicts                             string
}

// ReflectionOf is what a reflect call says to the book: its decoded
// input, and the hints (kind, subject, slot, contradicts) of its record
// raw.
func ReflectionOf(in knowledge.ReflectionInput, raw pyjson.Value) Reflection {
	return Reflection{Type: in.Type, Text: in.Text, Topic: in.Topic, WhyClosed: in.WhyClosed,
		GeneralizedPattern: in.GeneralizedPattern, ArtifactID: in.ArtifactID,
		Capabilities: in.Capabilities, Keywords: in.Keywords,
		Kind: raw.StrOf("kind"), Subject: raw.StrOf("subject"), Slot: raw.StrOf("slot"),
		Contradicts: raw.StrOf("contradicts")}
}

// Claim is what the reflection claims (a dead end without text: its topic
// and why it closed; an annotation with a pattern: the pattern), cut to
// MaxText bytes.
func (r Reflection) Claim() string {
	claim := r.Text
	if r.Type == "dead_end" && strings.TrimSpace(claim) == "" {
		claim = "Dead end: " + r.Topic + ". " + r.WhyClosed
	}
	if r.Type == "annotation" && r.GeneralizedPattern != "" {
		claim = r.GeneralizedPattern
	}
	if len(claim) > MaxText {
		claim = claim[:MaxText]
	}
	return claim
}

// Key is the key the reflection speaks to (DeriveKey; an annotation
// without a topic is about its artifact).
func (r Reflection) Key() Key {
	topic := r.Topic
	if topic == "" && r.Type == "annotation" {
		topic = "artifact " + r.ArtifactID
	}
	return DeriveKey(r.Kind, r.Subject, r.Slot, r.Type, r.Capabilities, r.Keywords, topic)
}

// ObserveReflection makes ev (the reflection as supporting evidence)
// evidence for the observation r speaks to, at at. A reflection that
// names what it contradicts states the new claim: it supersedes that
// observation (kept, linked, with ev as contradicting it; a refusal is
// an *ActError naming it), since word overlap cannot see a negation.
// Otherwise a claim close to the one believed under its key (by the
// analyzer's terms: recall.NearDuplicate) is the same lesson in other
// words, so evidence for it, and a different claim supersedes it.
func (b *Book) ObserveReflection(r Reflection, ev Evidence, at time.Time, an *recall.Analyzer) (*Observation, Change, error) {
	claim := r.Claim()
	if r.Contradicts != "" {
		// To contradict without a new claim: Contradict.
		o, ch, err := b.Supersede(r.Contradicts, claim, ev, at)
		if err != nil {
			return nil, Change{}, &ActError{ID: r.Contradicts, Err: err}
		}
		return o, ch, nil
	}
	key := r.Key()
	if cur := b.Active(key); cur != nil && recall.NearDuplicate(an.Terms(cur.Claim), an.Terms(claim)) {
		claim = cur.Claim
	}
	return b.Observe(key, claim, ev, at)
}
