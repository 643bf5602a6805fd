package pgstore

// validName reports whether name may name a workspace in the store: 1 to
// 128 ASCII letters, digits, '.', '_' or '-', the first a letter or a
// digit. It is written out rather than a regular expression: compiling one
// when the package is initialized cost every ucs-pg process 0.5-1.4 ms
// (GODEBUG=inittrace=1), a tenth of a report's CPU, for one match a call.
func validName(name string) bool {
	if len(name) == 0 || len(name) > 128 {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		case i > 0 && (c == '.' || c == '_' || c == '-'):
		default:
			return false
		}
	}
	return true
}
