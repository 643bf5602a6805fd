package field

import (
	"encoding/base64"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// A command line (argv) is bytes, not text: a word need not be UTF-8, and
// JSON holds only text. The journal records a command line as a list with
// one element per word: the word itself when it is UTF-8, else the object
// {"text": the word with each invalid byte as U+FFFD, "base64": the exact
// bytes in standard base64}. A person reads the text; DecodeArgv gives
// back the exact bytes. Writing the bytes as they are would make the line
// invalid JSON, which no reader, and no replay, accepts.

// EncodeArgv returns argv as the journal records it.
func EncodeArgv(argv []string) pyjson.Value {
	items := make([]pyjson.Value, len(argv))
	for i, w := range argv {
		if utf8.ValidString(w) {
			items[i] = pyjson.StringValue(w)
			continue
		}
		items[i] = pyjson.Obj(pyjson.KV("text", strings.ToValidUTF8(w, "\uFFFD")),
			pyjson.KV("base64", base64.StdEncoding.EncodeToString([]byte(w))))
	}
	return pyjson.ArrayValue(items)
}

// DecodeArgv returns the command line EncodeArgv encoded, byte for byte.
func DecodeArgv(v pyjson.Value) ([]string, error) {
	if v.Kind() != pyjson.Array {
		return nil, fault.BadInput(fault.CodeWrongType, "give the command as a list of words", "the command must be a list, got %s", v.Kind().Noun())
	}
	out := make([]string, 0, len(v.Items()))
	for i, it := range v.Items() {
		switch it.Kind() {
		case pyjson.String:
			out = append(out, it.Str())
			continue
		case pyjson.Object:
			b64, ok := it.Get("base64")
			if ok && b64.Kind() == pyjson.String && len(it.Members()) <= 2 {
				if _, hasText := it.Get("text"); hasText || len(it.Members()) == 1 {
					if b, err := base64.StdEncoding.Strict().DecodeString(b64.Str()); err == nil {
						out = append(out, string(b))
						continue
					}
				}
			}
		}
		return nil, fault.BadInput(fault.CodeWrongType, `write each word as a string, or one that is not UTF-8 as {"text": ..., "base64": ...}`,
			"command[%s] must be a string or an object {\"text\", \"base64\"} with the exact bytes in base64", strconv.Itoa(i))
	}
	return out, nil
}

// Command is the flag of a call that records a command line (EncodeArgv's
// form), with doc as its Doc.
func Command(doc string) Field {
	return Field{Name: "command", Type: Strings, Flag: true, Text: true, Doc: doc,
		Valid: func(x pyjson.Value, present bool) error {
			if !present {
				return nil
			}
			_, err := DecodeArgv(x)
			return err
		}}
}
