package xlsxw_test

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/tatib/tatib/server/internal/xlsxw"
)

// Values a spreadsheet would evaluate when typed (OWASP's CSV injection
// list, plus leading spaces that Excel trims).
var risky = []string{
	`=cmd|' /C calc'!A0`,
	`+SUM(1,2)`,
	`-2+3`,
	`@SUM(A1:A2)`,
	"\t=1+1",
	"\r=1+1",
	`  =HYPERLINK("http://x","y")`,
}

func build(t *testing.T) []byte {
	t.Helper()
	b, err := xlsxw.New()
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	s, err := b.Sheet("Data")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Header(xlsxw.Column{Title: "nama", Width: 30}, xlsxw.Column{Title: "poin", Width: 8}, xlsxw.Column{Title: "tanggal"}); err != nil {
		t.Fatal(err)
	}
	for _, v := range risky {
		if err := s.SetRow(v, 15, time.Date(2025, 7, 14, 0, 0, 0, 0, time.UTC)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SetRow("Terlambat", 2.5, nil); err != nil {
		t.Fatal(err)
	}
	out, err := b.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestRiskyTextIsNeverAFormula(t *testing.T) {
	data := build(t)

	// Reader 1: excelize.
	f, err := excelize.OpenReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := f.GetSheetList(); len(got) != 1 || got[0] != "Data" {
		t.Fatalf("sheets %v", got)
	}
	for i, want := range risky {
		cell := "A" + string(rune('2'+i))
		if formula, _ := f.GetCellFormula("Data", cell); formula != "" {
			t.Errorf("%s: formula %q", cell, formula)
		}
		if typ, _ := f.GetCellType("Data", cell); typ != excelize.CellTypeSharedString {
			t.Errorf("%s: type %v, want a string", cell, typ)
		}
		if got, _ := f.GetCellValue("Data", cell); got != want {
			t.Errorf("%s: value %q, want %q (unchanged)", cell, got, want)
		}
		if typ, _ := f.GetCellType("Data", "B"+string(rune('2'+i))); typ == excelize.CellTypeSharedString {
			t.Errorf("points became text")
		}
	}
	if v, _ := f.GetCellValue("Data", "C2", excelize.Options{RawCellValue: true}); v != "45852" {
		t.Errorf("date C2 = %q, want the serial 45852", v)
	}

	// Reader 2: the raw package. No <f> anywhere, every risky cell is t="s"
	// with a style whose xf has quotePrefix.
	parts := unzip(t, data)
	sheet := parts["xl/worksheets/sheet1.xml"]
	if bytes.Contains(sheet, []byte("<f>")) || bytes.Contains(sheet, []byte("<f ")) {
		t.Fatalf("sheet has a formula element:\n%s", sheet)
	}
	var ws struct {
		Rows []struct {
			Cells []struct {
				R string `xml:"r,attr"`
				T string `xml:"t,attr"`
				S int    `xml:"s,attr"`
			} `xml:"c"`
		} `xml:"sheetData>row"`
		AutoFilter struct {
			Ref string `xml:"ref,attr"`
		} `xml:"autoFilter"`
	}
	if err := xml.Unmarshal(sheet, &ws); err != nil {
		t.Fatal(err)
	}
	if ref := strings.ReplaceAll(ws.AutoFilter.Ref, "$", ""); ref != "A1:C1" {
		t.Errorf("autofilter %q", ws.AutoFilter.Ref)
	}
	var styles struct {
		Xfs []struct {
			QuotePrefix bool `xml:"quotePrefix,attr"`
		} `xml:"cellXfs>xf"`
	}
	if err := xml.Unmarshal(parts["xl/styles.xml"], &styles); err != nil {
		t.Fatal(err)
	}
	for _, row := range ws.Rows[1 : 1+len(risky)] {
		c := row.Cells[0]
		if c.T != "s" {
			t.Errorf("%s: t=%q, want s", c.R, c.T)
		}
		if c.S >= len(styles.Xfs) || !styles.Xfs[c.S].QuotePrefix {
			t.Errorf("%s: style %d without quotePrefix", c.R, c.S)
		}
	}
	// Plain text is a plain text cell.
	last := ws.Rows[len(ws.Rows)-1].Cells[0]
	if last.T != "s" || styles.Xfs[last.S].QuotePrefix {
		t.Errorf("plain text cell %+v", last)
	}

	// Reader 3 when the machine has one: LibreOffice's CSV export shows what
	// a spreadsheet computes.
	if soffice, err := exec.LookPath("soffice"); err == nil {
		dir := t.TempDir()
		in := filepath.Join(dir, "x.xlsx")
		if err := os.WriteFile(in, data, 0o600); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(soffice, "--headless", "--convert-to", "csv", "--outdir", dir, in).CombinedOutput(); err != nil {
			t.Fatalf("soffice: %v\n%s", err, out)
		}
		csv, _ := os.ReadFile(filepath.Join(dir, "x.csv"))
		if !strings.Contains(string(csv), "calc") {
			t.Fatalf("LibreOffice evaluated a cell:\n%s", csv)
		}
	}
}

func TestRisky(t *testing.T) {
	for _, v := range risky {
		if !xlsxw.Risky(v) {
			t.Errorf("Risky(%q) = false", v)
		}
	}
	for _, v := range []string{"", "Terlambat", "a=b", "3 - 2", " x"} {
		if xlsxw.Risky(v) {
			t.Errorf("Risky(%q) = true", v)
		}
	}
}

func unzip(t *testing.T, data []byte) map[string][]byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, zf := range zr.File {
		rc, err := zf.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(rc)
		_ = rc.Close()
		out[zf.Name] = b
	}
	return out
}
