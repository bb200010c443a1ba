package studentsync_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/demo"
	"github.com/tatib/tatib/server/internal/roster"
	"github.com/tatib/tatib/server/internal/school"
	schoolsim "github.com/tatib/tatib/server/internal/sim/studentaffairs"
	"github.com/tatib/tatib/server/internal/studentsync"
	"github.com/tatib/tatib/server/internal/studentsync/synctest"
	"github.com/tatib/tatib/shared/perm"
)

func TestMain(m *testing.M) {
	// Short enough that the timeout tests are quick, long enough for -race.
	studentsync.RequestTimeout = 1500 * time.Millisecond
	// The simulator listens on 127.0.0.1; production refuses loopback.
	// TestLocalSourcesRefused turns this off for itself.
	os.Setenv("TATIB_ALLOW_LOCAL_SOURCES", "1")
	os.Exit(m.Run())
}

const simToken = synctest.Token

type fixture = synctest.Fixture

func setup(t *testing.T, students int) *fixture { return synctest.New(t, students) }

// fingerprint summarises every stored student, class and department.
func fingerprint(f *fixture) string {
	f.Env.T.Helper()
	var s string
	err := f.Env.DB.Get(&s, `SELECT coalesce(md5(string_agg(t::text, '|' ORDER BY t::text)), '') FROM (
		SELECT source_id::text || full_name || nisn || nis || active::text || coalesce(class_id::text, '') AS t FROM students
		UNION ALL SELECT name || grade FROM classes UNION ALL SELECT code || name FROM departments) x`)
	if err != nil {
		f.Env.T.Fatal(err)
	}
	return s
}

func TestSyncOK(t *testing.T) {
	t.Parallel()
	f := setup(t, 1200)
	run := f.Sync()
	if run.Status != studentsync.SyncSucceeded || run.Result == nil {
		t.Fatalf("run: %+v", run)
	}
	r := run.Result
	if r.New != 1200 || r.Updated != 0 || r.Departments != 3 || r.DepartmentsNew != 3 || r.Classes != 36 || r.ClassesNew != 36 || !r.Complete {
		t.Fatalf("result: %+v", r)
	}
	if run.PagesTotal != 12 || run.PagesDone != 12 || run.Progress != 100 {
		t.Errorf("progress: %+v", run)
	}
	var n int
	f.Env.DB.Get(&n, `SELECT count(*) FROM students WHERE class_id IS NOT NULL AND synced_at IS NOT NULL`)
	if n != 1200 {
		t.Errorf("students with class: %d", n)
	}
	// A second sync finds everything in place.
	again := f.Sync()
	if again.Result.New != 0 || again.Result.Updated != 0 || again.Result.Unchanged != 1200 || again.Result.Deactivated != 0 {
		t.Fatalf("second: %+v", again.Result)
	}
	var latest studentsync.SyncRun
	f.Admin.Do("GET", "/api/v1/students/sync/latest", nil).Want(200).JSON(&latest)
	if latest.ID != again.ID {
		t.Errorf("latest %d, want %d", latest.ID, again.ID)
	}
	var audits int
	f.Env.DB.Get(&audits, `SELECT count(*) FROM audit_log WHERE action = 'students.sync'`)
	if audits != 2 {
		t.Errorf("audit entries: %d", audits)
	}
	// Search by name, NISN and NIS.
	var st roster.Student
	f.Env.DB.Get(&st.NISN, `SELECT nisn FROM students ORDER BY id LIMIT 1`)
	var page struct {
		Data []roster.Student `json:"data"`
	}
	f.Admin.Do("GET", "/api/v1/students?q="+st.NISN, nil).Want(200).JSON(&page)
	if len(page.Data) != 1 || page.Data[0].SourceID == 0 {
		t.Errorf("search by NISN: %+v", page.Data)
	}
}

func TestSyncFailureChangesNothing(t *testing.T) {
	t.Parallel()
	f := setup(t, 350)
	f.Sync()
	before := fingerprint(f)
	f.Sim.Update(func(s *schoolsim.School) {
		for i := range s.Students {
			s.Students[i].FullName += " Baru"
		}
		s.Students = s.Students[:300]
	})
	cases := []struct {
		name   string
		faults schoolsim.Faults
		want   string
	}{
		{"ErrPage3", schoolsim.Faults{FailPage: 3}, "school.source.server_error"},
		{"ErrBadJSONPage3", schoolsim.Faults{BadJSONPage: 3}, "school.source.bad_json"},
		{"ErrHTMLPage2", schoolsim.Faults{HTMLPage: 2}, "school.source.html"},
		{"ErrWrongShape", schoolsim.Faults{WrongShape: true}, "school.source.no_data"},
		{"ErrTimeout", schoolsim.Faults{Delay: 3 * time.Second, DelayPage: 2}, "school.source.timeout"},
		{"Err401", schoolsim.Faults{Status: 401}, "school.source.unauthorized"},
		{"Err403", schoolsim.Faults{Status: 403}, "school.source.forbidden"},
	}
	for _, c := range cases {
		f.Sim.SetFaults(c.faults)
		run := f.Sync()
		if run.Status != studentsync.SyncFailed || run.ErrorCode != c.want || run.Error == "" {
			t.Errorf("%s: status %s error %q (%s), want failure %s", c.name, run.Status, run.Error, run.ErrorCode, c.want)
		}
		if got := fingerprint(f); got != before {
			t.Errorf("%s: stored data changed", c.name)
		}
	}
	var failed int
	f.Env.DB.Get(&failed, `SELECT count(*) FROM audit_log WHERE action = 'students.sync.failed'`)
	if failed != len(cases) {
		t.Errorf("failed syncs audited: %d, want %d", failed, len(cases))
	}
}

func TestSyncUnauthorized(t *testing.T) {
	t.Parallel()
	f := setup(t, 20)
	f.Configure(f.URL, "salah")
	run := f.Sync()
	if run.Status != studentsync.SyncFailed || run.ErrorCode != "school.source.unauthorized" {
		t.Fatalf("run: %+v", run)
	}
}

func TestSyncDeactivatesAndRelinks(t *testing.T) {
	t.Parallel()
	f := setup(t, 120)
	f.Sync()
	var gone, moved, transferred schoolsim.Student
	f.Sim.Update(func(s *schoolsim.School) {
		gone, moved = s.Students[0], s.Students[1]
		s.Students = s.Students[1:]
		// Re-created in student affairs: a new id, the same NISN.
		s.Students[0].ID = 999999
		s.Students[0].ParentName = "" // the source lost it; Tatib keeps it
		s.Students[1].Status = "transferred"
		transferred = s.Students[1]
	})
	var movedID int64
	f.Env.DB.Get(&movedID, `SELECT id FROM students WHERE source_id = $1`, moved.ID)
	run := f.Sync()
	r := run.Result
	if run.Status != studentsync.SyncSucceeded || r.Deactivated != 2 || r.Relinked != 1 || r.New != 0 {
		t.Fatalf("run: %+v %+v", run, r)
	}
	var row struct {
		ID         int64  `db:"id"`
		Active     bool   `db:"active"`
		ParentName string `db:"parent_name"`
	}
	f.Env.DB.Get(&row, `SELECT id, active, parent_name FROM students WHERE source_id = 999999`)
	if row.ID != movedID || !row.Active || row.ParentName != moved.ParentName {
		t.Errorf("relinked: %+v, want id %d parent %q", row, movedID, moved.ParentName)
	}
	for _, sid := range []int64{gone.ID, transferred.ID} {
		var active bool
		f.Env.DB.Get(&active, `SELECT active FROM students WHERE source_id = $1`, sid)
		if active {
			t.Errorf("student %d still active", sid)
		}
	}
	var total int
	f.Env.DB.Get(&total, `SELECT count(*) FROM students`)
	if total != 120 {
		t.Errorf("students: %d (never deleted), want 120", total)
	}
}

func TestSyncEmptySourceRefused(t *testing.T) {
	t.Parallel()
	f := setup(t, 30)
	f.Sync()
	f.Sim.Update(func(s *schoolsim.School) { s.Students = nil })
	run := f.Sync()
	if run.Status != studentsync.SyncFailed {
		t.Fatalf("run: %+v", run)
	}
	var active int
	f.Env.DB.Get(&active, `SELECT count(*) FROM students WHERE active`)
	if active == 0 {
		t.Fatal("an empty source deactivated everyone")
	}
}

func TestSyncTwiceAtOnceRefused(t *testing.T) {
	t.Parallel()
	f := setup(t, 250)
	f.Sim.SetFaults(schoolsim.Faults{Delay: 700 * time.Millisecond})
	var run studentsync.SyncRun
	f.Admin.Do("POST", "/api/v1/students/sync", nil).Want(http.StatusAccepted).JSON(&run)
	res := f.Admin.Do("POST", "/api/v1/students/sync", nil).Want(http.StatusConflict)
	if e := res.Err(); e.Error.MessageCode != "school.sync.running" || !strings.Contains(e.Error.Message, fmt.Sprintf("#%d", run.ID)) {
		t.Errorf("message: %s %s", e.Error.MessageCode, e.Error.Message)
	}
	var progress studentsync.SyncRun
	f.Admin.Do("GET", fmt.Sprintf("/api/v1/students/sync/%d", run.ID), nil).Want(200).JSON(&progress)
	if progress.Status != studentsync.SyncRunning {
		t.Errorf("status while running: %s", progress.Status)
	}
	if done := f.Wait(run.ID); done.Status != studentsync.SyncSucceeded {
		t.Fatalf("first sync: %+v", done)
	}
	f.Sim.SetFaults(schoolsim.Faults{})
	if again := f.Sync(); again.Status != studentsync.SyncSucceeded {
		t.Fatalf("after: %+v", again)
	}
}

func TestSyncWithoutURL(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	env.As(perm.Admin).Do("POST", "/api/v1/students/sync", nil).Want(422)
}

func TestTestConnection(t *testing.T) {
	t.Parallel()
	f := setup(t, 40)
	closed := httptest.NewServer(http.NotFoundHandler())
	closedURL := closed.URL
	closed.Close()
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) }))
	t.Cleanup(other.Close)

	test := func(body any) studentsync.TestResult {
		var out studentsync.TestResult
		f.Admin.Do("POST", "/api/v1/settings/student-affairs/test", body).Want(200).JSON(&out)
		return out
	}
	if got := test(nil); !got.OK || got.Count != 40 {
		t.Fatalf("stored connection: %+v", got)
	}
	cases := []struct {
		name   string
		body   map[string]any
		faults schoolsim.Faults
		kind   string
	}{
		{"BadToken", map[string]any{"token": "salah"}, schoolsim.Faults{}, studentsync.KindUnauthorized},
		{"Forbidden", nil, schoolsim.Faults{Status: 403}, studentsync.KindForbidden},
		{"BadURL", map[string]any{"url": "ftp://x"}, schoolsim.Faults{}, studentsync.KindBadURL},
		{"DNS", map[string]any{"url": "http://tidak-ada.invalid"}, schoolsim.Faults{}, studentsync.KindDNS},
		{"Refused", map[string]any{"url": closedURL}, schoolsim.Faults{}, studentsync.KindRefused},
		{"NotFound", map[string]any{"url": other.URL}, schoolsim.Faults{}, studentsync.KindNotFound},
		{"Timeout", nil, schoolsim.Faults{Delay: 3 * time.Second}, studentsync.KindTimeout},
		{"HTML", nil, schoolsim.Faults{HTMLPage: -1}, studentsync.KindNotJSON},
		{"BadJSON", nil, schoolsim.Faults{BadJSONPage: 1}, studentsync.KindNotJSON},
		{"WrongShape", nil, schoolsim.Faults{WrongShape: true}, studentsync.KindWrongShape},
	}
	for _, c := range cases {
		f.Sim.SetFaults(c.faults)
		got := test(c.body)
		if got.OK || got.Kind != c.kind || got.Error == "" {
			t.Errorf("%s: %+v, want kind %s", c.name, got, c.kind)
		}
	}
}

func TestSettingsValidation(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	admin := env.As(perm.Admin)
	for _, c := range []struct {
		body  map[string]any
		field string
	}{
		{map[string]any{"url": "bukan url", "token": "x"}, "url"},
		{map[string]any{"url": "ftp://kesiswaan.sch.id", "token": "x"}, "url"},
		{map[string]any{"url": "https://kesiswaan.sch.id", "token": "a b"}, "token"},
		{map[string]any{"url": "https://kesiswaan.sch.id", "schedule": "25:00"}, "schedule"},
	} {
		e := admin.Do("PUT", "/api/v1/settings/student-affairs", c.body).Want(422).Err()
		if e.Error.Fields[c.field] == "" {
			t.Errorf("%v: fields %v, want %s", c.body, e.Error.Fields, c.field)
		}
	}
	var sa studentsync.StudentAffairs
	admin.Do("PUT", "/api/v1/settings/student-affairs", map[string]any{"url": "https://kesiswaan.sch.id/api/integration/students/", "token": "tokRAHASIA9", "schedule": "05:30"}).
		Want(200).JSON(&sa)
	if sa.URL != "https://kesiswaan.sch.id" || sa.Token != "tokRAHASIA9" {
		t.Errorf("stored: %+v", sa)
	}
	// An absent token keeps the stored one.
	admin.Do("PUT", "/api/v1/settings/student-affairs", map[string]any{"url": "https://kesiswaan.sch.id"}).Want(200)
	admin.Do("GET", "/api/v1/settings/student-affairs", nil).Want(200).JSON(&sa)
	if sa.Token != "tokRAHASIA9" || sa.Schedule != "" {
		t.Errorf("after keep: %+v", sa)
	}

	var p school.Profile
	admin.Do("GET", "/api/v1/settings/school", nil).Want(200).JSON(&p)
	if p.AcademicYearStart != "07-01" || p.LessonHoursPerDay != 10 {
		t.Errorf("defaults: %+v", p)
	}
	e := admin.Do("PUT", "/api/v1/settings/school", map[string]any{"name": "", "principal_nip": "123", "academic_year_start": "13-01", "lesson_hours_per_day": 40}).Want(422).Err()
	for _, fld := range []string{"name", "principal_nip", "academic_year_start", "lesson_hours_per_day"} {
		if e.Error.Fields[fld] == "" {
			t.Errorf("profile: no error for %s: %v", fld, e.Error.Fields)
		}
	}
	admin.Do("PUT", "/api/v1/settings/school", map[string]any{"name": "SMA Negeri 3 Contoh", "principal_nip": "197203152000031002"}).Want(200).JSON(&p)
	if p.Name != "SMA Negeri 3 Contoh" || p.LessonHoursPerDay != 10 {
		t.Errorf("saved: %+v", p)
	}
	var audits int
	env.DB.Get(&audits, `SELECT count(*) FROM audit_log WHERE action LIKE 'settings.%'`)
	if audits != 3 {
		t.Errorf("settings audit entries: %d, want 3", audits)
	}
	var leaked int
	env.DB.Get(&leaked, `SELECT count(*) FROM audit_log WHERE details::text LIKE '%tokRAHASIA9%'`)
	if leaked != 0 {
		t.Error("the token reached the audit log")
	}
}

// TestPermissions checks that every route refuses a role without its
// permission.
func TestPermissions(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	guest := env.As(perm.Other)    // no school permission at all
	wali := env.As(perm.WaliKelas) // students.view only
	bk := env.As(perm.BK)          // students.view, students.sync, settings.view
	routes := []struct {
		method, path string
		body         any
		deny         []*apitest.Client
	}{
		{"GET", "/api/v1/departments", nil, []*apitest.Client{guest}},
		{"GET", "/api/v1/classes", nil, []*apitest.Client{guest}},
		{"GET", "/api/v1/classes/1", nil, []*apitest.Client{guest}},
		{"PATCH", "/api/v1/classes/1", map[string]any{"homeroom_teacher_id": nil}, []*apitest.Client{guest, wali, bk}},
		{"GET", "/api/v1/students", nil, []*apitest.Client{guest}},
		{"GET", "/api/v1/students/1", nil, []*apitest.Client{guest}},
		{"PATCH", "/api/v1/students/1", map[string]any{"parent_name": "x"}, []*apitest.Client{guest, env.As(perm.Staff)}},
		{"POST", "/api/v1/students/sync", nil, []*apitest.Client{guest, wali}},
		{"GET", "/api/v1/students/sync/status", nil, []*apitest.Client{guest, wali}},
		{"GET", "/api/v1/students/sync/latest", nil, []*apitest.Client{guest, wali}},
		{"GET", "/api/v1/students/sync/1", nil, []*apitest.Client{guest, wali}},
		{"GET", "/api/v1/students/syncs", nil, []*apitest.Client{guest, wali}},
		{"GET", "/api/v1/settings/student-affairs", nil, []*apitest.Client{guest, wali, bk}},
		{"PUT", "/api/v1/settings/student-affairs", map[string]any{"url": ""}, []*apitest.Client{guest, wali, bk}},
		{"POST", "/api/v1/settings/student-affairs/test", nil, []*apitest.Client{guest, wali, bk}},
		{"GET", "/api/v1/settings/school", nil, []*apitest.Client{guest, wali}},
		{"PUT", "/api/v1/settings/school", map[string]any{"name": "x"}, []*apitest.Client{guest, wali, bk}},
		{"PUT", "/api/v1/settings/school/logo", nil, []*apitest.Client{guest, wali, bk}},
		{"DELETE", "/api/v1/settings/school/logo", nil, []*apitest.Client{guest, wali, bk}},
	}
	for _, r := range routes {
		for _, c := range r.deny {
			c.Do(r.method, r.path, r.body).Want(403)
		}
		env.Anonymous().Do(r.method, r.path, r.body).Want(401)
	}
	// Every route of the school-data packages (roster, studentsync and
	// school) is in the table above.
	for _, r := range env.API.Router.Routes() {
		if !strings.HasPrefix(string(r.Permission), "students.") && !strings.HasPrefix(string(r.Permission), "classes.") &&
			!strings.HasPrefix(r.Pattern, "/api/v1/settings/s") {
			continue
		}
		if strings.HasSuffix(r.Pattern, "/face") { // the face package's tests check its own routes
			continue
		}
		found := false
		for _, x := range routes {
			p := x.path
			for _, id := range []string{"/1"} {
				if strings.HasSuffix(r.Pattern, "/{id}") && strings.HasSuffix(p, id) {
					p = strings.TrimSuffix(p, id) + "/{id}"
				}
			}
			if x.method == r.Method && p == r.Pattern {
				found = true
			}
		}
		if !found {
			t.Errorf("route %s %s has no permission check in this test", r.Method, r.Pattern)
		}
	}
	bk.Do("GET", "/api/v1/settings/school", nil).Want(200)
	env.Anonymous().Do("GET", "/api/v1/school/public", nil).Want(200)
}

func TestDemoLoad(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	ctx := context.Background()
	var out strings.Builder
	res, err := demo.LoadSchool(ctx, env.DB, env.Deps.Log, &out, demo.SchoolOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Loaded || res.Students != 1200 || res.Classes != 36 || len(res.Accounts) != 36+2+5 {
		t.Fatalf("demo: loaded %v students %d classes %d accounts %d", res.Loaded, res.Students, res.Classes, len(res.Accounts))
	}
	if !strings.Contains(out.String(), "wali.x-tkj-1") || !strings.Contains(out.String(), res.Accounts[0].Password) {
		t.Errorf("printed table: %s", out.String())
	}
	var noTeacher int
	env.DB.Get(&noTeacher, `SELECT count(*) FROM classes WHERE homeroom_teacher_id IS NULL`)
	if noTeacher != 0 {
		t.Errorf("%d classes without homeroom teacher", noTeacher)
	}
	// A demo user can sign in and sees their own class.
	a := res.Accounts[0]
	c := env.Login(a.Username, a.Password)
	var st struct {
		Data []roster.Student `json:"data"`
	}
	c.Do("GET", "/api/v1/students", nil).Want(200).JSON(&st)
	if len(st.Data) == 0 || *st.Data[0].ClassName != a.Class {
		t.Errorf("demo homeroom teacher sees %+v", st.Data)
	}
	var p school.Profile
	env.As(perm.Admin).Do("GET", "/api/v1/settings/school", nil).Want(200).JSON(&p)
	if p.Name != "SMK Negeri 1 Contoh" {
		t.Errorf("profile: %+v", p)
	}

	again, err := demo.LoadSchool(ctx, env.DB, env.Deps.Log, &out, demo.SchoolOptions{})
	if err != nil || again.Loaded {
		t.Fatalf("second load: %+v %v", again, err)
	}

	// Syncing from the simulator serving the same seed changes nothing:
	// the demo is what a sync leaves.
	sim := schoolsim.NewServer(schoolsim.Generate(schoolsim.Options{Seed: demo.Seed}), simToken)
	ts := httptest.NewServer(sim)
	t.Cleanup(ts.Close)
	f := &fixture{Env: env, Admin: env.As(perm.Admin), Sim: sim, URL: ts.URL}
	f.Configure(ts.URL, simToken)
	run := f.Sync()
	if run.Status != studentsync.SyncSucceeded || run.Result.Unchanged != 1200 || run.Result.New != 0 {
		t.Fatalf("sync after demo: %+v %+v", run, run.Result)
	}
}

func TestNoMetaPaging(t *testing.T) {
	t.Parallel()
	f := setup(t, 230)
	f.Sim.SetFaults(schoolsim.Faults{NoMeta: true})
	run := f.Sync()
	if run.Status != studentsync.SyncSucceeded || run.Result.New != 230 {
		t.Fatalf("links.next paging: %+v %+v", run, run.Result)
	}
}

// Junior high (SMP/MTs) and primary classes sync like senior high ones;
// grades are labelled in Roman numerals with their school level.
func TestSyncJuniorHighGrades(t *testing.T) {
	t.Parallel()
	f := setup(t, 10)
	f.Sim.Update(func(s *schoolsim.School) {
		s.Students[0].ClassName, s.Students[0].ClassLevel = "VII A", "VII"
		s.Students[0].Classroom = schoolsim.Classroom{ID: 9001, Level: 7}
		s.Students[1].ClassName, s.Students[1].ClassLevel = "9B", "9"
		s.Students[1].Classroom = schoolsim.Classroom{ID: 9002, Level: 9}
		s.Students[2].ClassName, s.Students[2].ClassLevel = "I-A", ""
		s.Students[2].Classroom = schoolsim.Classroom{ID: 9003}
	})
	run := f.Sync()
	if run.Status != studentsync.SyncSucceeded || len(run.Result.Warnings) != 0 {
		t.Fatalf("sync: %+v %+v", run, run.Result)
	}
	var classes struct {
		Data []roster.Class `json:"data"`
	}
	f.Admin.Do("GET", "/api/v1/classes?grade=VII", nil).Want(200).JSON(&classes)
	if len(classes.Data) != 1 || classes.Data[0].Name != "VII A" || classes.Data[0].Grade != 7 ||
		classes.Data[0].GradeLabel != "VII" || classes.Data[0].Level != "smp" || classes.Data[0].StudentCount != 1 {
		t.Fatalf("grade 7: %+v", classes.Data)
	}
	f.Admin.Do("GET", "/api/v1/classes?grade=9", nil).Want(200).JSON(&classes)
	if len(classes.Data) != 1 || classes.Data[0].GradeLabel != "IX" {
		t.Errorf("grade 9: %+v", classes.Data)
	}
	f.Admin.Do("GET", "/api/v1/classes?grade=1", nil).Want(200).JSON(&classes)
	if len(classes.Data) != 1 || classes.Data[0].Level != "sd" {
		t.Errorf("grade 1: %+v", classes.Data)
	}
	f.Admin.Do("GET", "/api/v1/classes?grade=13", nil).Want(422)
	var st roster.Student
	var id int64
	f.Env.DB.Get(&id, `SELECT s.id FROM students s JOIN classes c ON c.id = s.class_id WHERE c.name = 'VII A'`)
	f.Admin.Do("GET", fmt.Sprintf("/api/v1/students/%d", id), nil).Want(200).JSON(&st)
	if st.Grade == nil || *st.Grade != 7 || st.GradeLabel != "VII" {
		t.Errorf("student grade: %+v", st)
	}
}

// A sync is a school-wide administrative act: a homeroom teacher granted
// students.sync starts it and sees its school-wide counts, while the
// students they can open stay those of their own class.
func TestSyncByHomeroomTeacherIsSchoolWide(t *testing.T) {
	t.Parallel()
	f := setup(t, 72)
	f.Admin.Do("PUT", "/api/v1/roles/wali_kelas/permissions", map[string]any{"permissions": []string{"students.view", "students.sync"}}).Want(200)
	wali := f.Env.As(perm.WaliKelas)
	var run studentsync.SyncRun
	wali.Do("POST", "/api/v1/students/sync", nil).Want(http.StatusAccepted).JSON(&run)
	done := waitRun(t, wali, run.ID)
	if done.Status != studentsync.SyncSucceeded || done.Result.New != 72 {
		t.Fatalf("sync by homeroom teacher: %+v", done)
	}
	var hist struct {
		Data []studentsync.SyncRun `json:"data"`
	}
	wali.Do("GET", "/api/v1/students/syncs", nil).Want(200).JSON(&hist)
	if len(hist.Data) != 1 || hist.Data[0].Result.Fetched != 72 {
		t.Errorf("history: %+v", hist.Data)
	}
	var own int64
	f.Env.DB.Get(&own, `SELECT id FROM classes ORDER BY id LIMIT 1`)
	f.Admin.Do("PATCH", fmt.Sprintf("/api/v1/classes/%d", own), map[string]any{"homeroom_teacher_id": wali.UserID}).Want(200)
	var st struct {
		Meta struct {
			Total int `json:"total"`
		} `json:"meta"`
	}
	wali.Do("GET", "/api/v1/students", nil).Want(200).JSON(&st)
	if st.Meta.Total != 2 {
		t.Errorf("students after sync: %d, want own class's 2", st.Meta.Total)
	}
}

// The Students screen asks whether a sync can run without seeing the
// connection itself.
func TestSyncStatus(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	bk := env.As(perm.BK)
	var st map[string]any
	bk.Do("GET", "/api/v1/students/sync/status", nil).Want(200).JSON(&st)
	if st["configured"] != false {
		t.Errorf("before: %v", st)
	}
	if e := bk.Do("POST", "/api/v1/students/sync", nil).Want(422).Err(); e.Error.MessageCode != "school.sync.not_configured" {
		t.Errorf("sync without URL: %+v", e.Error)
	}
	env.As(perm.Admin).Do("PUT", "/api/v1/settings/student-affairs", map[string]any{"url": "https://kesiswaan.sch.id", "token": "tokRAHASIA9", "schedule": "06:00"}).Want(200)
	res := bk.Do("GET", "/api/v1/students/sync/status", nil).Want(200).JSON(&st)
	if st["configured"] != true || st["schedule"] != "06:00" || strings.Contains(string(res.Body), "kesiswaan.sch.id") || strings.Contains(string(res.Body), "tokRAHASIA9") {
		t.Errorf("after: %s", res.Body)
	}
}
