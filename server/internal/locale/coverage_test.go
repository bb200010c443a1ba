package locale

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var keyPattern = regexp.MustCompile(`^[a-z0-9_]+(\.[a-z0-9_]+)+$`)

// keyArgs names the calls whose argument at the given index is a message
// key: package-qualified functions and methods (by name, with a literal
// first argument where the name alone is too common).
var keyArgs = map[string]int{
	"apperr.New":    1,
	"apperr.M":      0,
	"locale.T":      1,
	"locale.Render": 1,
	"locale.Key":    0,
	"pg.Error":      1,
	".WithField":    1,
}

// Every message key written in the server's code is in the catalogue, and
// nothing passed where a key belongs is a sentence: a message can no longer
// exist in one language only, or in none.
func TestEveryKeyInCatalogue(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	found := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			name := "." + sel.Sel.Name
			if id, ok := sel.X.(*ast.Ident); ok {
				if i, ok := keyArgs[id.Name+name]; ok {
					found += check(t, fset, call, i)
					return true
				}
			}
			if i, ok := keyArgs[name]; ok {
				found += check(t, fset, call, i)
			} else if sel.Sel.Name == "Add" && len(call.Args) >= 2 && isString(call.Args[0]) && isString(call.Args[1]) && !isHeader(sel.X) {
				// apperr.Fields.Add(field, key, ...)
				found += check(t, fset, call, 1)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found < 50 {
		t.Fatalf("only %d message keys found in the code: is the scan still looking at the right calls?", found)
	}
}

// isHeader reports whether e is an http.Header (w.Header(), h, header):
// its Add takes a header name and value, not a field and a key.
func isHeader(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.CallExpr:
		if sel, ok := x.Fun.(*ast.SelectorExpr); ok {
			return sel.Sel.Name == "Header"
		}
	case *ast.SelectorExpr:
		return x.Sel.Name == "Header"
	case *ast.Ident:
		return x.Name == "h" || x.Name == "header" || x.Name == "hdr"
	}
	return false
}

func isString(e ast.Expr) bool {
	lit, ok := e.(*ast.BasicLit)
	return ok && lit.Kind == token.STRING
}

func check(t *testing.T, fset *token.FileSet, call *ast.CallExpr, i int) int {
	t.Helper()
	if i >= len(call.Args) {
		return 0
	}
	lit, ok := call.Args[i].(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return 0 // a key chosen at run time: its own tests cover it
	}
	key, err := strconv.Unquote(lit.Value)
	if err != nil {
		return 0
	}
	pos := fset.Position(lit.Pos())
	switch {
	case !keyPattern.MatchString(key):
		t.Errorf("%s: %q is not a catalogue key (area.name): move the text to locale/messages", pos, key)
	case !Has(key):
		t.Errorf("%s: key %q is not in the catalogue", pos, key)
	}
	return 1
}
