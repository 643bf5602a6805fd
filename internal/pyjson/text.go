package pyjson

// Quote is s as a JSON string literal (AppendString): how an answer's
// sentences and warnings name a value the caller gave, so an odd name
// (a quote, a newline) reads unambiguously.
func Quote(s string) string { return string(AppendString(nil, s)) }

// Prefix is the first n characters (runes) of s, all of s when it is
// shorter: Python's s[:n], with which the reference cuts its texts.
func Prefix(s string, n int) string {
	i := 0
	for j := range s {
		if i == n {
			return s[:j]
		}
		i++
	}
	return s
}
