package fault

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// awaited are listed codes that other changes of this round return; once
// they are merged, each is found by the scan (TestEveryCodeListed logs
// it), and it should leave this set.
var awaited = map[string]bool{}

// A use is a place in the source where an error code is set.
type use struct {
	code string
	kind Kind // 0: not known from the source
	pos  string
}

// kindNames are the kinds as the source names them.
var kindNames = map[string]Kind{
	"KindInternal": KindInternal, "KindBadInput": KindBadInput, "KindNotInitialized": KindNotInitialized,
	"KindBusy": KindBusy, "KindCorrupt": KindCorrupt, "KindUnsupported": KindUnsupported,
	"KindStoreUnavailable": KindStoreUnavailable,
}

// scanCodes finds every error code the module's non-test Go source sets:
//   - the argument named code of a constructor (a function with a string
//     parameter named code, such as BadInput), when a call passes a literal;
//   - the Code field of an Error composite literal (fault.Error,
//     bridge.Error), with its Kind when the literal names one;
//   - an assignment of a literal to a Code field (e.Code = "...");
//   - a literal "code" member of a JSON object (pyjson.KV("code", "...")).
//
// A constructor call or Error literal whose code is not a string literal
// (nor a constructor's own code parameter, passed on) is a problem: the
// scan cannot see the code it sets.
func scanCodes(t *testing.T, root string) (uses []use, problems []string) {
	t.Helper()
	fset := token.NewFileSet()
	var files []*ast.File
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); p != root && (strings.HasPrefix(n, ".") || n == "testdata" || n == "vendor" || n == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			return err
		}
		files = append(files, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	pos := func(n ast.Node) string {
		p := fset.Position(n.Pos())
		rel, _ := filepath.Rel(root, p.Filename)
		return fmt.Sprintf("%s:%d", filepath.ToSlash(rel), p.Line)
	}
	// The constructors: the position of their code parameter, and the
	// kind they give it.
	type ctor struct {
		arg  int
		kind Kind
		via  string // the constructor it passes code on to, when it makes no Error itself
	}
	ctors := map[string]*ctor{}
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			i := 0
			for _, param := range fd.Type.Params.List {
				for _, name := range param.Names {
					if id, ok := param.Type.(*ast.Ident); ok && id.Name == "string" && name.Name == "code" {
						c := &ctor{arg: i}
						ast.Inspect(fd.Body, func(n ast.Node) bool {
							switch n := n.(type) {
							case *ast.CompositeLit:
								if isErrorType(n.Type) && isIdent(field(n, "Code"), "code") {
									c.kind = kindOf(field(n, "Kind"))
								}
							case *ast.CallExpr:
								for _, a := range n.Args {
									if isIdent(a, "code") {
										c.via = funcName(n.Fun)
									}
								}
							}
							return true
						})
						ctors[fd.Name.Name] = c
					}
					i++
				}
				if len(param.Names) == 0 {
					i++
				}
			}
		}
	}
	for _, c := range ctors {
		for seen := 0; c.kind == 0 && c.via != "" && seen < 10; seen++ {
			if next, ok := ctors[c.via]; ok {
				c.kind, c.via = next.kind, next.via
			} else {
				break
			}
		}
	}
	literal := func(e ast.Expr) (string, bool) {
		if bl, ok := e.(*ast.BasicLit); ok && bl.Kind == token.STRING {
			s, err := strconv.Unquote(bl.Value)
			return s, err == nil
		}
		return "", false
	}
	// A code is set by its constant (fault.CodeX, or CodeX inside fault);
	// a literal in its place is a problem, so every code stays findable
	// by its name and none is misspelt.
	consts := codeConstants(files)
	code := func(e ast.Expr, what string) (string, bool) {
		if s, ok := literal(e); ok {
			problems = append(problems, fmt.Sprintf("%s: %s is the literal %q: use its constant in fault", pos(e), what, s))
			return s, true
		}
		var name string
		switch e := e.(type) {
		case *ast.Ident:
			name = e.Name
		case *ast.SelectorExpr:
			if isIdent(e.X, "fault") {
				name = e.Sel.Name
			}
		}
		s, ok := consts[name]
		return s, ok
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				name := funcName(n.Fun)
				if c, ok := ctors[name]; ok && c.arg < len(n.Args) {
					a := n.Args[c.arg]
					if s, ok := code(a, "the code passed to "+name); ok {
						uses = append(uses, use{s, c.kind, pos(a)})
					} else if !isIdent(a, "code") {
						problems = append(problems, fmt.Sprintf("%s: the code passed to %s is not a constant of fault: the scan cannot check it", pos(a), name))
					}
				}
				if name == "KV" && len(n.Args) == 2 {
					if k, ok := literal(n.Args[0]); ok && k == "code" {
						if s, ok := code(n.Args[1], "a code member"); ok {
							uses = append(uses, use{s, 0, pos(n.Args[1])})
						}
					}
				}
			case *ast.CompositeLit:
				if !isErrorType(n.Type) {
					return true
				}
				v := field(n, "Code")
				if v == nil || isIdent(v, "code") {
					return true
				}
				if s, ok := code(v, "an Error's Code"); ok {
					uses = append(uses, use{s, kindOf(field(n, "Kind")), pos(v)})
				} else {
					problems = append(problems, fmt.Sprintf("%s: an Error's Code is not a constant of fault: the scan cannot check it", pos(v)))
				}
			case *ast.AssignStmt:
				for i, l := range n.Lhs {
					if se, ok := l.(*ast.SelectorExpr); ok && se.Sel.Name == "Code" && i < len(n.Rhs) {
						if s, ok := code(n.Rhs[i], "a Code assigned"); ok {
							uses = append(uses, use{s, 0, pos(n.Rhs[i])})
						}
					}
				}
			}
			return true
		})
	}
	return uses, problems
}

// codeConstants are the string constants of package fault named Code...,
// by name: the codes as the source spells them.
func codeConstants(files []*ast.File) map[string]string {
	consts := map[string]string{}
	for _, f := range files {
		if f.Name.Name != "fault" {
			continue
		}
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if !strings.HasPrefix(n.Name, "Code") || i >= len(vs.Values) {
						continue
					}
					if bl, ok := vs.Values[i].(*ast.BasicLit); ok && bl.Kind == token.STRING {
						if s, err := strconv.Unquote(bl.Value); err == nil {
							consts[n.Name] = s
						}
					}
				}
			}
		}
	}
	return consts
}

// isErrorType reports whether a composite literal's type is ucs's Error
// (Error, fault.Error, bridge.Error).
func isErrorType(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name == "Error"
	case *ast.SelectorExpr:
		x, ok := e.X.(*ast.Ident)
		return ok && e.Sel.Name == "Error" && (x.Name == "fault" || x.Name == "bridge")
	}
	return false
}

// field is the value of a keyed field of a composite literal, or nil.
func field(cl *ast.CompositeLit, name string) ast.Expr {
	for _, e := range cl.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok && isIdent(kv.Key, name) {
			return kv.Value
		}
	}
	return nil
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

// funcName is the name a call calls: f, or x.f.
func funcName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return e.Sel.Name
	}
	return ""
}

// kindOf is the kind an expression names (KindBadInput,
// bridge.KindBadInput), or 0.
func kindOf(e ast.Expr) Kind {
	return kindNames[funcName(e)]
}

var dumpCodes = flag.Bool("dump-codes", false, "print every code the source sets")

func TestEveryCodeListed(t *testing.T) {
	uses, problems := scanCodes(t, moduleRoot(t))
	for _, p := range problems {
		t.Error(p)
	}
	listed := map[string]Code{}
	for _, c := range Codes {
		listed[c.Code] = c
	}
	found := map[string]bool{}
	for _, u := range uses {
		if *dumpCodes {
			fmt.Printf("%-28s %d %s\n", u.code, u.kind, u.pos)
		}
		found[u.code] = true
		c, ok := listed[u.code]
		switch {
		case !ok:
			t.Errorf("%s: the code %q is not in fault.Codes: add it (its kind and meaning), then regenerate docs/errors.md (%s)", u.pos, u.code, regenerate)
		case u.kind != 0 && u.kind != c.Kind:
			t.Errorf("%s: the code %q is returned with exit %d, but fault.Codes lists exit %d", u.pos, u.code, u.kind, c.Kind)
		}
	}
	for _, c := range Codes {
		switch {
		case found[c.Code] && awaited[c.Code]:
			t.Logf("%q is returned now: remove it from awaited", c.Code)
		case !found[c.Code] && !awaited[c.Code]:
			t.Errorf("fault.Codes lists %q, which nothing returns: remove it, and regenerate docs/errors.md (%s)", c.Code, regenerate)
		}
	}
}

// moduleRoot is the directory of go.mod, above this package's.
func moduleRoot(t *testing.T) string {
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for !fileExists(filepath.Join(dir, "go.mod")) {
		if filepath.Dir(dir) == dir {
			t.Fatal("no go.mod above the package")
		}
		dir = filepath.Dir(dir)
	}
	return dir
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

const regenerate = "go generate ./internal/fault"
