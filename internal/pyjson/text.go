package pyjson

// Quote is s as a JSON string literal (AppendString): how an answer's
// sentences and warnings name a value the caller gave, so an odd name
// (a quote, a newline) reads unambiguously.
func Quote(s string) string { return string(AppendString(nil, s)) }
