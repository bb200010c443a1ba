package violation_test

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/tatib/tatib/server/internal/violation"
	"github.com/tatib/tatib/server/internal/xlsxw/xlsxwtest"
	"github.com/tatib/tatib/shared/perm"
)

var headersID = []string{"No", "Tanggal", "Waktu", "NISN", "Nama Siswa", "Kelas", "Jurusan", "Jenis Pelanggaran", "Kategori", "Poin",
	"Sanksi", "Lokasi", "Deskripsi", "Dicatat Oleh", "Status Verifikasi", "Status Penanganan", "Penanganan", "Yang Menangani", "Tanggal Dibuat"}

const evil = `=cmd|' /C calc'!A0`

func TestExport(t *testing.T) {
	f := newFixture(t)
	s := f.s
	s.Env.DB.MustExec(`UPDATE violations SET description = $1, location = 'Kantin', sanction = 'Teguran' WHERE id = $2`, evil, f.vJournal)
	s.Handling(f.vBudi2, "2025-09-04", [2]string{"Pak Joko", "Wali Kelas"}, [2]string{"Budi Santoso", "Siswa"})
	s.Handling(f.vBudi2, "2025-09-08", [2]string{"Pak Joko", "Wali Kelas"})

	res := s.BK.Do("GET", "/api/v1/violations/export?sort=occurred_at", nil).Want(http.StatusOK)
	if ct := res.Header.Get("Content-Type"); ct != violation.XLSXContentType {
		t.Errorf("content type %q", ct)
	}
	if cd := res.Header.Get("Content-Disposition"); !regexp.MustCompile(`^attachment; filename="pelanggaran-\d{4}-\d{2}-\d{2}\.xlsx"$`).MatchString(cd) {
		t.Errorf("content disposition %q", cd)
	}
	data := res.Body

	// Reader 1: excelize.
	x, err := excelize.OpenReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	sheet := x.GetSheetList()[0]
	rows, err := x.GetRows(sheet)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 7 || strings.Join(rows[0], "|") != strings.Join(headersID, "|") {
		t.Fatalf("%d rows, header %q", len(rows), rows[0])
	}
	// Oldest first (sort=occurred_at): Budi1, CitraOld, Budi2, Dedi, Citra, Journal.
	byNo := map[int][]string{}
	for i, r := range rows[1:] {
		byNo[i+1] = r
	}
	budi2, journal := byNo[3], byNo[6]
	if budi2[4] != "Budi Santoso" || budi2[5] != "X RPL 1" || budi2[6] != "Rekayasa Perangkat Lunak" || budi2[8] != "Berat" ||
		budi2[9] != "40" || budi2[14] != "Terverifikasi" || budi2[15] != "Sedang Ditangani" {
		t.Errorf("Budi's second row: %q", budi2)
	}
	if budi2[16] != "Teguran Lisan, Teguran Lisan" || budi2[17] != "Budi Santoso (Siswa), Pak Joko (Wali Kelas)" {
		t.Errorf("handling columns: %q / %q", budi2[16], budi2[17])
	}
	if journal[13] != "Sinkron E-Jurnal" || journal[12] != evil || journal[14] != "Belum Diverifikasi" || journal[15] != "Belum Ditangani" {
		t.Errorf("journal row: %q", journal)
	}
	// Real dates: 23:30 UTC on 5 Sep is 6 Sep 06:30 in Jakarta.
	cell := func(ref string) string {
		v, err := x.GetCellValue(sheet, ref, excelize.Options{RawCellValue: true})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	if got := cell("B7"); got != "45906" { // 2025-09-06
		t.Errorf("date B7 = %q, want the serial of 6 Sep 2025", got)
	}
	if got := cell("C7"); !strings.HasPrefix(got, "0.2708") { // 06:30
		t.Errorf("time C7 = %q", got)
	}
	if typ, _ := x.GetCellType(sheet, "J2"); typ != excelize.CellTypeNumber && typ != excelize.CellTypeUnset {
		t.Errorf("points cell type %v", typ)
	}
	if formula, _ := x.GetCellFormula(sheet, "M7"); formula != "" {
		t.Errorf("description became a formula %q", formula)
	}
	styleID, _ := x.GetCellStyle(sheet, "M7")
	if st, _ := x.GetStyle(styleID); st == nil || st.NumFmt != 49 {
		t.Errorf("description style %+v, want text", st)
	}
	if af := autofilter.FindSubmatch(sheetXML(t, data)); af == nil || strings.ReplaceAll(string(af[1]), "$", "") != "A1:S1" {
		t.Errorf("autofilter %q", af)
	}
	if w, _ := x.GetColWidth(sheet, "E"); w < 14 {
		t.Errorf("student name column width %v", w)
	}

	// Reader 2: openpyxl in read-only mode trusts the dimension.
	py := xlsxwtest.Openpyxl(t, data)
	if py.MaxColumn != 19 || py.MaxRow != 7 || len(py.Rows) != 7 || len(py.Rows[0]) != 19 || py.Formulas != 0 {
		t.Fatalf("openpyxl: %d×%d, %d rows, %d formulas", py.MaxRow, py.MaxColumn, len(py.Rows), py.Formulas)
	}
	j := py.Rows[6]
	if j[0] != float64(6) || j[1] != "2025-09-06T00:00:00" || j[2] != "06:30:00" || j[13] != "Sinkron E-Jurnal" || j[12] != evil || j[9] != float64(3) {
		t.Errorf("openpyxl journal row: %#v", j)
	}
	if !strings.HasPrefix(fmt.Sprint(j[18]), time.Now().In(jakarta(t)).Format("2006-01-02")) {
		t.Errorf("created at %v", j[18])
	}
	// Reader 3: LibreOffice opens it and sees every row and column, with
	// the formula-looking description as text.
	if out, ok := xlsxwtest.LibreOffice(t, data); ok {
		recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if err != nil {
			t.Fatalf("LibreOffice CSV: %v\n%s", err, out)
		}
		if len(recs) != 7 || len(recs[0]) != 19 || recs[6][13] != "Sinkron E-Jurnal" || recs[6][12] != evil {
			t.Errorf("LibreOffice read %d rows, first of %d columns:\n%s", len(recs), len(recs[0]), out)
		}
	}
}

var autofilter = regexp.MustCompile(`<autoFilter ref="([^"]*)"`)

func sheetXML(t *testing.T, data []byte) []byte {
	t.Helper()
	x, err := excelize.OpenReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	// excelize keeps the raw part of a sheet it has not parsed.
	b, ok := x.Pkg.Load("xl/worksheets/sheet1.xml")
	if !ok {
		t.Fatal("no sheet1.xml")
	}
	return b.([]byte)
}

func jakarta(t *testing.T) *time.Location {
	l, err := time.LoadLocation("Asia/Jakarta")
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestExportEnglishFilteredScoped(t *testing.T) {
	f := newFixture(t)
	s := f.s
	res := s.BK.Do("GET", "/api/v1/violations/export?recorder=journal", nil, "Accept-Language", "en").Want(http.StatusOK)
	py := xlsxwtest.Openpyxl(t, res.Body)
	if len(py.Rows) != 2 || py.Rows[0][1] != "Date" || py.Rows[0][13] != "Recorded By" || py.Rows[1][13] != "E-Journal sync" ||
		py.Rows[1][15] != "Not Handled" {
		t.Errorf("English export: %#v", py.Rows)
	}
	// Nothing matches: a header row only, still 19 columns.
	res = s.BK.Do("GET", "/api/v1/violations/export?from=2030-01-01", nil).Want(http.StatusOK)
	if py := xlsxwtest.Openpyxl(t, res.Body); len(py.Rows) != 1 || py.MaxColumn != 19 {
		t.Errorf("empty export: %#v", py)
	}
	// A homeroom teacher may not export by default; with the permission
	// the export is scoped like the list.
	s.TeacherA.Do("GET", "/api/v1/violations/export", nil).Want(http.StatusForbidden)
	s.Env.DB.MustExec(`INSERT INTO role_permissions (role, permission, granted) VALUES ('wali_kelas', $1, true) ON CONFLICT (role, permission) DO UPDATE SET granted = true`, string(perm.ViolationsExport))
	if err := s.Env.Deps.Auth.DropPermissionCache(t.Context()); err != nil {
		t.Fatal(err)
	}
	res = s.TeacherA.Do("GET", "/api/v1/violations/export", nil).Want(http.StatusOK)
	py = xlsxwtest.Openpyxl(t, res.Body)
	if len(py.Rows) != 4 {
		t.Fatalf("teacher A export: %d rows", len(py.Rows))
	}
	for _, r := range py.Rows[1:] {
		if r[4] != "Budi Santoso" && r[4] != "Citra Lestari" {
			t.Errorf("teacher A export holds %v", r[4])
		}
	}
}
