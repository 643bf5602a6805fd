package dashboard

// The table's own small text helper (a cut to n characters is
// phrase.RunePrefix, shared with every layer).

// orDefault is s, or def when s is empty.
func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
