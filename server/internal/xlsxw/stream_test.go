package xlsxw_test

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/tatib/tatib/server/internal/xlsxw"
	"github.com/tatib/tatib/server/internal/xlsxw/xlsxwtest"
)

var dimension = regexp.MustCompile(`<dimension ref="([^"]*)"`)

func streamBook(t *testing.T, rows int, write func(s *xlsxw.Stream)) []byte {
	t.Helper()
	s, err := xlsxw.NewStream("Data", rows, xlsxw.Column{Title: "nama", Width: 30}, xlsxw.Column{Title: "poin", Width: 8},
		xlsxw.Column{Title: "tanggal", Width: 12}, xlsxw.Column{Title: "waktu"}, xlsxw.Column{Title: "dibuat"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	write(s)
	var buf bytes.Buffer
	if _, err := s.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestStream(t *testing.T) {
	jakarta := time.FixedZone("WIB", 7*3600)
	// 23:30 UTC is 06:30 the next day in Jakarta: the wall clock is written.
	at := time.Date(2025, 7, 14, 23, 30, 0, 0, time.UTC).In(jakarta)
	data := streamBook(t, len(risky)+1, func(s *xlsxw.Stream) {
		for _, v := range risky {
			if err := s.SetRow(v, 15, xlsxw.Date(at), xlsxw.Clock(at), xlsxw.DateTime(at)); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.SetRow("Terlambat", 2.5); err != nil {
			t.Fatal(err)
		}
	})
	if m := dimension.FindSubmatch(unzip(t, data)["xl/worksheets/sheet1.xml"]); m == nil || string(m[1]) != "A1:E9" {
		t.Fatalf("dimension %q, want A1:E9", m)
	}
	if bytes.Contains(unzip(t, data)["xl/worksheets/sheet1.xml"], []byte("<f>")) {
		t.Fatal("a formula element")
	}

	f, err := excelize.OpenReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := f.GetRows("Data")
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 9 || strings.Join(rows[0], ",") != "nama,poin,tanggal,waktu,dibuat" {
		t.Fatalf("rows %d, header %v", len(rows), rows[0])
	}
	for i, want := range risky {
		if rows[i+1][0] != want {
			t.Errorf("row %d: %q, want %q", i+2, rows[i+1][0], want)
		}
	}
	if v, _ := f.GetCellValue("Data", "C2", excelize.Options{RawCellValue: true}); v != "45853" {
		t.Errorf("date C2 = %q, want the serial of 15 July 2025", v)
	}
	if typ, _ := f.GetCellType("Data", "B2"); typ == excelize.CellTypeSharedString || typ == excelize.CellTypeInlineString {
		t.Errorf("points are text")
	}

	// The second reader trusts the dimension.
	sh := xlsxwtest.Openpyxl(t, data)
	if sh.MaxRow != 9 || sh.MaxColumn != 5 || len(sh.Rows) != 9 {
		t.Fatalf("openpyxl: %d×%d, %d rows", sh.MaxRow, sh.MaxColumn, len(sh.Rows))
	}
	if sh.Formulas != 0 {
		t.Errorf("openpyxl reads %d formulas", sh.Formulas)
	}
	if got := sh.Rows[1]; got[0] != risky[0] || got[1] != float64(15) || got[2] != "2025-07-15T00:00:00" ||
		got[3] != "06:30:00" || got[4] != "2025-07-15T06:30:00" {
		t.Errorf("openpyxl row 2: %#v", got)
	}
	if csv, ok := xlsxwtest.LibreOffice(t, data); ok && !strings.Contains(csv, "calc") {
		t.Errorf("LibreOffice evaluated a cell:\n%s", csv)
	}
}

func TestStreamRowCount(t *testing.T) {
	s, err := xlsxw.NewStream("Data", 1, xlsxw.Column{Title: "a"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.SetRow("x"); err != nil {
		t.Fatal(err)
	}
	if err := s.SetRow("y"); err == nil {
		t.Error("a row past the declared count was accepted")
	}
	s2, _ := xlsxw.NewStream("Data", 2, xlsxw.Column{Title: "a"})
	defer s2.Close()
	_ = s2.SetRow("x")
	if _, err := s2.WriteTo(&bytes.Buffer{}); err == nil {
		t.Error("fewer rows than declared were written without complaint")
	}
}

// The in-memory Book declares the range it wrote (excelize leaves A1), so
// openpyxl in read-only mode sees every column.
func TestBookDimension(t *testing.T) {
	data := build(t)
	if m := dimension.FindSubmatch(unzip(t, data)["xl/worksheets/sheet1.xml"]); m == nil || string(m[1]) != "A1:C9" {
		t.Fatalf("dimension %q, want A1:C9", m)
	}
	sh := xlsxwtest.Openpyxl(t, data)
	if sh.MaxColumn != 3 || sh.MaxRow != 9 || len(sh.Rows[0]) != 3 || sh.Rows[0][0] != "nama" || sh.Formulas != 0 {
		t.Fatalf("openpyxl: %d×%d, header %v, formulas %d", sh.MaxRow, sh.MaxColumn, sh.Rows[0], sh.Formulas)
	}
}
