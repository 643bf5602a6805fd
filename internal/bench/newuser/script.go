package newuser

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// A script is a testscript being written: its lines, the files its
// commands read (in the order they were first used, one per distinct
// content), and the count of what it does.
type script struct {
	lines []string
	files []string          // names, in order
	body  map[string]string // name → content
	named map[string]string // content → name
	calls []Call            // ucs calls
	seq   int64             // the journal's last event, as the script's calls leave it
	// input and inputFile are the next call's stdin, as stdin set it.
	input, inputFile string
}

func newScript() *script {
	return &script{body: map[string]string{}, named: map[string]string{}}
}

func (s *script) line(format string, args ...any) {
	s.lines = append(s.lines, fmt.Sprintf(format, args...))
}

// comment writes a comment of one or more lines, after a blank line.
func (s *script) comment(text string) {
	s.lines = append(s.lines, "")
	for l := range strings.SplitSeq(text, "\n") {
		s.lines = append(s.lines, "# "+l)
	}
}

// ucs writes one call of ucs on the workspace ws; fails says the call
// exits non-zero, changes that it adds an event to the journal.
func (s *script) ucs(fails, changes bool, args ...string) { s.ucsOn("ws", fails, changes, args...) }

// ucsOn writes one call of ucs on the workspace named; changes counts
// only for ws, whose journal the script follows.
func (s *script) ucsOn(ws string, fails, changes bool, args ...string) {
	prefix := "exec"
	if fails {
		prefix = "! exec"
	}
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = quote(a)
	}
	s.line("%s ucs --workspace %s %s", prefix, ws, strings.Join(quoted, " "))
	s.calls = append(s.calls, Call{Workspace: ws, Args: slices.Clone(args), Input: s.input, InputFile: s.inputFile, Fails: fails})
	s.input, s.inputFile = "", ""
	if changes && ws == "ws" {
		s.seq++
	}
}

// stdin makes the next command read a file of this content, named name
// unless a file already holds it.
func (s *script) stdin(name, content string) {
	if n, ok := s.named[content]; ok {
		name = n
	} else {
		for base, i := name, 2; s.body[name] != ""; i++ {
			name = fmt.Sprintf("%s.%d", base, i)
		}
		s.files = append(s.files, name)
		s.body[name] = content
		s.named[content] = name
	}
	s.line("stdin %s", name)
	s.input = content
}

// stdinFile makes the next command read the file name, which an earlier
// command of the script wrote.
func (s *script) stdinFile(name string) {
	s.line("stdin %s", name)
	s.inputFile = name
}

// jsonpath writes a check of a JSON answer's value at a gjson path.
func (s *script) jsonpath(file, path, want string) {
	s.line("jsonpath %s %s %s", file, quote(path), quote(want))
}

// object encodes a JSON object's members in the order given, as a person
// would write it.
func object(kv ...string) string {
	var b strings.Builder
	b.WriteByte('{')
	for i := 0; i+1 < len(kv); i += 2 {
		if i > 0 {
			b.WriteString(", ")
		}
		k, _ := json.Marshal(kv[i])
		v, _ := json.Marshal(kv[i+1])
		if strings.HasPrefix(kv[i+1], "[") {
			v = []byte(kv[i+1]) // a list, given as JSON
		}
		fmt.Fprintf(&b, "%s: %s", k, v)
	}
	b.WriteByte('}')
	return b.String()
}

// quote quotes an argument for testscript: bare when it is a plain word,
// else in single quotes (a quote inside doubled).
func quote(a string) string {
	if a != "" && strings.IndexFunc(a, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=@", r))
	}) < 0 {
		return a
	}
	return "'" + strings.ReplaceAll(a, "'", "''") + "'"
}

// txtar is the whole archive: the header, the script, then its files.
func (s *script) txtar(header string) string {
	var b strings.Builder
	b.WriteString(header)
	for _, l := range s.lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	for _, name := range s.files {
		fmt.Fprintf(&b, "-- %s --\n%s", name, s.body[name])
		if !strings.HasSuffix(s.body[name], "\n") {
			b.WriteByte('\n')
		}
	}
	return b.String()
}
