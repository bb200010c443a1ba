package attendance_test

import (
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

func formPath(class int64, date string) string {
	return "/api/v1/classes/" + itoa(class) + "/attendance/" + date
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

type entry = map[string]any

func TestFormHomeroomTeacher(t *testing.T) {
	s := newSchool(t)
	a1, a2 := s.student(t, s.classA), s.student(t, s.classA)
	b1 := s.student(t, s.classB)
	must(t, s.env.DB.Get(new(int64), `INSERT INTO students (source_id, full_name, class_id, active) VALUES (9999, 'Sudah Keluar', $1, false) RETURNING id`, s.classA))
	d := today()

	// Nothing stored yet: every hour is belum (no cells).
	var f api.AttendanceForm
	s.wali.Do("GET", formPath(s.classA, d), nil).Want(http.StatusOK).JSON(&f)
	if f.ClassName != "X IPA 1" || f.LessonHours != 10 || len(f.Students) != 2 || f.Students[0].ID != a1 || f.Students[1].ID != a2 ||
		len(f.Students[0].Cells) != 0 || !f.CanEdit {
		t.Fatalf("empty form %+v", f)
	}

	var out api.SaveAttendanceResponse
	s.wali.Do("PUT", formPath(s.classA, d), map[string]any{"entries": []entry{
		{"student_id": a1, "lesson_hour": 1, "status": "A"},
		{"student_id": a1, "lesson_hour": 2, "status": "hadir"},
		{"student_id": a2, "lesson_hour": 1, "status": "belum"},
		{"student_id": a2, "lesson_hour": 2, "status": "T"},
	}}).Want(http.StatusOK).JSON(&out)
	if out.Results.Created != 3 || out.Results.Skipped != 1 || out.Results.ViolationsCreated != 2 {
		t.Errorf("results %+v", out.Results)
	}
	cells := out.Form.Students[0].Cells
	if len(cells) != 2 || cells[0].Status != "A" || cells[1].Status != "H" || cells[0].FromJournal || cells[0].UpdatedBy == "" ||
		cells[0].UpdatedAt.IsZero() || len(out.Form.Students[1].Cells) != 1 {
		t.Errorf("form after save %+v", out.Form.Students)
	}
	var recordedBy int64
	must(t, s.env.DB.Get(&recordedBy, `SELECT recorded_by FROM violations WHERE student_id = $1`, a1))
	if recordedBy != s.wali.UserID {
		t.Errorf("recorded_by %d, want the saver %d", recordedBy, s.wali.UserID)
	}

	// Another class: not found, for reading and for saving; nothing stored.
	e := s.wali.Do("GET", formPath(s.classB, d), nil).Want(http.StatusNotFound).Err()
	if e.Error.MessageCode != "attendance.class.not_found" {
		t.Errorf("other class GET: %+v", e.Error)
	}
	s.wali.Do("PUT", formPath(s.classB, d), map[string]any{"entries": []entry{{"student_id": b1, "lesson_hour": 1, "status": "A"}}}).
		Want(http.StatusNotFound)
	if n := s.count(t, `SELECT count(*) FROM attendance WHERE student_id = $1`, b1); n != 0 {
		t.Errorf("other class stored %d", n)
	}
	// BK sees and saves every class.
	s.bk.Do("GET", formPath(s.classB, d), nil).Want(http.StatusOK)
}

func TestFormPermissions(t *testing.T) {
	s := newSchool(t)
	a1 := s.student(t, s.classA)
	d := today()
	head := s.env.As(perm.KepalaSekolah) // attendance.view, not attendance.record
	var f api.AttendanceForm
	head.Do("GET", formPath(s.classA, d), nil).Want(http.StatusOK).JSON(&f)
	if f.CanEdit {
		t.Error("can_edit without attendance.record")
	}
	head.Do("PUT", formPath(s.classA, d), map[string]any{"entries": []entry{{"student_id": a1, "lesson_hour": 1, "status": "H"}}}).
		Want(http.StatusForbidden)
	s.env.As(perm.Staff).Do("GET", formPath(s.classA, d), nil).Want(http.StatusForbidden)
	s.bk.Do("GET", formPath(9999, d), nil).Want(http.StatusNotFound)
	if n := s.count(t, `SELECT count(*) FROM attendance`); n != 0 {
		t.Errorf("stored %d", n)
	}
}

func TestFormInvalid(t *testing.T) {
	s := newSchool(t)
	a1 := s.student(t, s.classA)
	b1 := s.student(t, s.classB)
	d := today()
	e := s.bk.Do("PUT", formPath(s.classA, d), map[string]any{"entries": []entry{
		{"student_id": a1, "lesson_hour": 1, "status": "H"},
		{"student_id": a1, "lesson_hour": 2, "status": "X"},
		{"student_id": a1, "lesson_hour": 11, "status": "A"},
		{"student_id": a1, "lesson_hour": 0, "status": "A"},
		{"student_id": b1, "lesson_hour": 1, "status": "A"},
		{"student_id": 987654, "lesson_hour": 1, "status": "A"},
	}}).Want(http.StatusUnprocessableEntity).Err()
	want := map[string]string{
		"entries[1].status":      "attendance.status.unknown",
		"entries[2].lesson_hour": "attendance.lesson_hour.range",
		"entries[3].lesson_hour": "attendance.lesson_hour.range",
		"entries[4].student_id":  "attendance.student.not_in_class",
		"entries[5].student_id":  "attendance.student.not_in_class",
	}
	if e.Error.MessageCode != "attendance.invalid" || len(e.Error.FieldCodes) != len(want) {
		t.Errorf("error %+v", e.Error)
	}
	for f, code := range want {
		if e.Error.FieldCodes[f].Code != code {
			t.Errorf("%s: %+v, want %s", f, e.Error.FieldCodes[f], code)
		}
	}
	ok := map[string]any{"entries": []entry{{"student_id": a1, "lesson_hour": 1, "status": "H"}}}
	loc, _ := time.LoadLocation("Asia/Jakarta")
	tomorrow := time.Now().In(loc).AddDate(0, 0, 1).Format(time.DateOnly)
	for date, code := range map[string]string{
		tomorrow:     "attendance.date.future",
		"2001-01-01": "attendance.date.too_old",
		"2026-13-01": "attendance.date.format",
		"kemarin":    "attendance.date.format",
	} {
		e := s.bk.Do("PUT", formPath(s.classA, date), ok).Want(http.StatusUnprocessableEntity).Err()
		if e.Error.FieldCodes["date"].Code != code {
			t.Errorf("date %s: %+v, want %s", date, e.Error.FieldCodes, code)
		}
	}
	many := make([]entry, 5001)
	for i := range many {
		many[i] = entry{"student_id": a1, "lesson_hour": 1, "status": "H"}
	}
	e = s.bk.Do("PUT", formPath(s.classA, d), map[string]any{"entries": many}).Want(http.StatusUnprocessableEntity).Err()
	if e.Error.FieldCodes["entries"].Code != "attendance.entries.too_many" {
		t.Errorf("too many: %+v", e.Error.FieldCodes)
	}
	if n := s.count(t, `SELECT count(*) FROM attendance`); n != 0 {
		t.Errorf("a refused save stored %d rows", n)
	}
	// The lesson hours follow the school profile.
	must(t, s.env.DB.Get(new(string), `INSERT INTO settings (key, value) VALUES ('school', '{"lesson_hours_per_day": 12}')
		ON CONFLICT (key) DO UPDATE SET value = settings.value || '{"lesson_hours_per_day": 12}' RETURNING key`))
	s.bk.Do("PUT", formPath(s.classA, d), map[string]any{"entries": []entry{{"student_id": a1, "lesson_hour": 12, "status": "sakit"}}}).
		Want(http.StatusOK)
}
