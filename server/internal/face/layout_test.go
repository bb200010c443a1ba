package face

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// Every statement a request runs is the Store's (store.go): the handlers
// decode, validate and answer. Sweep and ReapplyErasure, which run outside
// a request, keep their statements beside them.
func TestStatementsInStore(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	allowed := map[string]bool{"store.go": true, "sweep.go": true, "erasure.go": true}
	db := map[string]bool{"ExecContext": true, "GetContext": true, "SelectContext": true, "QueryxContext": true,
		"QueryRowxContext": true, "QueryContext": true, "BeginTxx": true, "InTx": true}
	fset := token.NewFileSet()
	for _, name := range files {
		if allowed[name] || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if sel, ok := call.Fun.(*ast.SelectorExpr); ok && db[sel.Sel.Name] {
					t.Errorf("%s: %s outside the store", fset.Position(call.Pos()), sel.Sel.Name)
				}
			}
			return true
		})
	}
}
