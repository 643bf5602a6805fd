package knowledge

import "strings"

// Words returns the words of text as the reference extracts them: the
// maximal runs of at least three characters from [a-z_] in the lowercased
// text, in order of appearance, without repeats.
func Words(text string) []string {
	lower := strings.ToLower(text)
	var out []string
	seen := map[string]bool{}
	start := -1
	for i := 0; i <= len(lower); i++ {
		in := i < len(lower) && (lower[i] >= 'a' && lower[i] <= 'z' || lower[i] == '_')
		if in {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 && i-start >= 3 {
			w := lower[start:i]
			if !seen[w] {
				seen[w] = true
				out = append(out, w)
			}
		}
		start = -1
	}
	return out
}

// set is a set of strings.
type set map[string]bool

func setOf(xs []string) set {
	s := make(set, len(xs))
	for _, x := range xs {
		s[x] = true
	}
	return s
}

func lowerSet(xs []string) set {
	s := make(set, len(xs))
	for _, x := range xs {
		s[strings.ToLower(x)] = true
	}
	return s
}
