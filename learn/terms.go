package learn

import (
	"slices"
	"strings"
)

// Terms returns the content terms of a text, as the model keys its
// evidence on them: words split at anything but a letter or a digit (so
// identifiers split too: "parser_test.go" gives parser, test), lowercased,
// without stop words and words of fewer than three characters, reduced to
// a stem ("tests", "testing" and "tested" are "test"), sorted, without
// repeats. Two paraphrases of a task share most of their terms; that is
// what lets evidence gathered under one wording serve the other.
func Terms(text string) []string {
	var out []string
	words(text, func(w string) bool {
		out = append(out, Stem(w))
		return true
	})
	slices.Sort(out)
	return slices.Compact(out)
}

// TermWord returns the first word of text whose term is term, for people
// to read ("feature" rather than the term "featur"), or term itself when
// no word of text has it.
func TermWord(text, term string) string {
	found := term
	words(text, func(w string) bool {
		if Stem(w) == term {
			found = w
			return false
		}
		return true
	})
	return found
}

// words calls yield with each word of text that can be a term (lower
// case, three letters or more, no stop word), in order, until it returns
// false.
func words(text string, yield func(string) bool) {
	word := make([]byte, 0, 32)
	more := true
	flush := func() {
		if len(word) >= 3 && more {
			if w := string(word); !stopWords[w] {
				more = yield(w)
			}
		}
		word = word[:0]
	}
	for _, r := range strings.ToLower(text) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			word = append(word, byte(r))
		case r > 127 && isLetter(r):
			word = append(word, string(r)...)
		default:
			flush()
		}
	}
	flush()
}

func isLetter(r rune) bool {
	return !strings.ContainsRune(" \t\n\r\u00a0\u2013\u2014\u2018\u2019\u201c\u201d", r)
}

// Stem reduces an English word to a stem by stripping its common
// inflections: plural and third-person s, -ies, -ing, -ed, -ly. It is
// deliberately light (no derivational suffixes): it must never merge two
// words an agent means differently, only the forms of one word.
func Stem(w string) string {
	n := len(w)
	switch {
	case n > 4 && strings.HasSuffix(w, "ies"):
		return w[:n-3] + "y"
	case n > 5 && strings.HasSuffix(w, "ing"):
		return dropE(undouble(w[:n-3]))
	case n > 4 && strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed"):
		return dropE(undouble(w[:n-2]))
	case n > 4 && strings.HasSuffix(w, "ly"):
		return w[:n-2]
	case n > 4 && (strings.HasSuffix(w, "sses") || strings.HasSuffix(w, "xes") || strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes") || strings.HasSuffix(w, "zes")):
		return w[:n-2]
	case n > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		return dropE(w[:n-1])
	}
	return dropE(w)
}

// dropE drops a final e, so that "price" meets "pricing" and "priced" at
// "pric".
func dropE(w string) string {
	if len(w) >= 4 && w[len(w)-1] == 'e' && w[len(w)-2] != 'e' {
		return w[:len(w)-1]
	}
	return w
}

// undouble drops a doubled final consonant left by a stripped suffix
// ("running" → "runn" → "run"), but not ll, ss or zz ("filling" → "fill").
func undouble(w string) string {
	n := len(w)
	if n >= 3 && w[n-1] == w[n-2] && !strings.ContainsRune("aeioulsz", rune(w[n-1])) {
		return w[:n-1]
	}
	return w
}

// stopWords carry no task: articles, pronouns, auxiliaries, prepositions
// and the filler an agent writes around a task.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`the and for with that this from into onto then than
		are was were been being have has had does did doing not but all any some our your
		you they them their its his her she him who whom which what when where why how
		can could should would will shall may might must out off over under about again
		also just only very too more most such each few other own same both once here there
		these those let lets get got make made need needs want wants please now new use using
		via per upon within without between through during before after above below
		task job work thing things step steps way`) {
		m[w] = true
	}
	return m
}()
