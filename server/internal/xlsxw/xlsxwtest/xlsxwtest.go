// Package xlsxwtest reads a workbook back with readers other than excelize,
// for tests: every xlsx Tatib writes must read back correctly in other tools.
package xlsxwtest

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Sheet is the first sheet as openpyxl sees it in read-only mode, which
// trusts the sheet's <dimension>.
type Sheet struct {
	// MaxRow and MaxColumn are what the dimension declares.
	MaxRow    int `json:"max_row"`
	MaxColumn int `json:"max_column"`
	// Rows holds every row iterated; dates come as ISO text
	// ("2025-07-15T06:30:00"), numbers as numbers, empty cells as null.
	Rows [][]any `json:"rows"`
	// Formulas counts the cells openpyxl reads as a formula.
	Formulas int `json:"formulas"`
}

const script = `
import json, sys, datetime
import openpyxl
wb = openpyxl.load_workbook(sys.argv[1], read_only=True)
ws = wb.worksheets[0]
rows, formulas = [], 0
for row in ws.iter_rows():
    out = []
    for c in row:
        v = c.value
        if getattr(c, "data_type", "") == "f":
            formulas += 1
        if isinstance(v, (datetime.datetime, datetime.date, datetime.time)):
            v = v.isoformat()
        out.append(v)
    rows.append(out)
print(json.dumps({"max_row": ws.max_row, "max_column": ws.max_column, "rows": rows, "formulas": formulas}))
`

// Python finds a python3 that can import openpyxl (Debian's python3-openpyxl
// lives under /usr/bin/python3, which a pyenv shim may hide).
func Python() (string, bool) {
	for _, p := range []string{"/usr/bin/python3", "python3"} {
		path, err := exec.LookPath(p)
		if err != nil {
			continue
		}
		if exec.Command(path, "-c", "import openpyxl").Run() == nil {
			return path, true
		}
	}
	return "", false
}

// Openpyxl reads data's first sheet with openpyxl in read-only mode. The
// machine must have it (CI installs python3-openpyxl).
func Openpyxl(t testing.TB, data []byte) Sheet {
	t.Helper()
	py, ok := Python()
	if !ok {
		t.Fatal("no python3 with openpyxl (apt-get install python3-openpyxl): the second reader of every xlsx test")
	}
	path := filepath.Join(t.TempDir(), "book.xlsx")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(py, "-c", script, path).Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("openpyxl: %v\n%s", err, stderr)
	}
	var s Sheet
	if err := json.Unmarshal(out, &s); err != nil {
		t.Fatalf("openpyxl output: %v\n%s", err, out)
	}
	return s
}

// LibreOffice converts data to CSV with soffice when the machine has it;
// ok is false otherwise.
func LibreOffice(t testing.TB, data []byte) (csv string, ok bool) {
	t.Helper()
	soffice, err := exec.LookPath("soffice")
	if err != nil {
		if os.Getenv("CI") != "" {
			// .ci/run installs LibreOffice: on CI a missing reader is a failure.
			t.Fatal("soffice not found; .ci/run installs libreoffice-calc-nogui")
		}
		return "", false
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "book.xlsx")
	if err := os.WriteFile(in, data, 0o600); err != nil {
		t.Fatal(err)
	}
	// A profile of its own: parallel tests would otherwise share (and lock)
	// the user's LibreOffice profile.
	profile := "-env:UserInstallation=file://" + filepath.Join(dir, "profile")
	if out, err := exec.Command(soffice, profile, "--headless", "--convert-to", "csv", "--outdir", dir, in).CombinedOutput(); err != nil {
		t.Fatalf("soffice: %v\n%s", err, out)
	}
	b, err := os.ReadFile(filepath.Join(dir, "book.csv"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b), true
}
