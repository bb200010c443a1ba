package attendancerecap_test

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tatib/tatib/server/internal/xlsxw/xlsxwtest"
)

// openpyxlBook reads every sheet of data with openpyxl in read-only mode
// (which trusts each sheet's <dimension>): sheet name -> rows.
const openpyxlBook = `
import json, sys, datetime
import openpyxl
wb = openpyxl.load_workbook(sys.argv[1], read_only=True)
out = {"names": wb.sheetnames, "sheets": {}}
for ws in wb.worksheets:
    rows = []
    for row in ws.iter_rows():
        vals = []
        for c in row:
            v = c.value
            if isinstance(v, (datetime.datetime, datetime.date)):
                v = v.isoformat()
            vals.append(v)
        rows.append(vals)
    out["sheets"][ws.title] = {"max_row": ws.max_row, "max_column": ws.max_column, "rows": rows}
print(json.dumps(out))
`

type pySheet struct {
	MaxRow    int     `json:"max_row"`
	MaxColumn int     `json:"max_column"`
	Rows      [][]any `json:"rows"`
}

type pyBook struct {
	Names  []string           `json:"names"`
	Sheets map[string]pySheet `json:"sheets"`
}

func readOpenpyxl(t *testing.T, data []byte) pyBook {
	t.Helper()
	py, ok := xlsxwtest.Python()
	if !ok {
		t.Fatal("no python3 with openpyxl (apt-get install python3-openpyxl)")
	}
	path := filepath.Join(t.TempDir(), "book.xlsx")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(py, "-c", openpyxlBook, path).Output()
	if err != nil {
		t.Fatalf("openpyxl: %v", err)
	}
	var b pyBook
	if err := json.Unmarshal(out, &b); err != nil {
		t.Fatalf("openpyxl output: %v\n%s", err, out)
	}
	return b
}

// readLibreOffice converts every sheet to CSV with soffice (the filter's
// last option, -1, writes one file per sheet: book-<sheet>.csv), as
// xlsxwtest.LibreOffice does for the first sheet; ok is false when the
// machine has no LibreOffice (CI has it: missing there is a failure).
func readLibreOffice(t *testing.T, data []byte) (map[string][][]string, bool) {
	t.Helper()
	soffice, err := exec.LookPath("soffice")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("soffice not found; .ci/run installs libreoffice-calc-nogui")
		}
		return nil, false
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "book.xlsx")
	if err := os.WriteFile(in, data, 0o600); err != nil {
		t.Fatal(err)
	}
	profile := "-env:UserInstallation=file://" + filepath.Join(dir, "profile")
	filter := "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1"
	if out, err := exec.Command(soffice, profile, "--headless", "--convert-to", filter, "--outdir", dir, in).CombinedOutput(); err != nil {
		t.Fatalf("soffice: %v\n%s", err, out)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "book-*.csv"))
	out := map[string][][]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		r := csv.NewReader(strings.NewReader(string(b)))
		r.FieldsPerRecord = -1
		recs, err := r.ReadAll()
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "book-"), ".csv")] = recs
	}
	return out, true
}

func TestWeeklyExport(t *testing.T) {
	f := newFixture(t)
	s := f.s
	mark(t, s, f.budi, "2025-11-03", "AAHHHHHHHH")
	mark(t, s, f.budi, "2025-11-04", "HHHHHHHHHH")
	mark(t, s, f.citra, "2025-11-09", "TH") // Sunday of the same week
	mark(t, s, f.citra, "2025-11-10", "AA") // next week
	mark(t, s, f.eko, "2025-11-05", "SSSSSSSSSS")

	// One class, asked on the Sunday: the week of 3..9 November.
	res := s.BK.Do("GET", fmt.Sprintf("/api/v1/classes/%d/attendance-recap/weekly.xlsx?date=2025-11-09", s.ClassA), nil).Want(http.StatusOK)
	if cd := res.Header.Get("Content-Disposition"); cd != `attachment; filename="rekap-absensi-mingguan-x-rpl-1-2025-11-03.xlsx"` {
		t.Errorf("content disposition %q", cd)
	}
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/vnd.openxmlformats-officedocument.spreadsheetml") {
		t.Errorf("content type %q", ct)
	}
	b := readOpenpyxl(t, res.Body)
	if strings.Join(b.Names, "|") != "X RPL 1|Keterangan" {
		t.Fatalf("sheets %v", b.Names)
	}
	sh := b.Sheets["X RPL 1"]
	// title, week, blank, header, 3 students, 2 totals, blank, 2 legend lines
	if sh.MaxRow != 12 || sh.MaxColumn != 16 || len(sh.Rows) != 12 {
		t.Fatalf("openpyxl: %d×%d, %d rows", sh.MaxRow, sh.MaxColumn, len(sh.Rows))
	}
	if sh.Rows[0][0] != "Rekap Absensi Mingguan — Kelas X RPL 1" || sh.Rows[1][0] != "Minggu" ||
		sh.Rows[1][1] != "2025-11-03T00:00:00" || sh.Rows[1][3] != "2025-11-09T00:00:00" {
		t.Errorf("title rows %v / %v", sh.Rows[0], sh.Rows[1])
	}
	head := fmt.Sprint(sh.Rows[3])
	if head != "[No NISN Nama Sen 03/11 Sel 04/11 Rab 05/11 Kam 06/11 Jum 07/11 Sab 08/11 Min 09/11 H S I A T Kehadiran %]" {
		t.Errorf("header %s", head)
	}
	budi := sh.Rows[4]
	if budi[0] != float64(1) || budi[1] != "0051234567" || budi[2] != "Budi Santoso" || budi[3] != "H8 A2" || budi[4] != "H10" ||
		budi[5] != nil || budi[10] != float64(18) || budi[13] != float64(2) || budi[15] != float64(90) {
		t.Errorf("Budi's row %v", budi)
	}
	citra := sh.Rows[5]
	if citra[2] != "Citra Lestari" || citra[9] != "H1 T1" || citra[10] != float64(1) || citra[14] != float64(1) || citra[15] != float64(100) {
		t.Errorf("Citra's row %v", citra)
	}
	if dedi := sh.Rows[6]; dedi[2] != "Dedi Jaya" || dedi[10] != float64(0) || dedi[15] != nil {
		t.Errorf("Dedi's row %v", dedi)
	}
	// Students per status count each student once: Budi's 2 A hours = 1.
	if tot := sh.Rows[8]; tot[2] != "Jumlah siswa" || tot[10] != float64(2) || tot[13] != float64(1) || tot[14] != float64(1) {
		t.Errorf("students line %v", tot)
	}
	if !strings.HasPrefix(fmt.Sprint(sh.Rows[10][0]), "Keterangan: H = Hadir, S = Sakit, I = Izin, A = Alpha") {
		t.Errorf("legend line %v", sh.Rows[10])
	}
	lg := b.Sheets["Keterangan"]
	if len(lg.Rows) < 6 || lg.Rows[4][0] != "A" || lg.Rows[5][1] != "Terlambat" {
		t.Errorf("legend sheet %v", lg.Rows)
	}

	if lo, ok := readLibreOffice(t, res.Body); ok {
		rows := lo["X RPL 1"]
		if len(rows) < 10 || rows[3][2] != "Nama" || rows[4][2] != "Budi Santoso" || rows[4][3] != "H8 A2" || rows[4][15] != "90" ||
			!regexp.MustCompile(`^(11/03/(20)?25|03/11/(20)?25|2025-11-03)$`).MatchString(rows[1][1]) {
			t.Errorf("LibreOffice sheet: %v", rows)
		}
		if _, ok := lo["Keterangan"]; !ok {
			t.Errorf("LibreOffice sheets %v", keys(lo))
		}
	}

	// Several classes, in English: one sheet per class in school order.
	res = s.BK.Do("GET", fmt.Sprintf("/api/v1/attendance-recap/weekly.xlsx?date=2025-11-05&class_id=%d&class_id=%d", s.ClassB, s.ClassA), nil,
		"Accept-Language", "en").Want(http.StatusOK)
	if cd := res.Header.Get("Content-Disposition"); cd != `attachment; filename="rekap-absensi-mingguan-2-kelas-2025-11-03.xlsx"` {
		t.Errorf("content disposition %q", cd)
	}
	b = readOpenpyxl(t, res.Body)
	if strings.Join(b.Names, "|") != "X RPL 1|XI TKJ 1|Legend" {
		t.Fatalf("sheets %v", b.Names)
	}
	eko := b.Sheets["XI TKJ 1"]
	if fmt.Sprint(eko.Rows[3][:4]) != "[No NISN Name Mon 03/11]" || eko.Rows[4][2] != "Eko Prasetyo" || eko.Rows[4][5] != "S10" ||
		eko.Rows[4][11] != float64(10) || eko.Rows[4][15] != float64(0) {
		t.Errorf("Eko's sheet %v / %v", eko.Rows[3], eko.Rows[4])
	}
	if lo, ok := readLibreOffice(t, res.Body); ok {
		if rows := lo["XI TKJ 1"]; len(rows) < 5 || rows[4][2] != "Eko Prasetyo" || rows[4][5] != "S10" {
			t.Errorf("LibreOffice Eko's sheet %v", rows)
		}
	}

	// No class chosen: every class the caller may see (teacher A: theirs).
	res = s.TeacherA.Do("GET", "/api/v1/attendance-recap/weekly.xlsx?date=2025-11-05", nil).Want(http.StatusOK)
	if b := readOpenpyxl(t, res.Body); strings.Join(b.Names, "|") != "X RPL 1|Keterangan" {
		t.Errorf("teacher A's sheets %v", b.Names)
	}
	res = s.BK.Do("GET", "/api/v1/attendance-recap/weekly.xlsx?date=2025-11-05", nil).Want(http.StatusOK)
	if b := readOpenpyxl(t, res.Body); len(b.Names) != 4 {
		t.Errorf("BK's sheets %v", b.Names)
	}
	// Past the limit of classes.
	q := "/api/v1/attendance-recap/weekly.xlsx?date=2025-11-05"
	for i := 1; i <= 61; i++ {
		q += fmt.Sprintf("&class_id=%d", i)
	}
	if e := s.BK.Do("GET", q, nil).Want(http.StatusUnprocessableEntity).Err(); e.Error.FieldCodes["class_id"].Code != "attendancerecap.export.too_many" {
		t.Errorf("61 classes: %+v", e.Error)
	}
}

func keys(m map[string][][]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
