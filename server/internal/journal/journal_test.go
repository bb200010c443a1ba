package journal_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/journal"
	journalsim "github.com/tatib/tatib/server/internal/sim/journal"
	schoolsim "github.com/tatib/tatib/server/internal/sim/studentaffairs"
	"github.com/tatib/tatib/server/internal/studentsync"
	"github.com/tatib/tatib/server/internal/violationtype"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

func TestMain(m *testing.M) {
	// The student-affairs simulator listens on 127.0.0.1.
	os.Setenv("TATIB_ALLOW_LOCAL_SOURCES", "1")
	os.Exit(m.Run())
}

const simToken = "rahasia-kesiswaan"

type fixture struct {
	t     *testing.T
	env   *apitest.Env
	admin *apitest.Client
	sim   *schoolsim.Server
	sch   *schoolsim.School
	token string
}

// setup starts the API, syncs students students from the simulator and,
// when withToken, generates the journal token.
func setup(t *testing.T, students int, withToken bool) *fixture {
	t.Helper()
	env := apitest.New(t)
	// The system types (alpha, terlambat) automatic violations are of.
	if err := violationtype.Boot(context.Background(), env.Deps); err != nil {
		t.Fatal(err)
	}
	sch := schoolsim.Generate(schoolsim.Options{Seed: 7, Students: students, AcademicYearStart: 2026})
	sim := schoolsim.NewServer(sch, simToken)
	ts := httptest.NewServer(sim)
	t.Cleanup(ts.Close)
	f := &fixture{t: t, env: env, admin: env.As(perm.Admin), sim: sim, sch: sch}
	f.admin.Do("PUT", "/api/v1/settings/student-affairs", map[string]any{"url": ts.URL, "token": simToken}).Want(200)
	if run := f.syncStudents(); run.Status != studentsync.SyncSucceeded {
		t.Fatalf("student sync: %+v", run)
	}
	if withToken {
		f.token = f.regenerate()
	}
	return f
}

func (f *fixture) regenerate() string {
	f.t.Helper()
	var tok api.JournalToken
	f.admin.Do("POST", "/api/v1/settings/journal-token", nil).Want(200).JSON(&tok)
	return tok.Token
}

func (f *fixture) syncStudents() studentsync.SyncRun {
	f.t.Helper()
	var run studentsync.SyncRun
	f.admin.Do("POST", "/api/v1/students/sync", nil).Want(http.StatusAccepted).JSON(&run)
	deadline := time.Now().Add(60 * time.Second)
	for {
		f.admin.Do("GET", fmt.Sprintf("/api/v1/students/sync/%d", run.ID), nil).Want(200).JSON(&run)
		if run.Status != studentsync.SyncRunning {
			return run
		}
		if time.Now().After(deadline) {
			f.t.Fatalf("sync %d still running", run.ID)
		}
		time.Sleep(30 * time.Millisecond)
	}
}

// answer is every journal answer's shape.
type answer struct {
	Success bool                 `json:"success"`
	Message string               `json:"message"`
	Results api.AttendanceResult `json:"results"`
	Errors  map[string][]string  `json:"errors"`
	Error   struct {
		Code        string            `json:"code"`
		MessageCode string            `json:"message_code"`
		Fields      map[string]string `json:"fields"`
		FieldCodes  map[string]struct {
			Code string `json:"code"`
		} `json:"field_codes"`
	} `json:"error"`
}

// push sends body (bytes as they are) to the sync route.
func (f *fixture) push(body any, status int, headers ...string) answer {
	f.t.Helper()
	var a answer
	res := f.env.Anonymous().Do("POST", "/api/v1/attendance/sync", body, headers...).Want(status)
	res.JSON(&a)
	if a.Success != (status == 200) || a.Message == "" {
		f.t.Fatalf("answer %d: %s", status, res.Body)
	}
	return a
}

func (f *fixture) count(q string, args ...any) int {
	f.t.Helper()
	var n int
	if err := f.env.DB.Get(&n, q, args...); err != nil {
		f.t.Fatal(err)
	}
	return n
}

func (f *fixture) source(i int) int64 { return f.sch.Students[i].ID }

// The deployed E-Jurnal's request, byte for byte as it sends it: token in
// the body, "attendances", source_student_id, status words, notes null.
func TestEJurnalShape(t *testing.T) {
	t.Parallel()
	f := setup(t, 12, true)
	body := fmt.Sprintf(`{"token":"%s","attendances":[`+
		`{"source_student_id":%d,"date":"2026-11-02","lesson_hour":1,"status":"hadir","notes":null},`+
		`{"source_student_id":%d,"date":"2026-11-02","lesson_hour":2,"status":"alpha","notes":null},`+
		`{"source_student_id":%d,"date":"2026-11-02","lesson_hour":3,"status":"alpha","notes":null},`+
		`{"source_student_id":%d,"date":"2026-11-02","lesson_hour":1,"status":"terlambat","notes":null},`+
		`{"source_student_id":%d,"date":"2026-11-02","lesson_hour":1,"status":"sakit","notes":"Surat dokter"},`+
		`{"source_student_id":%d,"date":"2026-11-02","lesson_hour":2,"status":"belum","notes":null}]}`,
		f.token, f.source(0), f.source(0), f.source(0), f.source(1), f.source(2), f.source(2))
	a := f.push([]byte(body), 200)
	r := a.Results
	if r.Created != 5 || r.Skipped != 1 || r.Unmatched != 0 || r.Updated != 0 {
		t.Fatalf("results %+v", r)
	}
	// Stored as sent: the date as given (the test runs in TZ=UTC), from the
	// journal, nobody's name on it.
	if n := f.count(`SELECT count(*) FROM attendance a JOIN students s ON s.id = a.student_id
		WHERE a.date = '2026-11-02' AND a.from_journal AND a.updated_by IS NULL AND s.source_id = $1 AND a.status = 'A'`, f.source(0)); n != 2 {
		t.Errorf("alpha rows %d", n)
	}
	if n := f.count(`SELECT count(*) FROM attendance a JOIN students s ON s.id = a.student_id
		WHERE s.source_id = $1 AND a.status = 'S' AND a.notes = 'Surat dokter'`, f.source(2)); n != 1 {
		t.Errorf("sick row with notes %d", n)
	}
	if n := f.count(`SELECT count(*) FROM attendance WHERE date <> '2026-11-02'`); n != 0 {
		t.Errorf("%d rows on another date", n)
	}
	// Automatic violations: an alpha for student 0, a late for student 1,
	// recorded by nobody.
	if n := f.count(`SELECT count(*) FROM violations WHERE auto_kind IS NOT NULL AND recorded_by IS NULL AND occurred_on = '2026-11-02'`); n != 2 {
		t.Errorf("automatic violations %d", n)
	}
	if r.ViolationsCreated != 2 {
		t.Errorf("violations created %d", r.ViolationsCreated)
	}

	// A replay changes nothing.
	before := f.count(`SELECT count(*) FROM attendance`) + 1000*f.count(`SELECT count(*) FROM violations`)
	var stamp time.Time
	f.env.DB.Get(&stamp, `SELECT max(updated_at) FROM attendance`)
	again := f.push([]byte(body), 200).Results
	if again.Created != 0 || again.Updated != 0 || again.Unchanged != 5 || again.ViolationsCreated != 0 || again.ViolationsUpdated != 0 {
		t.Errorf("replay %+v", again)
	}
	after := f.count(`SELECT count(*) FROM attendance`) + 1000*f.count(`SELECT count(*) FROM violations`)
	var stamp2 time.Time
	f.env.DB.Get(&stamp2, `SELECT max(updated_at) FROM attendance`)
	if after != before || !stamp2.Equal(stamp) {
		t.Errorf("replay changed rows: %d -> %d, %v -> %v", before, after, stamp, stamp2)
	}
	var pushes api.Page[api.JournalPush]
	f.admin.Do("GET", "/api/v1/settings/journal-pushes", nil).Want(200).JSON(&pushes)
	if pushes.Meta.Total != 2 || pushes.Data[0].Outcome != journal.OutcomeApplied || pushes.Data[0].Entries != 6 || pushes.Data[0].Results.Unchanged != 5 {
		t.Errorf("push log %+v", pushes)
	}
}

// Our own names, numbers as strings, and the token in each other place.
func TestOwnNamesAndTokenPlaces(t *testing.T) {
	t.Parallel()
	f := setup(t, 6, true)
	entry := func(hour int, status string) map[string]any {
		return map[string]any{"student_id": fmt.Sprint(f.source(3)), "date": "2026-11-03", "lesson_hour": fmt.Sprint(hour), "status": status}
	}
	cases := []struct {
		name    string
		body    map[string]any
		path    string
		headers []string
	}{
		{"bearer", map[string]any{"entries": []any{entry(1, "H")}}, "", []string{"Authorization", "Bearer " + f.token}},
		{"header", map[string]any{"entries": []any{entry(2, "present")}}, "", []string{"X-Journal-Token", f.token}},
		{"query", map[string]any{"entries": []any{entry(3, " Late ")}}, "?token=" + f.token, nil},
		{"body", map[string]any{"token": f.token, "entries": []any{entry(4, "absent")}}, "", nil},
	}
	for _, c := range cases {
		var a answer
		f.env.Anonymous().Do("POST", "/api/v1/attendance/sync"+c.path, c.body, c.headers...).Want(200).JSON(&a)
		if !a.Success || a.Results.Created != 1 {
			t.Errorf("%s: %+v", c.name, a)
		}
	}
	var got string
	f.env.DB.Get(&got, `SELECT string_agg(status, '' ORDER BY lesson_hour) FROM attendance WHERE date = '2026-11-03'`)
	if got != "HHTA" {
		t.Errorf("stored %q", got)
	}
}

func TestUnauthorized(t *testing.T) {
	t.Parallel()
	f := setup(t, 3, false)
	body := map[string]any{"token": "whatever", "attendances": []any{
		map[string]any{"source_student_id": f.source(0), "date": "2026-11-02", "lesson_hour": 1, "status": "alpha"}}}
	code := func(a answer) string { return a.Error.MessageCode }
	if a := f.push(body, 401); code(a) != "journal.token_not_configured" || a.Error.Code != "unauthorized" {
		t.Errorf("no token configured: %+v", a)
	}
	var tok api.JournalToken
	f.admin.Do("GET", "/api/v1/settings/journal-token", nil).Want(200).JSON(&tok)
	if tok.Token != "" || tok.CreatedAt != nil {
		t.Errorf("token before any: %+v", tok)
	}
	old := f.regenerate()
	if len(old) < 48 || strings.ContainsAny(old, "+/=") {
		t.Errorf("token %q", old)
	}
	f.admin.Do("GET", "/api/v1/settings/journal-token", nil).Want(200).JSON(&tok)
	if tok.Token != old || tok.CreatedAt == nil || tok.CreatedBy == "" {
		t.Errorf("token %+v", tok)
	}
	if a := f.push(body, 401); code(a) != "journal.token_invalid" {
		t.Errorf("wrong token: %+v", a)
	}
	if a := f.push(map[string]any{"attendances": body["attendances"]}, 401); code(a) != "journal.token_missing" {
		t.Errorf("no token: %+v", a)
	}
	// A broken body without a token in a header cannot show a token.
	if a := f.push([]byte(`{"token":`), 401); code(a) != "journal.token_missing" {
		t.Errorf("broken body: %+v", a)
	}
	body["token"] = old
	f.push(body, 200)
	newer := f.regenerate()
	if newer == old {
		t.Fatal("same token twice")
	}
	if a := f.push(body, 401); code(a) != "journal.token_invalid" {
		t.Errorf("old token after regeneration: %+v", a)
	}
	f.push(body, 401, "Authorization", "Bearer "+old)
	body["token"] = newer
	f.push(body, 200)
	// A signed-in user's bearer is their session, not a journal token: the
	// body's token decides.
	var signedIn answer
	f.admin.Do("POST", "/api/v1/attendance/sync", body).Want(200).JSON(&signedIn)
	delete(body, "token")
	f.admin.Do("POST", "/api/v1/attendance/sync", body).Want(401).JSON(&signedIn)
	if signedIn.Error.MessageCode != "journal.token_missing" {
		t.Errorf("session bearer: %+v", signedIn)
	}
	body["token"] = newer
	// The token never reaches the audit log.
	if n := f.count(`SELECT count(*) FROM audit_log WHERE action = 'settings.journal_token.regenerate'`); n != 2 {
		t.Errorf("audited %d regenerations", n)
	}
	if n := f.count(`SELECT count(*) FROM audit_log WHERE details::text LIKE '%' || $1 || '%' OR details::text LIKE '%' || $2 || '%'`, old, newer); n != 0 {
		t.Errorf("token in the audit log")
	}
	// Refused tokens are counted apart from the push log (issue 25).
	if n := f.count(`SELECT COALESCE(sum(attempts), 0) FROM journal_auth_failures WHERE error_code LIKE 'journal.token_%'`); n != 7 {
		t.Errorf("refused tokens counted: %d", n)
	}
	if n := f.count(`SELECT count(*) FROM journal_pushes WHERE outcome = 'unauthorized'`); n != 0 {
		t.Errorf("refused tokens in the push log: %d", n)
	}
	var refused []api.JournalAuthFailure
	f.admin.Do("GET", "/api/v1/settings/journal-auth-failures", nil).Want(200).JSON(&refused)
	if len(refused) == 0 || refused[0].Attempts == 0 || refused[0].Address == "" {
		t.Errorf("refused tokens listed: %+v", refused)
	}
	f.env.As(perm.BK).Do("GET", "/api/v1/settings/journal-auth-failures", nil).Want(403)

	// Ping.
	f.admin.Do("PUT", "/api/v1/settings/school", map[string]any{"name": "SMK Uji Jurnal"}).Want(200)
	var ping api.JournalPingResponse
	f.env.Anonymous().Do("GET", "/api/v1/attendance/ping?token="+newer, nil).Want(200).JSON(&ping)
	if !ping.Success || ping.School != "SMK Uji Jurnal" || time.Since(ping.ServerTime) > time.Minute {
		t.Errorf("ping %+v", ping)
	}
	f.env.Anonymous().Do("GET", "/api/v1/attendance/ping", nil, "X-Journal-Token", newer).Want(200)
	for _, path := range []string{"/api/v1/attendance/ping?token=" + old, "/api/v1/attendance/ping"} {
		var a answer
		f.env.Anonymous().Do("GET", path, nil).Want(401).JSON(&a)
		if a.Success || a.Message == "" || a.Error.Code != "unauthorized" {
			t.Errorf("%s: %+v", path, a)
		}
	}
}

func TestTokenRoutesNeedSettingsManage(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	for _, role := range []perm.Role{perm.BK, perm.WaliKelas, perm.KepalaSekolah} {
		c := env.As(role)
		c.Do("GET", "/api/v1/settings/journal-token", nil).Want(403)
		c.Do("POST", "/api/v1/settings/journal-token", nil).Want(403)
		c.Do("GET", "/api/v1/settings/journal-pushes", nil).Want(403)
		c.Do("GET", "/api/v1/settings/journal-parked", nil).Want(403)
	}
	env.Anonymous().Do("GET", "/api/v1/settings/journal-token", nil).Want(401)
}

func TestTooLarge(t *testing.T) {
	t.Parallel()
	f := setup(t, 3, true)
	check := func(name string, a answer) {
		if a.Error.Code != "too_large" {
			t.Errorf("%s: %+v", name, a)
		}
	}
	big := append([]byte(`{"token":"`+f.token+`","attendances":[],"pad":"`), bytes.Repeat([]byte("x"), journal.MaxRequestBytes)...)
	big = append(big, `"}`...)
	check("content-length", f.push(big, 413))
	// Without a Content-Length (chunked), stopped while reading.
	check("chunked", f.push(io.MultiReader(bytes.NewReader(big)), 413, "Content-Type", "application/json"))
	// Under the byte limit, over the entry limit.
	entries := make([]journalsim.Entry, journal.MaxEntries+1)
	for i := range entries {
		entries[i] = journalsim.Entry{SourceStudentID: f.source(0), Date: "2026-11-02", LessonHour: 1, Status: "H"}
	}
	check("entries", f.push(journalsim.Request{Token: f.token, Attendances: entries}, 413))
	if n := f.count(`SELECT count(*) FROM journal_pushes WHERE outcome = 'too_large'`); n != 3 {
		t.Errorf("too_large pushes logged: %d", n)
	}
	if n := f.count(`SELECT count(*) FROM attendance`); n != 0 {
		t.Errorf("%d rows stored", n)
	}
	// A body over the server-wide 1 MiB default but under the route's
	// own limit is taken.
	ok := journalsim.Day([]journalsim.Student{{SourceID: f.source(0)}, {SourceID: f.source(1)}}, "2026-11-02", 1, 10)
	for len(ok)*80 < 2<<20 {
		ok = append(ok, ok[:20]...)
	}
	f.push(journalsim.Request{Token: f.token, Attendances: ok}, 200)
}

func TestMalformedBatch(t *testing.T) {
	t.Parallel()
	f := setup(t, 4, true)
	good := func() map[string]any {
		return map[string]any{"source_student_id": f.source(0), "date": "2026-11-02", "lesson_hour": 1, "status": "H"}
	}
	with := func(k string, v any) map[string]any {
		e := good()
		if v == nil {
			delete(e, k)
		} else {
			e[k] = v
		}
		return e
	}
	cases := []struct {
		name    string
		body    any
		message string
		fields  map[string]string // field -> code
	}{
		{"bad JSON", []byte(`{"token":"` + f.token + `","attendances":[{"source_student_id":1,`), "journal.json_syntax", nil},
		{"not an object", []byte(`[1,2]`), "journal.json_not_object", nil},
		{"no list", map[string]any{"token": f.token}, "journal.entries_missing", map[string]string{"attendances": "journal.entries_missing"}},
		{"list not a list", map[string]any{"token": f.token, "attendances": "x"}, "journal.entries_not_list", nil},
		{"both lists", map[string]any{"token": f.token, "attendances": []any{good()}, "entries": []any{good()}}, "journal.entries_both", nil},
		{"every problem named", map[string]any{"token": f.token, "attendances": []any{
			good(),
			with("status", "bolos"),
			with("date", "2026-02-30"),
			with("lesson_hour", 11),
			with("lesson_hour", 0),
			with("source_student_id", nil),
			with("date", nil),
			with("status", nil),
			with("lesson_hour", "3.5"),
			"not an entry",
			with("notes", strings.Repeat("n", 501)),
			with("source_student_id", -4),
			with("date", "02-11-2026"),
			with("notes", 5),
			with("status", 3),
			good(),
			with("date", time.Now().UTC().AddDate(0, 0, 2).Format(time.DateOnly)),
		}}, "journal.batch_invalid", map[string]string{
			"attendances[16].date":              "journal.entry.date_future",
			"attendances[1].status":             "journal.entry.status_invalid",
			"attendances[2].date":               "journal.entry.date_invalid",
			"attendances[3].lesson_hour":        "journal.entry.hour_range",
			"attendances[4].lesson_hour":        "journal.entry.hour_range",
			"attendances[5].source_student_id":  "journal.entry.student_missing",
			"attendances[6].date":               "journal.entry.date_missing",
			"attendances[7].status":             "journal.entry.status_missing",
			"attendances[8].lesson_hour":        "journal.entry.hour_range",
			"attendances[9]":                    "journal.entry.not_object",
			"attendances[10].notes":             "journal.entry.notes_long",
			"attendances[11].source_student_id": "journal.entry.student_invalid",
			"attendances[12].date":              "journal.entry.date_invalid",
			"attendances[13].notes":             "journal.entry.notes_invalid",
			"attendances[14].status":            "journal.entry.status_invalid",
		}},
	}
	for _, c := range cases {
		a := f.push(c.body, 422, "X-Journal-Token", f.token)
		if a.Error.MessageCode != c.message || a.Error.Code != "invalid" {
			t.Errorf("%s: %+v", c.name, a)
		}
		if c.fields != nil {
			if len(a.Error.FieldCodes) != len(c.fields) {
				t.Errorf("%s: fields %v", c.name, a.Error.Fields)
			}
			for k, code := range c.fields {
				if a.Error.FieldCodes[k].Code != code {
					t.Errorf("%s: %s = %q, want %q", c.name, k, a.Error.FieldCodes[k].Code, code)
				}
			}
		}
	}
	// Laravel-style errors for the E-Jurnal.
	a := f.push(map[string]any{"token": f.token, "attendances": []any{good(), with("status", "bolos")}}, 422)
	if len(a.Errors["attendances.1.status"]) != 1 {
		t.Errorf("errors %v", a.Errors)
	}
	if n := f.count(`SELECT count(*) FROM attendance`) + f.count(`SELECT count(*) FROM attendance_unmatched`); n != 0 {
		t.Errorf("%d rows stored from refused batches", n)
	}
	if n := f.count(`SELECT count(*) FROM journal_pushes WHERE outcome = 'rejected'`); n != len(cases)+1 {
		t.Errorf("rejected pushes logged: %d", n)
	}
	var pushes api.Page[api.JournalPush]
	f.admin.Do("GET", "/api/v1/settings/journal-pushes?per_page=100", nil, "Accept-Language", "en").Want(200).JSON(&pushes)
	var every *api.JournalPush
	for i := range pushes.Data {
		if pushes.Data[i].Entries == 17 {
			every = &pushes.Data[i]
		}
	}
	if every == nil || every.ErrorCode != "journal.batch_invalid" || len(every.Errors) != 15 || every.Error == "" ||
		!strings.HasPrefix(every.Errors[0], "attendances[1].status: ") {
		t.Errorf("logged refusal %+v", every)
	}

	// Many bad entries: 100 named, all counted.
	many := make([]any, 300)
	for i := range many {
		many[i] = with("status", "x")
	}
	a = f.push(map[string]any{"token": f.token, "attendances": many}, 422)
	if len(a.Error.FieldCodes) != 100 || !strings.Contains(a.Message, "300") {
		t.Errorf("300 bad: %d named, %q", len(a.Error.FieldCodes), a.Message)
	}
}

// An entry for a student Tatib does not know yet is parked, the rest
// applies; the student sync that brings the student in applies it.
func TestParkedAppliedAfterSync(t *testing.T) {
	t.Parallel()
	f := setup(t, 5, true)
	const newID = 777777
	entries := []map[string]any{
		{"source_student_id": f.source(0), "date": "2026-11-02", "lesson_hour": 1, "status": "alpha"},
		{"source_student_id": newID, "date": "2026-11-02", "lesson_hour": 1, "status": "hadir"},
		{"source_student_id": newID, "date": "2026-11-02", "lesson_hour": 2, "status": "alpha", "notes": "bolos"},
		{"source_student_id": newID, "date": "2026-11-02", "lesson_hour": 3, "status": "belum"},
	}
	a := f.push(map[string]any{"token": f.token, "attendances": entries}, 200)
	if a.Results.Created != 1 || a.Results.Unmatched != 2 || a.Results.Skipped != 1 {
		t.Fatalf("results %+v", a.Results)
	}
	// The newest push of a parked key wins.
	entries[1]["status"] = "terlambat"
	a = f.push(map[string]any{"token": f.token, "attendances": entries}, 200)
	if a.Results.Unchanged != 1 || a.Results.Unmatched != 2 {
		t.Fatalf("second push %+v", a.Results)
	}
	var parked api.Page[api.ParkedAttendance]
	f.admin.Do("GET", "/api/v1/settings/journal-parked", nil).Want(200).JSON(&parked)
	if parked.Meta.Total != 2 || parked.Data[0].SourceStudentID != newID || parked.Data[0].Reason != journal.ReasonUnknownStudent ||
		parked.Data[0].ReasonText == "" {
		t.Fatalf("parked %+v", parked)
	}
	statuses := map[int]string{}
	for _, p := range parked.Data {
		statuses[p.LessonHour] = p.Status
	}
	if statuses[1] != "T" || statuses[2] != "A" {
		t.Errorf("parked statuses %v", statuses)
	}

	// Student affairs gets the student; the next sync applies the parked
	// entries in its transaction.
	f.sim.Update(func(s *schoolsim.School) {
		st := s.Students[0]
		st.ID, st.NISN, st.StudentNumber, st.FullName = newID, "0099887766", "99999", "Siswa Baru Pindahan"
		s.Students = append(s.Students, st)
	})
	if run := f.syncStudents(); run.Status != studentsync.SyncSucceeded {
		t.Fatalf("sync %+v", run)
	}
	if n := f.count(`SELECT count(*) FROM attendance_unmatched`); n != 0 {
		t.Errorf("%d still parked", n)
	}
	var got string
	f.env.DB.Get(&got, `SELECT string_agg(a.status || coalesce(a.notes, '') || a.from_journal::text, ',' ORDER BY a.lesson_hour)
		FROM attendance a JOIN students s ON s.id = a.student_id WHERE s.source_id = $1`, newID)
	if got != "Ttrue,Abolostrue" {
		t.Errorf("applied %q", got)
	}
	if n := f.count(`SELECT count(*) FROM violations v JOIN students s ON s.id = v.student_id
		WHERE s.source_id = $1 AND v.auto_kind IS NOT NULL AND v.recorded_by IS NULL`, newID); n != 2 {
		t.Errorf("automatic violations of the new student: %d", n)
	}
	// Now known: a push applies directly.
	a = f.push(map[string]any{"token": f.token, "attendances": entries}, 200)
	if a.Results.Unmatched != 0 || a.Results.Unchanged != 3 {
		t.Errorf("after sync %+v", a.Results)
	}
}

// The log keeps the newest 5,000 pushes.
func TestPushLogPruned(t *testing.T) {
	t.Parallel()
	f := setup(t, 2, true)
	if _, err := f.env.DB.Exec(`INSERT INTO journal_pushes (outcome, received_at) SELECT 'unauthorized', now() - interval '1 hour'
		FROM generate_series(1, 5300)`); err != nil {
		t.Fatal(err)
	}
	if _, err := f.env.DB.Exec(`SELECT setval('journal_pushes_id_seq', 5399)`); err != nil {
		t.Fatal(err)
	}
	f.push(map[string]any{"token": f.token, "attendances": []any{}}, 200)
	if n := f.count(`SELECT count(*) FROM journal_pushes`); n != 5000 {
		t.Errorf("%d pushes kept", n)
	}
	if n := f.count(`SELECT count(*) FROM journal_pushes WHERE id = 5400`); n != 1 {
		t.Errorf("the newest push was pruned")
	}
}

// The simulator's request, as `tatib-sim journal` sends it, for a whole
// class day including unknown students.
func TestSimulatorDay(t *testing.T) {
	t.Parallel()
	f := setup(t, 40, true)
	students := append(journalsim.FromSchool(f.sch), journalsim.UnknownStudents(2, 1)...)
	day := journalsim.Day(students, "2026-11-04", 1, 10)
	b, _ := json.Marshal(journalsim.Request{Token: f.token, Attendances: day})
	a := f.push(b, 200)
	known := len(students) - 2
	if a.Results.Created != known*10 || a.Results.Unmatched != 20 || a.Results.ViolationsCreated == 0 {
		t.Errorf("results %+v", a.Results)
	}
	if n := f.count(`SELECT count(*) FROM attendance_days WHERE date = '2026-11-04'`); n != known {
		t.Errorf("%d attendance days", n)
	}
}

// Twenty overlapping pushes at once (known and unknown students, other
// statuses each): one row per key, one automatic violation per student,
// day and kind, every push answered 200.
func TestConcurrentOverlappingPushes(t *testing.T) {
	t.Parallel()
	f := setup(t, 8, true)
	students := append(journalsim.FromSchool(f.sch), journalsim.UnknownStudents(2, 9)...)
	done := make(chan string, 20)
	for i := 0; i < 20; i++ {
		go func(seed uint64) {
			body, _ := json.Marshal(journalsim.Request{Token: f.token, Attendances: journalsim.Day(students, "2026-11-05", seed, 10)})
			res, err := f.env.Server.Client().Post(f.env.Server.URL+"/api/v1/attendance/sync", "application/json", bytes.NewReader(body))
			if err != nil {
				done <- err.Error()
				return
			}
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != 200 {
				done <- fmt.Sprintf("%d %s", res.StatusCode, b)
				return
			}
			done <- ""
		}(uint64(i))
	}
	for i := 0; i < 20; i++ {
		if msg := <-done; msg != "" {
			t.Error(msg)
		}
	}
	known := len(students) - 2
	if n := f.count(`SELECT count(*) FROM attendance WHERE date = '2026-11-05'`); n != known*10 {
		t.Errorf("%d rows, want %d", n, known*10)
	}
	if n := f.count(`SELECT count(*) FROM attendance_unmatched`); n != 20 {
		t.Errorf("%d parked, want 20", n)
	}
	if n := f.count(`SELECT count(*) FROM (SELECT 1 FROM violations WHERE auto_kind IS NOT NULL GROUP BY student_id, occurred_on, auto_kind HAVING count(*) > 1) d`); n != 0 {
		t.Errorf("%d duplicated automatic violations", n)
	}
	// The day counts agree with the rows.
	if n := f.count(`SELECT count(*) FROM attendance_days d WHERE d.h + d.s + d.i + d.a + d.t <>
		(SELECT count(*) FROM attendance a WHERE a.student_id = d.student_id AND a.date = d.date)`); n != 0 {
		t.Errorf("%d day counts out of step", n)
	}
}

// A flood of wrong tokens never evicts a real push from the log: they are
// counted per address and minute, apart (issue 25: 5,100 bad-token requests
// pushed every real push out of Settings).
func TestBadTokenFloodKeepsPushLog(t *testing.T) {
	t.Parallel()
	f := setup(t, 2, true)
	f.push(map[string]any{"token": f.token, "attendances": []any{}}, 200)
	if _, err := f.env.DB.Exec(`SELECT setval('journal_pushes_id_seq', 4999)`); err != nil {
		t.Fatal(err)
	}
	for range 120 {
		f.push(map[string]any{"token": "salah", "attendances": []any{}}, 401)
	}
	if n := f.count(`SELECT count(*) FROM journal_pushes WHERE outcome = 'applied'`); n != 1 {
		t.Errorf("real pushes kept: %d", n)
	}
	if n := f.count(`SELECT count(*) FROM journal_auth_failures`); n > 3 {
		t.Errorf("%d rows for 120 refusals from one address", n)
	}
}

// A token in a header is checked before the body is read: a push that
// announces 16 MB and sends 100 bytes is refused at once.
func TestTokenBeforeBody(t *testing.T) {
	t.Parallel()
	f := setup(t, 2, true)
	conn, err := net.Dial("tcp", strings.TrimPrefix(f.env.Server.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	head := "POST /api/v1/attendance/sync HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Journal-Token: salah\r\nContent-Length: 16000000\r\n\r\n"
	if _, err := io.WriteString(conn, head+`{"attendances":[`+strings.Repeat(" ", 84)); err != nil {
		t.Fatal(err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer before the body: %v", err)
	}
	if res.StatusCode != http.StatusUnauthorized {
		t.Fatalf("status %d", res.StatusCode)
	}
}

// Probe finding: a push dated 2001 gave a 15-point violation nobody could
// correct. Dates before the school's window (the current academic year and
// the previous one by default) are refused at the entry; the window is a
// profile setting.
func TestDatesBeforeTheWindowRefused(t *testing.T) {
	t.Parallel()
	f := setup(t, 2, true)
	old := []map[string]any{{"source_student_id": f.source(0), "date": "2001-01-03", "lesson_hour": 1, "status": "alpha"}}
	a := f.push(map[string]any{"token": f.token, "attendances": old}, 422)
	if len(a.Errors["attendances.0.date"]) == 0 {
		t.Fatalf("the entry's date not named: %+v", a)
	}
	if n := f.count(`SELECT count(*) FROM attendance`) + f.count(`SELECT count(*) FROM violations`); n != 0 {
		t.Fatalf("%d rows stored from a refused push", n)
	}
	// The previous academic year is inside the default window.
	start := time.Now().In(jakartaTZ(t))
	prev := time.Date(start.Year()-1, time.August, 3, 0, 0, 0, 0, time.UTC)
	if start.Month() < time.July {
		prev = prev.AddDate(-1, 0, 0)
	}
	ok := []map[string]any{{"source_student_id": f.source(0), "date": prev.Format(time.DateOnly), "lesson_hour": 1, "status": "hadir"}}
	f.push(map[string]any{"token": f.token, "attendances": ok}, 200)
	// With the window at 0 (this year only) the same date is refused.
	var prof map[string]any
	f.admin.Do("GET", "/api/v1/settings/school", nil).Want(200).JSON(&prof)
	prof["journal_previous_years"] = 0
	prof["name"] = "SMA Negeri 1"
	delete(prof, "updated_at")
	f.admin.Do("PUT", "/api/v1/settings/school", prof).Want(200)
	f.push(map[string]any{"token": f.token, "attendances": ok}, 422)
	prof["journal_previous_years"] = 9
	f.admin.Do("PUT", "/api/v1/settings/school", prof).Want(422)
}

// Probe finding: the journal created automatic violations for an inactive
// student whom the class form hides. Their entries are parked like an
// unknown student's, with their own reason.
func TestInactiveStudentParked(t *testing.T) {
	t.Parallel()
	f := setup(t, 2, true)
	f.env.DB.MustExec(`UPDATE students SET active = false WHERE source_id = $1`, f.source(1))
	entries := []map[string]any{
		{"source_student_id": f.source(1), "date": "2026-11-02", "lesson_hour": 1, "status": "alpha"},
		{"source_student_id": f.source(0), "date": "2026-11-02", "lesson_hour": 1, "status": "alpha"},
	}
	a := f.push(map[string]any{"token": f.token, "attendances": entries}, 200)
	if a.Results.Created != 1 || a.Results.Unmatched != 1 {
		t.Fatalf("results %+v", a.Results)
	}
	if n := f.count(`SELECT count(*) FROM violations v JOIN students s ON s.id = v.student_id WHERE s.source_id = $1`, f.source(1)); n != 0 {
		t.Fatalf("%d automatic violations for an inactive student", n)
	}
	var parked api.Page[api.ParkedAttendance]
	f.admin.Do("GET", "/api/v1/settings/journal-parked", nil).Want(200).JSON(&parked)
	if len(parked.Data) != 1 || parked.Data[0].Reason != journal.ReasonInactiveStudent || !strings.Contains(parked.Data[0].ReasonText, "tidak aktif") {
		t.Fatalf("parked %+v", parked.Data)
	}
}

func jakartaTZ(t *testing.T) *time.Location {
	loc, err := time.LoadLocation("Asia/Jakarta")
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// Probe finding: a data reset racing journal pushes gave a 500 (a deadlock
// victim) and needed six tries. The reset waits for pushes in flight, and a
// deadlock either side still loses is retried inside the server: every
// push answers 200 and every reset 200.
func TestPushesRacingReset(t *testing.T) {
	t.Parallel()
	f := setup(t, 8, true)
	var prof map[string]any
	f.admin.Do("GET", "/api/v1/settings/school", nil).Want(200).JSON(&prof)
	prof["name"] = "SMA Negeri 1"
	delete(prof, "updated_at")
	f.admin.Do("PUT", "/api/v1/settings/school", prof).Want(200)
	students := journalsim.FromSchool(f.sch)
	done := make(chan string, 12)
	for i := 0; i < 10; i++ {
		go func(seed uint64) {
			body, _ := json.Marshal(journalsim.Request{Token: f.token, Attendances: journalsim.Day(students, "2026-11-05", seed, 10)})
			res, err := f.env.Server.Client().Post(f.env.Server.URL+"/api/v1/attendance/sync", "application/json", bytes.NewReader(body))
			if err != nil {
				done <- err.Error()
				return
			}
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != 200 {
				done <- fmt.Sprintf("push %d %s", res.StatusCode, b)
				return
			}
			done <- ""
		}(uint64(i))
	}
	for range 2 {
		go func() {
			res := f.admin.Do("POST", "/api/v1/admin/reset", api.ResetRequest{Sets: []string{api.ResetAttendance, api.ResetViolations},
				SchoolName: "SMA Negeri 1", Password: "rahasia123"})
			if res.Status != 200 {
				done <- fmt.Sprintf("reset %d %s", res.Status, res.Body)
				return
			}
			done <- ""
		}()
	}
	for range 12 {
		if msg := <-done; msg != "" {
			t.Error(msg)
		}
	}
}
