package schoolday

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestDays(t *testing.T) {
	// 23:30 UTC on the 26th is 06:30 on the 27th in Jakarta.
	at := time.Date(2026, 11, 26, 23, 30, 0, 0, time.UTC)
	if got := Of(at); got != "2026-11-27" {
		t.Errorf("Of: %s", got)
	}
	if m := DateOf(at).Start(); m.Format(time.RFC3339) != "2026-11-27T00:00:00+07:00" {
		t.Errorf("Start: %s", m.Format(time.RFC3339))
	}
	// A Date holds midnight UTC of its date, whatever the host's zone; the
	// Date of that calendar day starts at Jakarta's midnight.
	day := DateOf(at).Time()
	if day.Format(time.RFC3339) != "2026-11-27T00:00:00Z" {
		t.Errorf("Time: %s", day.Format(time.RFC3339))
	}
	if d, err := ParseDate("2026-11-27"); err != nil || !d.Time().Equal(day) {
		t.Errorf("ParseDate: %v %v", d, err)
	}
	if s := DateFromDay(day).Start(); !s.Equal(DateOf(at).Start()) || DateOf(s).Time() != day {
		t.Errorf("Start: %s", s.Format(time.RFC3339))
	}
	if _, err := ParseDate("2026-02-30"); err == nil {
		t.Error("ParseDate accepted 30 February")
	}
}

// The zone is loaded here only: a package that loads it itself, or builds
// a zone of its own, would be a second definition of a school day (issue 24
// counted 17). The zone is unexported, so no other package can reference
// it; this keeps LoadLocation and FixedZone out of the server's code too.
// Tests may load the zone: an independent fixture checks schoolday.
func TestZoneLoadedOnce(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	seen := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") ||
			strings.Contains(path, string(filepath.Separator)+"schoolday"+string(filepath.Separator)) {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		seen++
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			pkg, _ := sel.X.(*ast.Ident)
			switch {
			case pkg != nil && pkg.Name == "time" && (sel.Sel.Name == "LoadLocation" || sel.Sel.Name == "FixedZone"):
				t.Errorf("%s: time.%s: a school day comes from schoolday (DateOf, Date.Start/At, In, Clock)", fset.Position(sel.Pos()), sel.Sel.Name)
			case pkg != nil && pkg.Name == "schoolday" && (sel.Sel.Name == "Zone" || sel.Sel.Name == "zone"):
				t.Errorf("%s: schoolday.%s: use schoolday's functions, not the zone", fset.Position(sel.Pos()), sel.Sel.Name)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen < 100 {
		t.Fatalf("walked only %d files under %s", seen, root)
	}
}
