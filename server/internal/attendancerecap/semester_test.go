package attendancerecap_test

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// semesterFixture: Budi's days around the semester boundaries of a school
// year starting 1 July, Citra's ties, Eko in class B.
func semesterFixture(t *testing.T) fixture {
	f := newFixture(t)
	s := f.s
	mark(t, s, f.budi, "2025-06-30", "SSSSSSSSSS") // 2024/2025 semester 2
	mark(t, s, f.budi, "2025-07-01", "SSSSSSSSSS") // 2025/2026 semester 1, first day
	mark(t, s, f.budi, "2025-12-31", "AAAAAHHHHH") // its last day: a tie, A
	mark(t, s, f.budi, "2026-01-01", "IIIIIIIIII") // semester 2, first day
	mark(t, s, f.citra, "2025-09-01", "HHHHHHHHTT")
	mark(t, s, f.citra, "2025-09-02", "TTTTTTHHHH")
	mark(t, s, f.citra, "2025-09-03", "IIIIISSSSS") // tie S-I: S
	mark(t, s, f.eko, "2025-09-04", "AAAAAAAAAA")
	return f
}

func TestSemesterJSON(t *testing.T) {
	f := semesterFixture(t)
	s := f.s
	path := fmt.Sprintf("/api/v1/classes/%d/attendance-semester", s.ClassA)

	var sem api.AttendanceSemester
	s.TeacherA.Do("GET", path+"?year=2025&semester=1", nil).Want(http.StatusOK).JSON(&sem)
	if sem.ClassName != "X RPL 1" || sem.Year != 2025 || sem.AcademicYear != "2025/2026" || sem.Semester != 1 ||
		sem.From != "2025-07-01" || sem.To != "2025-12-31" || sem.DayRule != "majority" || sem.HomeroomTeacher == "" {
		t.Fatalf("head %+v", sem)
	}
	// School days: 1 Jul, 1-4 Sep (Eko's too), 31 Dec.
	if sem.SchoolDays != 6 || len(sem.Students) != 3 {
		t.Fatalf("%d school days, %d students", sem.SchoolDays, len(sem.Students))
	}
	got := []string{}
	for _, st := range sem.Students {
		got = append(got, fmt.Sprintf("%d %s %s %s S%d I%d A%d H%d T%d r%d u%d", st.No, st.FullName, st.NISN, st.NIS,
			st.Sakit, st.Izin, st.Alpa, st.Hadir, st.Terlambat, st.DaysRecorded, st.DaysUnrecorded))
	}
	want := []string{
		"1 Budi Santoso 0051234567 2401 S1 I0 A1 H0 T0 r2 u4",
		"2 Citra Lestari 0057654321 2402 S1 I0 A0 H1 T1 r3 u3",
		"3 Dedi Jaya 0050000001 2403 S0 I0 A0 H0 T0 r0 u6",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("students:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if h := sem.Students[0].Hours; h != (api.AttendanceCounts{H: 5, S: 10, A: 5}) {
		t.Errorf("Budi's hours %+v", h)
	}
	// The recap's semester view counts the same days (another code path).
	r := recap(t, s.BK, s.ClassA, "period=semester&date=2025-09-01")
	if r.From != sem.From || r.To != sem.To || r.SchoolDays != sem.SchoolDays {
		t.Errorf("recap semester %s..%s, %d school days", r.From, r.To, r.SchoolDays)
	}
	for _, st := range sem.Students {
		rs := student(t, r, st.ID)
		if d := rs.DayCounts; d.S != st.Sakit || d.I != st.Izin || d.A != st.Alpa || d.H != st.Hadir || d.T != st.Terlambat ||
			rs.Counts != st.Hours || rs.DaysRecorded != st.DaysRecorded {
			t.Errorf("%s: recap %+v %+v, hand-off %+v", st.FullName, rs.DayCounts, rs.Counts, st)
		}
	}

	// The semesters either side, and the year written out.
	s.BK.Do("GET", path+"?year=2025/2026&semester=2", nil).Want(http.StatusOK).JSON(&sem)
	if sem.From != "2026-01-01" || sem.To != "2026-06-30" || sem.Students[0].Izin != 1 || sem.Students[0].Sakit != 0 || sem.SchoolDays != 1 {
		t.Errorf("semester 2: %+v", sem)
	}
	s.BK.Do("GET", path+"?year=2024&semester=2", nil).Want(http.StatusOK).JSON(&sem)
	if sem.To != "2025-06-30" || sem.Students[0].Sakit != 1 || sem.Students[0].DaysRecorded != 1 {
		t.Errorf("2024/2025 semester 2: %+v", sem.Students[0])
	}
	// No year or semester: the one containing Jakarta's today.
	s.BK.Do("GET", path, nil).Want(http.StatusOK).JSON(&sem)
	if sem.Year < 2025 || (sem.Semester != 1 && sem.Semester != 2) {
		t.Errorf("current semester %+v", sem)
	}

	// A school year from 15 July: 1 July belongs to the year before, and
	// semester 1 runs to 14 January (so 1 January is in it).
	s.Env.DB.MustExec(`INSERT INTO settings (key, value) VALUES ('school', '{"name": "SMK", "academic_year_start": "07-15"}')
		ON CONFLICT (key) DO UPDATE SET value = settings.value || '{"academic_year_start": "07-15"}'`)
	s.BK.Do("GET", path+"?year=2025&semester=1", nil).Want(http.StatusOK).JSON(&sem)
	if sem.From != "2025-07-15" || sem.To != "2026-01-14" || sem.Students[0].Sakit != 0 || sem.Students[0].Alpa != 1 || sem.Students[0].Izin != 1 {
		t.Errorf("from 15 July: %s..%s %+v", sem.From, sem.To, sem.Students[0])
	}
}

func TestSemesterValidation(t *testing.T) {
	f := newFixture(t)
	s := f.s
	for _, base := range []string{fmt.Sprintf("/api/v1/classes/%d/attendance-semester", s.ClassA),
		fmt.Sprintf("/api/v1/classes/%d/attendance-semester.xlsx", s.ClassA), "/api/v1/attendance-semester.xlsx"} {
		for _, c := range []struct{ query, field, key string }{
			{"year=abc&semester=1", "year", "attendancerecap.academic_year"},
			{"year=2025/2027&semester=1", "year", "attendancerecap.academic_year"},
			{"year=1999&semester=1", "year", "attendancerecap.year"},
			{"year=2025&semester=3", "semester", "attendancerecap.semester"},
			{"year=2025", "semester", "attendancerecap.semester"},
			{"semester=2", "year", "attendancerecap.academic_year"},
		} {
			e := s.BK.Do("GET", base+"?"+c.query, nil).Want(http.StatusUnprocessableEntity).Err()
			if e.Error.Code != "invalid" || e.Error.FieldCodes[c.field].Code != c.key {
				t.Errorf("%s?%s: %+v", base, c.query, e.Error)
			}
		}
	}
	// The recap's own semester period validates like the others.
	e := s.BK.Do("GET", fmt.Sprintf("/api/v1/classes/%d/attendance-recap?period=semester&date=2025-02-30", s.ClassA), nil).
		Want(http.StatusUnprocessableEntity).Err()
	if e.Error.FieldCodes["date"].Code != "attendancerecap.date" {
		t.Errorf("semester recap, bad date: %+v", e.Error)
	}
}

// TestSemesterScope: a homeroom teacher reads and downloads their own
// class only (another is 404, in SQL), and their "whole school" workbook
// holds their class alone; without attendance.export the files are 403,
// without attendance.view everything is.
func TestSemesterScope(t *testing.T) {
	f := semesterFixture(t)
	s := f.s
	q := "?year=2025&semester=1"
	s.TeacherA.Do("GET", fmt.Sprintf("/api/v1/classes/%d/attendance-semester%s", s.ClassA, q), nil).Want(http.StatusOK)
	s.TeacherA.Do("GET", fmt.Sprintf("/api/v1/classes/%d/attendance-semester.xlsx%s", s.ClassA, q), nil).Want(http.StatusOK)
	for _, p := range []string{
		fmt.Sprintf("/api/v1/classes/%d/attendance-semester%s", s.ClassB, q),
		fmt.Sprintf("/api/v1/classes/%d/attendance-semester.xlsx%s", s.ClassB, q),
		fmt.Sprintf("/api/v1/classes/%d/attendance-semester%s", s.ClassC, q),
		"/api/v1/classes/999999/attendance-semester" + q,
	} {
		if e := s.TeacherA.Do("GET", p, nil).Want(http.StatusNotFound).Err(); e.Error.Code != "not_found" {
			t.Errorf("%s: %+v", p, e.Error)
		}
	}
	for _, c := range []struct {
		who    string
		sheets string
	}{{"A", "X RPL 1"}, {"B", "XI TKJ 1"}, {"BK", "X RPL 1|X TKJ 2|XI TKJ 1"}} {
		client := map[string]*apitest.Client{"A": s.TeacherA, "B": s.TeacherB, "BK": s.BK}[c.who]
		res := client.Do("GET", "/api/v1/attendance-semester.xlsx"+q, nil).Want(http.StatusOK)
		x, err := excelize.OpenReader(bytes.NewReader(res.Body))
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(x.GetSheetList(), "|"); got != c.sheets {
			t.Errorf("%s's school workbook: %s, want %s", c.who, got, c.sheets)
		}
		x.Close()
	}
	// A homeroom teacher of no class has no workbook.
	s.Env.As(perm.WaliKelas).Do("GET", "/api/v1/attendance-semester.xlsx"+q, nil).Want(http.StatusNotFound)

	staff := s.Env.As(perm.Staff)
	for _, p := range []string{
		fmt.Sprintf("/api/v1/classes/%d/attendance-semester%s", s.ClassA, q),
		fmt.Sprintf("/api/v1/classes/%d/attendance-semester.xlsx%s", s.ClassA, q),
		"/api/v1/attendance-semester.xlsx" + q,
	} {
		staff.Do("GET", p, nil).Want(http.StatusForbidden)
	}
	s.Env.DB.MustExec(`INSERT INTO role_permissions (role, permission, granted) VALUES ('wali_kelas', $1, false)
		ON CONFLICT (role, permission) DO UPDATE SET granted = false`, string(perm.AttendanceExport))
	if err := s.Env.Deps.Auth.DropPermissionCache(t.Context()); err != nil {
		t.Fatal(err)
	}
	s.TeacherA.Do("GET", fmt.Sprintf("/api/v1/classes/%d/attendance-semester.xlsx%s", s.ClassA, q), nil).Want(http.StatusForbidden)
	s.TeacherA.Do("GET", "/api/v1/attendance-semester.xlsx"+q, nil).Want(http.StatusForbidden)
	s.TeacherA.Do("GET", fmt.Sprintf("/api/v1/classes/%d/attendance-semester%s", s.ClassA, q), nil).Want(http.StatusOK)
}

// TestSemesterExport reads the class and school workbooks back with
// excelize, openpyxl (read-only: it trusts each sheet's dimension) and
// LibreOffice: e-Rapor's column order, the days of the JSON, real dates,
// the request's language, and a name that looks like a formula kept as
// text.
func TestSemesterExport(t *testing.T) {
	f := semesterFixture(t)
	s := f.s
	const evilName = `=HYPERLINK("http://x","Zaki")`
	evil := s.Student(evilName, "0059999999", "2499", s.ClassC)
	mark(t, s, evil, "2025-10-01", "AAAAAAAAAA")

	res := s.BK.Do("GET", fmt.Sprintf("/api/v1/classes/%d/attendance-semester.xlsx?year=2025&semester=1", s.ClassA), nil).Want(http.StatusOK)
	if cd := res.Header.Get("Content-Disposition"); cd != `attachment; filename="ketidakhadiran-x-rpl-1-2025-2026-semester-1.xlsx"` {
		t.Errorf("content disposition %q", cd)
	}
	if ct := res.Header.Get("Content-Type"); ct != "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" {
		t.Errorf("content type %q", ct)
	}
	// title, homeroom, period, school days, rule, blank, header, 3 students, blank, 2 legend lines
	const header = "[No Nama Peserta Didik NISN NIS Sakit Izin Tanpa Keterangan Hadir Terlambat Hari tercatat Belum tercatat Jam H Jam S Jam I Jam A Jam T]"

	x, err := excelize.OpenReader(bytes.NewReader(res.Body))
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	if got := x.GetSheetList(); len(got) != 1 || got[0] != "X RPL 1" {
		t.Fatalf("sheets %v", got)
	}
	rows, err := x.GetRows("X RPL 1")
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 13 || fmt.Sprint(rows[6]) != header {
		t.Fatalf("excelize: %d rows, header %v", len(rows), rows[6])
	}
	if rows[0][0] != "Ketidakhadiran Semester 1 Tahun Ajaran 2025/2026 — Kelas X RPL 1" || rows[3][1] != "7" || !strings.HasPrefix(rows[4][1], "Status hari = status jam") {
		t.Errorf("title rows %v / %v / %v", rows[0], rows[3], rows[4])
	}
	// School days: 1 Jul, 1-4 Sep, 1 Oct, 31 Dec; Budi recorded 2.
	if got := fmt.Sprint(rows[7]); got != "[1 Budi Santoso 0051234567 2401 1 0 1 0 0 2 5 5 10 0 5 0]" {
		t.Errorf("Budi's row %s", got)
	}

	b := readOpenpyxl(t, res.Body)
	sh := b.Sheets["X RPL 1"]
	if sh.MaxRow != 13 || sh.MaxColumn != 16 || len(sh.Rows) != 13 {
		t.Fatalf("openpyxl: %d×%d, %d rows", sh.MaxRow, sh.MaxColumn, len(sh.Rows))
	}
	if sh.Rows[2][1] != "2025-07-01T00:00:00" || sh.Rows[2][3] != "2025-12-31T00:00:00" || fmt.Sprint(sh.Rows[6]) != header {
		t.Errorf("openpyxl period %v, header %v", sh.Rows[2], sh.Rows[6])
	}
	if c := sh.Rows[8]; c[1] != "Citra Lestari" || c[4] != float64(1) || c[5] != float64(0) || c[6] != float64(0) || c[7] != float64(1) || c[8] != float64(1) {
		t.Errorf("openpyxl Citra %v", c)
	}

	// The whole school in English: a sheet per class, in school order, each
	// with its own students.
	res = s.BK.Do("GET", "/api/v1/attendance-semester.xlsx?year=2025&semester=1", nil, "Accept-Language", "en").Want(http.StatusOK)
	if cd := res.Header.Get("Content-Disposition"); cd != `attachment; filename="ketidakhadiran-semua-kelas-2025-2026-semester-1.xlsx"` {
		t.Errorf("content disposition %q", cd)
	}
	b = readOpenpyxl(t, res.Body)
	if strings.Join(b.Names, "|") != "X RPL 1|X TKJ 2|XI TKJ 1" {
		t.Fatalf("sheets %v", b.Names)
	}
	eko := b.Sheets["XI TKJ 1"]
	if fmt.Sprint(eko.Rows[6][:7]) != "[No Student name NISN NIS Sick Excused Unexcused (alpa)]" || eko.Rows[7][1] != "Eko Prasetyo" || eko.Rows[7][6] != float64(1) ||
		eko.MaxRow != len(eko.Rows) || len(eko.Rows) != 11 || eko.Rows[0][0] != "Absences, Semester 1, Academic Year 2025/2026 — Class XI TKJ 1" {
		t.Errorf("Eko's sheet %v", eko.Rows)
	}
	// The formula-like name: a string cell with no formula.
	if c2 := b.Sheets["X TKJ 2"]; len(c2.Rows) != 11 || c2.Rows[7][1] != evilName || c2.Rows[7][6] != float64(1) {
		t.Errorf("class C's sheet %v", c2.Rows)
	}
	x, err = excelize.OpenReader(bytes.NewReader(res.Body))
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	if v, _ := x.GetCellValue("X TKJ 2", "B8"); v != evilName {
		t.Errorf("B8 %q", v)
	}
	if fm, _ := x.GetCellFormula("X TKJ 2", "B8"); fm != "" {
		t.Errorf("B8 is a formula: %q", fm)
	}
	// LibreOffice reads the school workbook (one conversion: it takes seconds).
	if lo, ok := readLibreOffice(t, res.Body); ok {
		if rows := lo["X RPL 1"]; len(rows) < 10 || rows[6][6] != "Unexcused (alpa)" || rows[7][1] != "Budi Santoso" || rows[7][4] != "1" || rows[7][6] != "1" {
			t.Errorf("LibreOffice class A's sheet: %v", rows)
		}
		if rows := lo["XI TKJ 1"]; len(rows) < 8 || rows[7][1] != "Eko Prasetyo" || rows[7][6] != "1" {
			t.Errorf("LibreOffice Eko's sheet %v", rows)
		}
		if rows := lo["X TKJ 2"]; len(rows) < 8 || rows[7][1] != evilName {
			t.Errorf("LibreOffice class C's sheet %v", rows)
		}
	}
}
