package fault

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// OneLine is s as one line for a terminal: each run of white space
// becomes one space, and every character that is not printable (a control
// character such as the escape that starts a terminal's sequences, a
// format character, a byte that is not UTF-8) is escaped as Go's %q
// escapes it. An error message quotes its input (a --workspace path, a
// command's name), and the line on stderr must neither break nor drive
// the terminal that shows it.
func OneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if printable(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteString(`\x`)
			b.WriteString(strconv.FormatUint(uint64(s[i])>>4, 16))
			b.WriteString(strconv.FormatUint(uint64(s[i])&15, 16))
		case r == ' ' || strconv.IsPrint(r):
			b.WriteString(s[i : i+n])
		default:
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		}
		i += n
	}
	return b.String()
}

// JSONLine is a line of JSON (ucs's, whose strings escape the characters
// below U+0020) with every other character that is not printable escaped
// as \uXXXX, a byte that is not UTF-8 as \ufffd: the same JSON value, safe
// on a terminal. Outside its strings JSON holds only printable ASCII.
func JSONLine(line []byte) []byte {
	if printable(string(line)) {
		return line
	}
	out := make([]byte, 0, len(line)+16)
	for i := 0; i < len(line); {
		r, n := utf8.DecodeRune(line[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			out = append(out, `\ufffd`...)
		case r == ' ' || strconv.IsPrint(r):
			out = append(out, line[i:i+n]...)
		case r > 0xffff:
			r1, r2 := utf16.EncodeRune(r)
			out = appendU(appendU(out, r1), r2)
		default:
			out = appendU(out, r)
		}
		i += n
	}
	return out
}

func appendU(dst []byte, r rune) []byte {
	const hex = "0123456789abcdef"
	return append(dst, '\\', 'u', hex[r>>12&15], hex[r>>8&15], hex[r>>4&15], hex[r&15])
}

// printable reports whether s is valid UTF-8 of printable characters and
// spaces only: the common case, which needs no copy.
func printable(s string) bool {
	for _, r := range s {
		if r != ' ' && (r < 0x20 || r >= 0x7f) && (r == utf8.RuneError || !strconv.IsPrint(r)) {
			return false
		}
	}
	return true
}
