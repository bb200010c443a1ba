package report_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/server/internal/violation/vltest"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

var jakarta = func() *time.Location {
	l, err := time.LoadLocation("Asia/Jakarta")
	if err != nil {
		panic(err)
	}
	return l
}()

func at(day string, hour int) time.Time {
	d, err := time.ParseInLocation(time.DateOnly, day, jakarta)
	if err != nil {
		panic(err)
	}
	return d.Add(time.Duration(hour) * time.Hour)
}

// fixture: November 2026. Budi (class A) three violations, one of them
// recorded while he was in class C; Citra (A) one; Eko (B) one in
// November and one in October (outside).
type fixture struct {
	s                 *vltest.School
	budi, citra, eko  int64
	budiHeavy, ekoOct int64
}

func newFixture(t *testing.T) fixture {
	s := vltest.New(t)
	f := fixture{s: s,
		budi:  s.Student("Budi Santoso", "0051234567", "2401", s.ClassA),
		citra: s.Student("Citra Lestari", "0057654321", "2402", s.ClassA),
		eko:   s.Student("Eko Prasetyo", "0050000002", "2404", s.ClassB),
	}
	s.Violation(vltest.V{Student: f.budi, At: at("2026-11-03", 7), Points: 5})
	f.budiHeavy = s.Violation(vltest.V{Student: f.budi, Type: s.TypeHeavy, At: at("2026-11-10", 9), Points: 40,
		Description: "Berkelahi di kantin", Status: api.HandlingInProgress})
	s.Violation(vltest.V{Student: f.budi, Class: s.ClassC, At: at("2026-11-12", 8), Points: 5})
	s.Violation(vltest.V{Student: f.citra, Type: s.TypeLight2, At: at("2026-11-05", 7), Points: 10, Status: api.HandlingResolved})
	s.Violation(vltest.V{Student: f.eko, Type: s.TypeHeavy, At: at("2026-11-07", 10), Points: 40})
	f.ekoOct = s.Violation(vltest.V{Student: f.eko, At: at("2026-10-30", 7), Points: 5})
	// Budi reached SP 1 in November; a withdrawn SP 2 does not count, nor
	// does a letter of the academic year before.
	s.Env.DB.MustExec(`INSERT INTO warning_letters (student_id, class_id, class_name, level, name, min_points, academic_year_start, points, status, issued_at)
		VALUES ($1, $2, 'X RPL 1', 1, 'SP 1', 25, '2026-07-01', 45, 'printed', $3),
		       ($1, $2, 'X RPL 1', 2, 'SP 2', 50, '2026-07-01', 50, 'withdrawn', $3),
		       ($4, $5, 'XI TKJ 1', 3, 'SP 3', 75, '2025-07-01', 80, 'delivered', $6)`,
		f.budi, s.ClassA, at("2026-11-10", 10), f.eko, s.ClassB, at("2026-03-01", 10))
	return f
}

func get(t *testing.T, c *apitest.Client, query string) api.ViolationRecap {
	t.Helper()
	var out api.ViolationRecap
	c.Do("GET", "/api/v1/reports/violation-recap?"+query, nil).Want(http.StatusOK).JSON(&out)
	return out
}

func catIndex(t *testing.T, r api.ViolationRecap, id int64) int {
	t.Helper()
	for i, c := range r.Categories {
		if c.ID == id {
			return i
		}
	}
	t.Fatalf("category %d not in the report", id)
	return -1
}

func TestFiguresOfAMonth(t *testing.T) {
	f := newFixture(t)
	s := f.s
	r := get(t, s.BK, "month=2026-11")
	if r.Period.Kind != api.RecapPeriodMonth || r.Period.From != "2026-11-01" || r.Period.To != "2026-11-30" {
		t.Errorf("period %+v", r.Period)
	}
	if r.Scope.Kind != api.RecapScopeSchool {
		t.Errorf("scope %+v", r.Scope)
	}
	if r.Totals != (api.RecapTotals{Violations: 5, Students: 3, Points: 100}) {
		t.Errorf("totals %+v, want 5 violations, 3 students, 100 points", r.Totals)
	}
	light, heavy := catIndex(t, r, s.CatLight), catIndex(t, r, s.CatHeavy)
	type cls struct {
		name                   string
		v, st, p, light, heavy int
	}
	want := []cls{{"X RPL 1", 3, 2, 55, 2, 1}, {"X TKJ 2", 1, 1, 5, 1, 0}, {"XI TKJ 1", 1, 1, 40, 0, 1}}
	if len(r.Classes) != len(want) {
		t.Fatalf("classes %+v", r.Classes)
	}
	for i, w := range want {
		c := r.Classes[i]
		got := cls{c.ClassName, c.Violations, c.Students, c.Points, c.ByCategory[light], c.ByCategory[heavy]}
		if got != w {
			t.Errorf("class %d: %+v, want %+v", i, got, w)
		}
	}
	if len(r.Students) != 3 {
		t.Fatalf("students %+v", r.Students)
	}
	// By points: Budi 50, Eko 40, Citra 10.
	b, e, c := r.Students[0], r.Students[1], r.Students[2]
	if b.StudentID != f.budi || b.Violations != 3 || b.Points != 50 || b.SPLevel != 1 || b.SPName != "SP 1" || b.ClassName != "X TKJ 2" {
		t.Errorf("Budi %+v (SP 1 only: the withdrawn SP 2 does not count; class of his latest violation)", b)
	}
	if e.StudentID != f.eko || e.Points != 40 || e.SPLevel != 0 {
		t.Errorf("Eko %+v (last year's SP 3 is not this year's)", e)
	}
	if c.StudentID != f.citra || c.Points != 10 || c.SPLevel != 0 {
		t.Errorf("Citra %+v", c)
	}
	if len(r.Details) != 5 || r.Details[0].OccurredOn != "2026-11-03" || r.Details[4].OccurredOn != "2026-11-12" {
		t.Fatalf("details %+v", r.Details)
	}
	var heavyRow api.RecapDetailRow
	for _, d := range r.Details {
		if d.ID == f.budiHeavy {
			heavyRow = d
		}
		if d.ID == f.ekoOct {
			t.Errorf("October's violation is in November's report")
		}
	}
	if heavyRow.TypeName != "Berkelahi" || heavyRow.Description != "Berkelahi di kantin" || heavyRow.ClassName != "X RPL 1" ||
		heavyRow.Points != 40 || heavyRow.HandlingStatus != api.HandlingInProgress || heavyRow.StudentName != "Budi Santoso" {
		t.Errorf("detail row %+v", heavyRow)
	}

	// Paging the detail rows.
	p := get(t, s.BK, "month=2026-11&detail_offset=3&detail_limit=2")
	if len(p.Details) != 2 || p.Details[0].ID != r.Details[3].ID || p.DetailOffset != 3 || p.DetailLimit != 2 || p.Totals.Violations != 5 {
		t.Errorf("page %+v", p.Details)
	}

	// Scopes: grade 10 is classes A and C, department TKJ classes B and C,
	// class C the one violation recorded while Budi was in it.
	if g := get(t, s.BK, "month=2026-11&grade=10"); g.Totals.Violations != 4 || g.Scope.Kind != api.RecapScopeGrade || g.Scope.Grade != 10 {
		t.Errorf("grade 10: %+v %+v", g.Totals, g.Scope)
	}
	if d := get(t, s.BK, fmt.Sprintf("month=2026-11&department_id=%d", s.DeptTKJ)); d.Totals.Violations != 2 || d.Scope.DepartmentName != "Teknik Komputer dan Jaringan" {
		t.Errorf("TKJ: %+v %+v", d.Totals, d.Scope)
	}
	if c := get(t, s.BK, fmt.Sprintf("month=2026-11&class_id=%d", s.ClassC)); c.Totals.Violations != 1 || c.Scope.ClassName != "X TKJ 2" || c.Students[0].StudentID != f.budi {
		t.Errorf("class C: %+v %+v", c.Totals, c.Scope)
	}

	// Other periods: the range across October, the semester and the year.
	if x := get(t, s.BK, "from=2026-10-01&to=2026-11-30"); x.Totals.Violations != 6 || x.Period.Kind != api.RecapPeriodRange {
		t.Errorf("range: %+v %+v", x.Totals, x.Period)
	}
	if x := get(t, s.BK, "academic_year=2026&semester=1"); x.Totals.Violations != 6 || x.Period.From != "2026-07-01" || x.Period.To != "2026-12-31" {
		t.Errorf("semester 1: %+v %+v", x.Totals, x.Period)
	}
	if x := get(t, s.BK, "period=semester&academic_year=2026&semester=2"); x.Totals.Violations != 0 || x.Period.From != "2027-01-01" || x.Period.To != "2027-06-30" {
		t.Errorf("semester 2: %+v %+v", x.Totals, x.Period)
	}
	if x := get(t, s.BK, "academic_year=2026"); x.Totals.Violations != 6 || x.Period.Kind != api.RecapPeriodAcademicYear || x.Period.To != "2027-06-30" {
		t.Errorf("academic year: %+v %+v", x.Totals, x.Period)
	}
	if x := get(t, s.BK, "month=2026-12"); x.Totals.Violations != 0 || len(x.Classes) != 0 || len(x.Students) != 0 || x.Details == nil {
		t.Errorf("empty month: %+v", x)
	}
}

// A homeroom teacher gets their own class (as it was that day) and
// nothing else, whatever they ask.
func TestHomeroomTeacherOwnClassOnly(t *testing.T) {
	f := newFixture(t)
	s := f.s
	for _, q := range []string{"month=2026-11", fmt.Sprintf("month=2026-11&class_id=%d", s.ClassA)} {
		r := get(t, s.TeacherA, q)
		if r.Scope.Kind != api.RecapScopeClass || r.Scope.ClassID != s.ClassA || r.Totals.Violations != 3 || len(r.Classes) != 1 {
			t.Errorf("%s: %+v %+v %+v", q, r.Scope, r.Totals, r.Classes)
		}
		for _, d := range r.Details {
			if d.ClassName != "X RPL 1" {
				t.Errorf("%s: a row of %s", q, d.ClassName)
			}
		}
	}
	refused := []string{
		fmt.Sprintf("class_id=%d", s.ClassB),
		fmt.Sprintf("class_id=%d", s.ClassC), // Budi's class of that day, not the teacher's
		"class_id=999999",
		"grade=10", // their own class's grade still holds other classes
		"grade=11",
		fmt.Sprintf("department_id=%d", s.DeptRPL),
		fmt.Sprintf("department_id=%d", s.DeptTKJ),
		"department_id=999999",
	}
	for _, q := range refused {
		for _, path := range []string{"/api/v1/reports/violation-recap?month=2026-11&", "/api/v1/reports/violation-recap.pdf?month=2026-11&"} {
			res := s.TeacherA.Do("GET", path+q, nil).Want(http.StatusForbidden)
			if e := res.Err(); e.Error.MessageCode != "report.scope.own_class_only" {
				t.Errorf("%s%s: %s", path, q, e.Error.MessageCode)
			}
			if strings.Contains(string(res.Body), "Budi") || strings.Contains(string(res.Body), "Eko") {
				t.Errorf("%s%s: the refusal names a student", path, q)
			}
		}
	}
	// Two scopes at once is a field error for everyone.
	e := s.TeacherA.Do("GET", fmt.Sprintf("/api/v1/reports/violation-recap?class_id=%d&grade=10", s.ClassA), nil).Want(http.StatusUnprocessableEntity).Err()
	if e.Error.FieldCodes["grade"].Code != "report.scope.one" {
		t.Errorf("two scopes: %+v", e.Error.FieldCodes)
	}
	// Teacher B sees Eko only.
	if r := get(t, s.TeacherB, "month=2026-11"); r.Totals.Violations != 1 || r.Students[0].StudentID != f.eko {
		t.Errorf("teacher B: %+v", r.Totals)
	}
	// A homeroom teacher without a class has no report.
	lone := s.Env.As(perm.WaliKelas)
	if r := get(t, lone, "month=2026-11"); r.Scope.Kind != api.RecapScopeClass || r.Scope.ClassID != 0 || r.Totals.Violations != 0 || len(r.Classes) != 0 {
		t.Errorf("no class: %+v %+v", r.Scope, r.Totals)
	}
	lone.Do("GET", "/api/v1/reports/violation-recap.pdf?month=2026-11", nil).Want(http.StatusOK)
	lone.Do("GET", fmt.Sprintf("/api/v1/reports/violation-recap?class_id=%d", s.ClassA), nil).Want(http.StatusForbidden)
	// Staff do not have reports.view.
	s.Env.As(perm.Staff).Do("GET", "/api/v1/reports/violation-recap", nil).Want(http.StatusForbidden)
	s.Env.Anonymous().Do("GET", "/api/v1/reports/violation-recap.pdf", nil).Want(http.StatusUnauthorized)
	// Leaders see the whole school.
	if r := get(t, s.Env.As(perm.KepalaSekolah), "month=2026-11"); r.Totals.Violations != 5 {
		t.Errorf("principal: %+v", r.Totals)
	}
	// A class or department that does not exist is 404 for the others.
	s.BK.Do("GET", "/api/v1/reports/violation-recap?class_id=999999", nil).Want(http.StatusNotFound)
	s.BK.Do("GET", "/api/v1/reports/violation-recap?department_id=999999", nil).Want(http.StatusNotFound)
}

func TestBadQueries(t *testing.T) {
	s := vltest.New(t)
	cases := []struct{ query, field, code string }{
		{"month=2026-13", "month", "report.period.month"},
		{"month=26-11", "month", "report.period.month"},
		{"month=1999-01", "month", "report.period.year_range"},
		{"from=2026-11-01", "to", "report.period.date_required"},
		{"from=2026-11-31&to=2026-12-01", "from", "report.period.date"},
		{"from=2026-11-10&to=2026-11-01", "to", "report.period.order"},
		{"from=2024-01-01&to=2026-01-02", "to", "report.period.too_long"},
		{"month=2026-11&from=2026-11-01&to=2026-11-30", "month", "report.period.unused"},
		{"period=month&month=2026-11&academic_year=2026", "academic_year", "report.period.unused"},
		{"period=month", "month", "report.period.month_required"},
		{"period=semester&academic_year=2026", "semester", "report.period.semester_required"},
		{"academic_year=2026&semester=3", "semester", "report.period.semester"},
		{"semester=1", "academic_year", "report.period.academic_year_required"},
		{"academic_year=26", "academic_year", "report.period.year"},
		{"period=week", "period", "report.period.kind"},
		{"class_id=abc", "class_id", "report.scope.id"},
		{"class_id=-1", "class_id", "report.scope.id"},
		{"grade=13", "grade", "report.scope.grade"},
		{"grade=10&department_id=1", "department_id", "report.scope.one"},
		{"detail_limit=501", "detail_limit", "report.detail_limit"},
		{"detail_offset=-1", "detail_offset", "report.detail_offset"},
		{"month=2026-11&source=absensi", "source", "violationlist.filter.source"},
	}
	for _, c := range cases {
		for _, path := range []string{"/api/v1/reports/violation-recap?", "/api/v1/reports/violation-recap.pdf?"} {
			e := s.BK.Do("GET", path+c.query, nil).Want(http.StatusUnprocessableEntity).Err()
			if got := e.Error.FieldCodes[c.field].Code; got != c.code {
				t.Errorf("%s%s: field %s has %q, want %q (%+v)", path, c.query, c.field, got, c.code, e.Error.FieldCodes)
			}
		}
	}
	// The longest range, two years, is accepted.
	get(t, s.BK, "from=2024-01-01&to=2025-12-31")
}

func need(t *testing.T, tools ...string) {
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed", tool)
		}
	}
}

// The PDF of a class for a month: landscape, the header on every page,
// page numbers, the signatures, and no row cut by a page break.
func TestPDF(t *testing.T) {
	need(t, "pdftotext", "pdfinfo")
	f := newFixture(t)
	s := f.s
	ctx := context.Background()
	prof := school.DefaultProfile()
	prof.Name, prof.Address, prof.Phone = "SMK Negeri 1 Contoh", "Jl. Pendidikan No. 1", "021-555"
	prof.PrincipalName, prof.PrincipalNIP, prof.BKCoordinatorName = "Dra. Siti Aminah", "197203152000031002", "Rudi Hartono, S.Pd."
	prof.PaperSize = "F4"
	if _, err := school.SaveProfile(ctx, s.Env.DB, audit.Actor{ID: s.BK.UserID, Name: "bk"}, prof); err != nil {
		t.Fatal(err)
	}
	// Enough rows for several pages, some with long descriptions.
	long := strings.Repeat("Membawa rokok ke dalam kelas dan menolak menyerahkannya kepada guru piket. ", 6)
	for i := range 150 {
		desc := ""
		if i%7 == 0 {
			desc = long
		}
		if i == 3 {
			desc = strings.Repeat("sangat panjang sekali ", 200) + "😀"
		}
		s.Violation(vltest.V{Student: f.citra, At: at(fmt.Sprintf("2026-11-%02d", 1+i%28), 7+i%5), Points: 1, Description: desc})
	}
	res := s.TeacherA.Do("GET", "/api/v1/reports/violation-recap.pdf?month=2026-11", nil).Want(http.StatusOK)
	if ct := res.Header.Get("Content-Type"); ct != "application/pdf" {
		t.Fatalf("content type %q", ct)
	}
	if cd := res.Header.Get("Content-Disposition"); !strings.Contains(cd, "rekap-pelanggaran-x-rpl-1-2026-11-01-2026-11-30.pdf") {
		t.Errorf("disposition %q", cd)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "rekap.pdf")
	if err := os.WriteFile(file, res.Body, 0o600); err != nil {
		t.Fatal(err)
	}
	info, err := exec.Command("pdfinfo", file).Output()
	if err != nil {
		t.Fatal(err)
	}
	// F4 on its side: 330 × 215 mm = 935 × 609 pt.
	if !strings.Contains(string(info), "935.43 x 609.45 pts") {
		t.Errorf("pdfinfo: %s", info)
	}
	out, err := exec.Command("pdftotext", "-layout", file, "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	pages := strings.Split(strings.TrimRight(string(out), "\f"), "\f")
	if len(pages) < 3 {
		t.Fatalf("%d pages; want several", len(pages))
	}
	text := string(out)
	for _, want := range []string{"SMK Negeri 1 Contoh", "REKAP PELANGGARAN SISWA", "Kelas X RPL 1", "Periode: November 2026",
		"Koordinator BK,", "Rudi Hartono, S.Pd.", "Kepala Sekolah,", "Dra. Siti Aminah", "NIP. 19720315 200003 1 002",
		"Berkelahi di kantin", "Sedang ditangani", "SP 1", "Dicetak ", "Sumber: perilaku dan absensi"} {
		if !strings.Contains(text, want) {
			t.Errorf("the PDF lacks %q", want)
		}
	}
	if strings.Contains(text, "Eko Prasetyo") || strings.Contains(text, "XI TKJ 1") {
		t.Error("another class is in the homeroom teacher's PDF")
	}
	detailStart := -1
	for i, p := range pages {
		if want := fmt.Sprintf("Halaman %d dari %d", i+1, len(pages)); !strings.Contains(p, want) {
			t.Errorf("page %d lacks %q", i+1, want)
		}
		if strings.Contains(p, "C. Rincian pelanggaran") {
			detailStart = i
		}
		if detailStart >= 0 && i > detailStart && i < len(pages)-1 {
			if !strings.Contains(p, "Nama siswa") || !strings.Contains(p, "Kelas (saat itu)") || !strings.Contains(p, "Pelanggaran") {
				t.Errorf("page %d repeats no table header:\n%s", i+1, p)
			}
		}
	}
	if detailStart < 0 {
		t.Fatal("no detail section")
	}
	// Every row number appears once and in order across the pages; a
	// row cut by a page break would show its number on one page and the
	// rest of its lines (the long description) on the next with none.
	for _, p := range pages[detailStart+1:] {
		lines := strings.Split(p, "\n")
		for _, l := range lines {
			if strings.TrimSpace(l) == "" || strings.Contains(l, "Halaman") {
				continue
			}
			// The first content line of a continuation page is the
			// header, never the tail of a row.
			if !strings.Contains(l, "No") {
				t.Errorf("a page of details starts with %q, not the header", l)
			}
			break
		}
	}
	if os.Getenv("REPORT_PNG") != "" {
		need(t, "pdftoppm")
		png := os.Getenv("REPORT_PNG")
		for _, pg := range []string{"1", "2"} {
			if err := exec.Command("pdftoppm", "-png", "-r", "60", "-f", pg, "-l", pg, file, png+"-"+pg).Run(); err != nil {
				t.Fatal(err)
			}
		}
	}
}
