package torusfield

import "github.com/unified-cognitive-substrate/ucs/internal/pyjson"

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// number scans a number as pyjson.Parse does, by its own scanner,
// pyjson.ScanNumber; an error leaves the document to the slow path.
func (s *scanner) number() (pyjson.Number, bool) {
	n, err := pyjson.ScanNumber(s.src, &s.pos)
	return n, err == nil
}

// float scans a number, int or float, as the float64 Value.Float returns.
func (s *scanner) float() (float64, bool) {
	n, err := pyjson.ScanNumber(s.src, &s.pos)
	return n.Float, err == nil
}

// integer scans an int literal (Restore's getInt refuses floats).
func (s *scanner) integer() (int, bool) {
	n, err := pyjson.ScanNumber(s.src, &s.pos)
	return int(n.Int), err == nil && n.IsInt
}

// skipNumber checks a number as number does without converting it, which
// the engine's skipped members (edges' u, c, n; the schedule) do not need:
// without an exponent, a float of up to 300 integer digits cannot overflow
// float64, and an int of up to 18 digits fits in an int64.
func (s *scanner) skipNumber() bool {
	src, i := s.src, s.pos
	if i < len(src) && src[i] == '-' {
		i++
	}
	if i >= len(src) || !isDigit(src[i]) {
		return false
	}
	intStart := i
	if src[i] == '0' {
		i++
	} else {
		for i < len(src) && isDigit(src[i]) {
			i++
		}
	}
	intDigits := i - intStart
	isFloat := i < len(src) && src[i] == '.'
	if isFloat {
		i++
		if i >= len(src) || !isDigit(src[i]) {
			return false
		}
		for i < len(src) && isDigit(src[i]) {
			i++
		}
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		_, ok := s.number() // the exponent decides: convert it
		return ok
	}
	if intDigits > 300 || (!isFloat && intDigits > 18) {
		return false
	}
	s.pos = i
	return true
}
