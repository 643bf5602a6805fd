package outcome

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Redacted replaces each secret Sanitize finds.
const Redacted = "[REDACTED]"

// Sanitize returns s with the secrets it recognises replaced by Redacted,
// keeping the words around them so that what is left still reads:
//
//   - credentials in a URL: https://user:pass@host/x → https://[REDACTED]@host/x;
//   - the body of a PEM private key block (kept: its BEGIN and END lines),
//     also of a block cut short at either end, as a captured tail may be;
//   - API keys of known shapes, keeping the prefix that names the kind:
//     OpenAI and Anthropic (sk-, sk-proj-, sk-ant-api03-), GitHub (ghp_,
//     gho_, ghu_, ghs_, ghr_, github_pat_), Slack (xoxb- and kin), AWS
//     access key ids (AKIA, ASIA), Google (AIza), Stripe (sk_live_,
//     rk_live_, sk_test_, rk_test_), GitLab (glpat-), npm (npm_), Hugging
//     Face (hf_); JSON web tokens whole;
//   - the token after Bearer or Basic, when it looks like one (eight
//     characters or more, with a digit or a lower-to-upper case change);
//   - the value of a KEY=value, KEY: value or "key": "value" pair whose
//     key names a secret: it holds secret, token, password, passwd,
//     passphrase, pwd, api_key (apikey, api-key), private_key, access_key,
//     auth, authorization or credential as a word of its own (DB_PASSWORD,
//     authToken, X-Api-Key; not tokenizer or author; not the counts of
//     max_tokens), unless its last word says it is about the secret rather
//     than the secret (token_type, password_file, auth_url); PWD and OLDPWD
//     (upper case) are the shell's directories. After an Authorization key the scheme
//     word stays: Authorization: Bearer [REDACTED].
//
// Ordinary text is left alone: prose that mentions a password or a token
// without a value, URLs without credentials, hashes and UUIDs. Sanitize is
// idempotent (Sanitize(Sanitize(s)) == Sanitize(s)), takes time linear in
// len(s) and never panics. It is a safety net, not a guarantee: a secret of
// no known shape outside a key=value pair passes through.
func Sanitize(s string) string {
	// A redaction can make a later pass find more: a redacted value no
	// longer holds the ? that ended a URL's authority before it. So the
	// redactions run again until a pass changes nothing.
	for range maxPasses {
		changed := false
		for _, r := range redactions() {
			var c bool
			s, c = r.apply(s)
			changed = changed || c
		}
		if !changed {
			break
		}
	}
	return s
}

// maxPasses bounds the passes of Sanitize: two suffice for all but
// contrived texts.
const maxPasses = 8

// A redaction finds candidates with re and replaces the secret in each,
// the first of groups that took part, unless ok rejects it.
type redaction struct {
	// need lists strings one of which every match holds: without any in
	// the text (lowercased if fold), the regular expression is not run.
	need   []string
	fold   bool
	re     func() *regexp.Regexp // compiled on first use: most texts need few
	groups []int
	ok     func(s string, m []int, secret string) bool // nil: every candidate is a secret
	// resume, if set, says where to look for the next candidate after a
	// rejected one, when that is inside it: Basic Bearer <token> holds a
	// token although Basic Bearer does not. It must stay where a match
	// may start without the character before it (no \b or ^ there), and
	// its scans must stay short, or Sanitize stops being linear.
	resume func(m []int) int
}

// apply returns s with the secrets d finds redacted, and whether it
// redacted any.
func (d redaction) apply(s string) (string, bool) {
	text := s
	if d.fold {
		text = strings.ToLower(s)
	}
	if !slices.ContainsFunc(d.need, func(n string) bool { return strings.Contains(text, n) }) {
		return s, false
	}
	var b []byte
	last := 0
	d.each(s, func(m []int) bool {
		lo, hi := -1, -1
		for _, g := range d.groups {
			if m[2*g] >= 0 {
				lo, hi = m[2*g], m[2*g+1]
				break
			}
		}
		if lo < 0 || lo == hi || s[lo:hi] == Redacted || d.ok != nil && !d.ok(s, m, s[lo:hi]) {
			return false
		}
		b = append(b, s[last:lo]...)
		b = append(b, Redacted...)
		last = hi
		return true
	})
	if b == nil {
		return s, false
	}
	return string(append(b, s[last:]...)), true
}

// each calls f with the submatch indexes of each candidate in s, in order,
// without overlaps; f reports whether it took the candidate.
func (d redaction) each(s string, f func(m []int) bool) {
	if d.resume == nil {
		for _, m := range d.re().FindAllStringSubmatchIndex(s, -1) {
			f(m)
		}
		return
	}
	for pos := 0; pos < len(s); {
		m := d.re().FindStringSubmatchIndex(s[pos:])
		if m == nil {
			return
		}
		for i := range m {
			if m[i] >= 0 {
				m[i] += pos
			}
		}
		next := m[1]
		if !f(m) {
			if r := d.resume(m); r > m[0] && r < next {
				next = r
			}
		}
		pos = max(next, m[0]+1)
	}
}

// prefixed redacts group 2 of pattern, keeping group 1 (the prefix that
// names the kind of key).
func prefixed(need []string, pattern string, ok func(s string, m []int, secret string) bool) redaction {
	return redaction{need, false, lazy(pattern), []int{2}, ok, nil}
}

// lazy compiles a redaction's expression when a text first needs it: a
// call sanitises a few short texts, and compiling every expression would
// cost it more than all of its sanitising.
func lazy(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}

// words splits a list of strings for a redaction's need.
func words(s string) []string { return strings.Fields(s) }

// redactions run in this order: each later one sees what the earlier ones
// left, so a key=value pair whose value was a known key shape is redacted
// whole, and a Bearer token that is a JWT is redacted once. They are
// compiled on first use, not when the program starts: every ucs call links
// this package. Each expression is compiled when a text first needs it.
var redactions = sync.OnceValue(func() []redaction { return redactionList() })

func redactionList() []redaction {
	return []redaction{
		// A PEM private key block: its body, up to the END line or the end of
		// the text (a capture cut short).
		{words("PRIVATE"), false, lazy(`(?s)(-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----)(.*?)(-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\z)`), []int{2}, nil, nil},
		// The end of a block whose beginning was cut off: the lines of base64
		// before its END line.
		{words("PRIVATE"), false, lazy(`(?m)^((?:[A-Za-z0-9+/=]*\r?\n)*[A-Za-z0-9+/=]+)\r?\n-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----`), []int{1}, nil, nil},
		// user:password@ in a URL: up to the last @ of the authority.
		{words("://"), false, lazy(`\b([A-Za-z][A-Za-z0-9+.-]*://)([^\s/?#@"'<>\\]*:[^\s/?#"'<>\\]*)@`), []int{2}, nil, nil},

		prefixed(words("sk-"), `\b(sk-(?:ant-(?:[a-z]+\d\d-)?|proj-|svcacct-|admin-)?)([A-Za-z0-9_-]{20,})`, hasDigit),
		prefixed(words("ghp_ gho_ ghu_ ghs_ ghr_"), `\b(gh[pousr]_)([A-Za-z0-9]{20,})`, nil),
		prefixed(words("github_pat_"), `\b(github_pat_)([A-Za-z0-9_]{20,})`, nil),
		prefixed(words("xox"), `\b(xox[abeprs]-)([A-Za-z0-9-]{10,})`, hasDigit),
		prefixed(words("AKIA ASIA"), `\b(AKIA|ASIA)([0-9A-Z]{16})\b`, nil),
		prefixed(words("AIza"), `\b(AIza)([0-9A-Za-z_-]{35})`, nil),
		prefixed(words("k_live_ k_test_"), `\b([rs]k_(?:live|test)_)([0-9A-Za-z]{10,})`, nil),
		prefixed(words("glpat-"), `\b(glpat-)([0-9A-Za-z_-]{20,})`, nil),
		prefixed(words("npm_"), `\b(npm_)([0-9A-Za-z]{36})\b`, nil),
		prefixed(words("hf_"), `\b(hf_)([0-9A-Za-z]{30,})`, hasDigit),
		{words("eyJ"), false, lazy(`\b(eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*)`), []int{1}, nil, nil},

		{words("bearer basic"), true, lazy(`(?i)\b(bearer|basic)[ \t]+([A-Za-z0-9._~+/-]+=*)`), []int{2}, tokenLike,
			func(m []int) int { return m[4] }},

		// KEY=value, KEY: value, "key": "value", 'key': 'value' and the same
		// with escaped quotes (JSON inside a JSON string). Groups: 1 the key,
		// 2 an Authorization scheme, 3-5 a quoted value, 6 a bare value, which
		// may hold what an earlier redaction left (sk-proj-[REDACTED]) and
		// which does not start with a bracket (a list, an object), but for
		// [REDACTED] itself, so that a second pass keeps the scheme.
		{words("secret token pass pwd key auth credential"), true, lazy(`(?i)([A-Za-z0-9_.-]*(?:` + keyWords + `)[A-Za-z0-9_.-]*)(?:\\?["'])?[ \t]*[:=][ \t]*` +
			`(?:(bearer|basic|token|digest)[ \t]+)?` +
			`(?:"((?:[^"\\\n]|\\.)*)"|'([^'\n]*)'|\\"((?:[^"\\\n]|\\[^"\n])*)\\"|` +
			`((?:[^\s"'&,;)}\]\[{(=<\\]|\[REDACTED\])(?:[^\s"'&,;)}\]\[\\]|\[REDACTED\])*))`),
			[]int{3, 4, 5, 6}, secretPair, resumeInValue},
	}
}

// resumeInValue looks for a pair inside the value of a rejected one
// (tokenizer:password=x, auth_url: "https://h/?password=x"), when the
// value is short: a long one is skipped, so that no text is scanned more
// than a bounded number of times.
func resumeInValue(m []int) int {
	for g := 3; g <= 6; g++ {
		if lo, hi := m[2*g], m[2*g+1]; lo >= 0 && hi-lo <= maxRescan {
			return lo
		}
	}
	return m[1]
}

// maxRescan is the longest value resumeInValue looks into.
const maxRescan = 256

// keyWords are the words that make a key name a secret's (as a regular
// expression; sensitiveKey checks that one stands as a word of its own).
const keyWords = `secret|token|password|passwd|passphrase|pwd|api[_-]?key|private[_-]?key|access[_-]?key|auth|credential`

// sensitiveWords are keyWords spelled out, with authorization (whose auth
// is followed by a letter).
var sensitiveWords = []string{
	"secret", "token", "password", "passwd", "passphrase", "pwd",
	"api_key", "api-key", "apikey", "private_key", "private-key", "privatekey",
	"access_key", "access-key", "accesskey", "auth", "authorization", "credential",
}

// aboutWords end key names that are about a secret but do not hold one.
var aboutWords = map[string]bool{
	"url": true, "uri": true, "endpoint": true, "host": true, "hostname": true, "port": true,
	"type": true, "method": true, "mode": true, "scheme": true, "provider": true, "scope": true,
	"file": true, "path": true, "dir": true, "name": true, "header": true, "prefix": true,
	"count": true, "limit": true, "len": true, "length": true, "size": true, "version": true,
	"ttl": true, "expiry": true, "expires": true, "in": true, "at": true, "timeout": true,
	"enabled": true, "required": true, "policy": true, "format": true, "usage": true,
}

// notSecretValues are values that say there is no secret.
var notSecretValues = map[string]bool{
	"null": true, "none": true, "nil": true, "true": true, "false": true, "undefined": true,
}

// secretPair vets a candidate pair of the key=value redaction: the key
// names a secret and the value is not one that says there is none (a PEM
// block's BEGIN line is the PEM redaction's).
func secretPair(s string, m []int, value string) bool {
	if !sensitiveKey(s[m[2]:m[3]]) || notSecretValues[strings.ToLower(value)] ||
		strings.HasPrefix(value, "-----") || strings.Trim(value, "*") == "" {
		return false
	}
	return true
}

// sensitiveKey reports whether a key names a secret: one of
// sensitiveWords ends at a word's end (the key's end, a character that is
// not a letter, a lower-to-upper case change, or a plural s but for
// token), and the key's last word is not one of aboutWords.
func sensitiveKey(key string) bool {
	if name := strings.TrimLeft(key, "-."); name == "PWD" || name == "OLDPWD" || aboutWords[lastWord(key)] {
		return false
	}
	lower := strings.ToLower(key)
	for _, w := range sensitiveWords {
		for i := 0; i < len(lower); {
			j := strings.Index(lower[i:], w)
			if j < 0 {
				break
			}
			if end := i + j + len(w); wordEnds(key, end, w != "token") {
				return true
			}
			i += j + 1
		}
	}
	return false
}

// wordEnds reports whether a word of key ends at end.
func wordEnds(key string, end int, plural bool) bool {
	if end == len(key) || !isLetter(key[end]) {
		return true
	}
	c := key[end]
	if plural && (c == 's' || c == 'S') && (end+1 == len(key) || !isLetter(key[end+1])) {
		return true
	}
	return isUpper(c) && isLower(key[end-1])
}

// lastWord returns the last word of a key, lowercased: words are split at
// anything but a letter or a digit and at a lower-to-upper case change.
func lastWord(key string) string {
	end := len(key)
	for end > 0 && !isAlnum(key[end-1]) {
		end--
	}
	start := end
	for start > 0 && isAlnum(key[start-1]) {
		if start < end && isUpper(key[start]) && isLower(key[start-1]) {
			break
		}
		start--
	}
	return strings.ToLower(key[start:end])
}

// tokenLike reports whether what follows Bearer or Basic looks like a
// credential rather than a word: eight characters or more, with a digit
// or a lower-to-upper case change.
func tokenLike(_ string, _ []int, t string) bool {
	if len(t) < 8 {
		return false
	}
	for i := range len(t) {
		if isDigit(t[i]) || i > 0 && isUpper(t[i]) && isLower(t[i-1]) {
			return true
		}
	}
	return false
}

// hasDigit vets a key whose prefix alone could start a word (sk-, xoxb-).
func hasDigit(_ string, _ []int, t string) bool { return strings.ContainsAny(t, "0123456789") }

func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isLower(c byte) bool  { return c >= 'a' && c <= 'z' }
func isUpper(c byte) bool  { return c >= 'A' && c <= 'Z' }
func isLetter(c byte) bool { return isLower(c) || isUpper(c) }
func isAlnum(c byte) bool  { return isLetter(c) || isDigit(c) }
