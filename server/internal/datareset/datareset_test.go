package datareset_test

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/datareset"
	"github.com/tatib/tatib/server/internal/violationtype"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

const schoolName = "SMK Negeri 1 Contoh"

// allTables are every table a reset may touch, and the ones it never may.
var allTables = []string{
	"violations", "violation_photos", "handlings", "handling_participants", "warning_letters", "warning_letter_events", "point_audit",
	"point_reductions", "achievement_photos", "achievement_students", "achievements",
	"attendance", "attendance_days", "journal_pushes", "attendance_unmatched",
	"notifications", "parent_messages", "parent_message_attempts",
	"students", "classes", "departments", "student_syncs",
	"violation_types", "violation_categories", "sp_thresholds", "handling_types",
	"users", "sessions", "role_permissions", "settings", "backups",
	"face_scans", "face_challenges", "face_embeddings", "face_consents", "kiosks", "face_settings",
}

// setTables is what each set empties entirely (tables shared between sets
// are checked per case).
var setTables = map[string][]string{
	api.ResetViolations: {"violations", "violation_photos", "handlings", "handling_participants", "warning_letters", "warning_letter_events", "point_audit",
		"point_reductions", "achievement_photos", "achievement_students", "achievements"},
	api.ResetAttendance:     {"attendance", "attendance_days", "journal_pushes", "attendance_unmatched"},
	api.ResetNotifications:  {"notifications"},
	api.ResetParentMessages: {"parent_messages", "parent_message_attempts"},
	api.ResetStudents:       {"students", "classes", "departments", "student_syncs"},
	api.ResetViolationTypes: {},
	api.ResetUsers:          {},
	datareset.ResetFace:     {"face_scans", "face_challenges", "face_embeddings", "face_consents"},
}

type school struct {
	env   *apitest.Env
	admin *apitest.Client
	// adminName signs in again after a users reset
	adminID int64
	wali    int64
}

func counts(t *testing.T, db *sqlx.DB) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	for _, tb := range allTables {
		var n int64
		if err := db.Get(&n, `SELECT count(*) FROM `+tb); err != nil {
			t.Fatal(err)
		}
		out[tb] = n
	}
	return out
}

// newSchool builds a small school: two students in a class with a homeroom
// teacher, violations with a photo, a handling, a letter and points
// history, attendance, notifications, parent messages (one queued for a
// violation, one sent, one of a summons already sent), a sync, an own
// category and type, a BK and a staff user with sessions, and a backup.
func newSchool(t *testing.T) *school {
	t.Helper()
	env := apitest.New(t)
	ctx := context.Background()
	if err := violationtype.EnsureDefaults(ctx, env.DB); err != nil {
		t.Fatal(err)
	}
	admin := env.As(perm.Admin)
	wali, _ := env.CreateUser(perm.WaliKelas)
	bk := env.As(perm.BK)
	_ = env.As(perm.Staff)
	p, _ := json.Marshal(map[string]any{"name": schoolName})
	mustExec(t, env.DB, `INSERT INTO settings (key, value) VALUES ('school', $1)`, string(p))
	mustExec(t, env.DB, `
		WITH d AS (INSERT INTO departments (code, name) VALUES ('TKJ', 'Teknik Komputer') RETURNING id),
		c AS (INSERT INTO classes (name, grade, department_id, homeroom_teacher_id) SELECT 'X TKJ 1', 10, d.id, $1 FROM d RETURNING id)
		INSERT INTO students (source_id, full_name, class_id) SELECT n, 'Siswa ' || n, c.id FROM c, generate_series(1, 2) n`, wali)
	mustExec(t, env.DB, `INSERT INTO student_syncs (status, trigger) VALUES ('succeeded', 'manual')`)
	mustExec(t, env.DB, `
		WITH cat AS (INSERT INTO violation_categories (name, colour, sort_order) VALUES ('Khusus', 'grape', 9) RETURNING id)
		INSERT INTO violation_types (name, slug, points, category_id) SELECT 'Merokok', 'merokok', 50, id FROM cat`)
	mustExec(t, env.DB, `
		INSERT INTO violations (student_id, class_id, class_name, violation_type_id, occurred_at, occurred_on, points, recorded_by)
		SELECT s.id, s.class_id, 'X TKJ 1', t.id, now(), current_date, t.points, $1
		FROM students s, violation_types t WHERE t.slug IN ('merokok', 'terlambat')`, bk.UserID)
	mustExec(t, env.DB, `INSERT INTO violation_photos (violation_id, content_type, width, height, image, thumbnail)
		SELECT id, 'image/jpeg', 1, 1, '\x00', '\x00' FROM violations ORDER BY id LIMIT 1`)
	mustExec(t, env.DB, `WITH h AS (INSERT INTO handlings (violation_id, handling_type_id, handled_on, created_by)
		SELECT (SELECT min(id) FROM violations), (SELECT min(id) FROM handling_types), current_date, $1 RETURNING id)
		INSERT INTO handling_participants (handling_id, user_id, name, role) SELECT id, $1, 'Bu BK', 'BK' FROM h`, bk.UserID)
	mustExec(t, env.DB, `WITH l AS (INSERT INTO warning_letters (student_id, level, name, min_points, academic_year_start, points, violation_id)
		SELECT student_id, 1, 'SP 1', 50, date '2026-07-01', 52, id FROM violations ORDER BY id LIMIT 1 RETURNING id)
		INSERT INTO warning_letter_events (letter_id, status) SELECT id, 'draft' FROM l`)
	mustExec(t, env.DB, `INSERT INTO point_audit (student_id, violation_id, action, points_before, points_after)
		SELECT student_id, id, 'record', 0, points FROM violations`)
	mustExec(t, env.DB, `INSERT INTO attendance (student_id, date, lesson_hour, status, from_journal)
		SELECT id, current_date, h, 'H', true FROM students, generate_series(1, 3) h`)
	mustExec(t, env.DB, `INSERT INTO attendance_days (student_id, date, h) SELECT id, current_date, 3 FROM students`)
	mustExec(t, env.DB, `WITH p AS (INSERT INTO journal_pushes (outcome, entries) VALUES ('applied', 6) RETURNING id)
		INSERT INTO attendance_unmatched (source_student_id, date, lesson_hour, status, push_id) SELECT 99, current_date, 1, 'A', id FROM p`)
	mustExec(t, env.DB, `INSERT INTO notifications (user_id, kind, url, violation_id)
		SELECT u.id, 'violation', '/violations/' || v.id, v.id FROM users u, violations v`)
	mustExec(t, env.DB, `INSERT INTO parent_messages (student_id, event, violation_id, body, status)
		SELECT student_id, 'violation', id, 'Pesan', CASE WHEN id = (SELECT min(id) FROM violations) THEN 'queued' ELSE 'sent' END FROM violations`)
	mustExec(t, env.DB, `INSERT INTO parent_message_attempts (message_id, outcome) SELECT id, 'sent' FROM parent_messages`)
	mustExec(t, env.DB, `UPDATE messaging_state SET paused_until = now() + interval '1 hour', pause_reason = 'rate_limited'`)
	// Face-ID: a consent and a sample per student, a kiosk with a used
	// challenge and a scan that matched the first student.
	mustExec(t, env.DB, `WITH c AS (INSERT INTO face_consents (student_id, guardian_name, relationship, method, given_on)
		SELECT id, 'Wali ' || full_name, 'mother', 'paper', current_date FROM students RETURNING id, student_id)
		INSERT INTO face_embeddings (student_id, consent_id, model, dim, vec) SELECT student_id, id, 'm', 16, decode(repeat('0000803f', 16), 'hex') FROM c`)
	mustExec(t, env.DB, `WITH k AS (INSERT INTO kiosks (name, token_hash) VALUES ('Gerbang', '\x01') RETURNING id),
		ch AS (INSERT INTO face_challenges (id, kiosk_id, kind, expires_at, used_at) SELECT 'challenge-0123456789', id, 'blink', now(), now() FROM k)
		INSERT INTO face_scans (kiosk_id, kiosk_name, outcome, model, student_id, score, attendance)
		SELECT k.id, 'Gerbang', 'matched', 'm', (SELECT min(id) FROM students), 0.9, 'kept' FROM k`)
	mustExec(t, env.DB, `INSERT INTO backups (status, finished_at, size_bytes, filename, created_by_name) VALUES ('done', now(), 1234, 'tatib.dump', 'Admin')`)
	return &school{env: env, admin: admin, adminID: admin.UserID, wali: wali}
}

func mustExec(t *testing.T, db *sqlx.DB, q string, args ...any) {
	t.Helper()
	if _, err := db.Exec(q, args...); err != nil {
		t.Fatalf("%v\n%s", err, q)
	}
}

func (s *school) reset(sets ...string) *apitest.Response {
	return s.admin.Do("POST", "/api/v1/admin/reset", api.ResetRequest{Sets: sets, SchoolName: schoolName, Password: "rahasia123"})
}

func TestInfo(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	var info api.ResetInfo
	s.admin.Do("GET", "/api/v1/admin/reset", nil, "Accept-Language", "en").Want(200).JSON(&info)
	if info.SchoolName != schoolName || info.LastBackup == nil || info.LastBackup.Filename != "tatib.dump" {
		t.Fatalf("info: %+v", info)
	}
	byID := map[string]api.ResetSet{}
	for _, st := range info.Sets {
		byID[st.ID] = st
	}
	if len(byID) != 8 {
		t.Fatalf("sets: %v", slices.Collect(maps.Keys(byID)))
	}
	v := byID[api.ResetViolations]
	// 2 students x 2 types; 4 users x 4 violations notifications; one queued message with its attempt
	want := map[string]int64{"violations": 4, "violation_photos": 1, "handlings": 1, "handling_participants": 1, "warning_letters": 1,
		"warning_letter_events": 1, "point_audit": 4, "notifications": 16, "parent_messages": 1, "parent_message_attempts": 1,
		"point_reductions": 0, "achievement_photos": 0, "achievement_students": 0, "achievements": 0}
	if !maps.Equal(v.Rows, want) || v.Total != 31 || v.Label != "Violations" || v.Description == "" {
		t.Fatalf("violations set: %+v", v)
	}
	if st := byID[api.ResetStudents]; st.Rows["students"] != 2 || st.Rows["classes"] != 1 ||
		!slices.Equal(st.Requires, []string{api.ResetViolations, api.ResetAttendance, api.ResetParentMessages, datareset.ResetFace}) {
		t.Fatalf("students set: %+v", st)
	}
	if st := byID[datareset.ResetFace]; st.Rows["face_consents"] != 2 || st.Rows["face_embeddings"] != 2 || st.Rows["face_scans"] != 1 ||
		st.Rows["face_challenges"] != 1 || st.Total != 6 || st.Label != "Face-ID data" {
		t.Fatalf("face set: %+v", st)
	}
	if st := byID[api.ResetUsers]; st.Rows["users"] != 3 || st.Rows["sessions"] != 2 || st.Rows["notifications"] != 12 {
		t.Fatalf("users set: %+v", st)
	}
	var id api.ResetInfo
	s.admin.Do("GET", "/api/v1/admin/reset", nil, "Accept-Language", "id").Want(200).JSON(&id)
	if id.Sets[0].Label != "Pelanggaran" {
		t.Fatalf("label id: %q", id.Sets[0].Label)
	}
}

// Each set alone and in combination: what it owns is gone, everything else
// is as it was, the defaults are there and the audit entry says what went.
func TestReset(t *testing.T) {
	t.Parallel()
	cases := [][]string{
		{api.ResetViolations},
		{api.ResetAttendance},
		{api.ResetNotifications},
		{api.ResetParentMessages},
		{api.ResetUsers},
		{datareset.ResetFace},
		{api.ResetViolations, api.ResetAttendance},
		{api.ResetViolationTypes, api.ResetViolations},
		{api.ResetStudents, api.ResetViolations, api.ResetAttendance, api.ResetParentMessages, datareset.ResetFace},
		{api.ResetViolations, api.ResetAttendance, api.ResetNotifications, api.ResetParentMessages, api.ResetStudents, api.ResetViolationTypes, api.ResetUsers, datareset.ResetFace},
	}
	for _, sets := range cases {
		t.Run(joinSets(sets), func(t *testing.T) {
			t.Parallel()
			s := newSchool(t)
			db := s.env.DB
			before := counts(t, db)
			var res api.ResetResult
			s.reset(sets...).Want(200).JSON(&res)
			after := counts(t, db)

			gone := map[string]bool{}
			for _, id := range sets {
				for _, tb := range setTables[id] {
					gone[tb] = true
				}
			}
			for tb := range gone {
				if after[tb] != 0 {
					t.Errorf("%s: %d rows left", tb, after[tb])
				}
				if res.Removed[tb] != before[tb] {
					t.Errorf("%s: removed %d, had %d", tb, res.Removed[tb], before[tb])
				}
			}
			has := func(id string) bool { return slices.Contains(sets, id) }
			// Tables shared between sets, by rule.
			wantNotif := before["notifications"]
			switch {
			case has(api.ResetNotifications) || has(api.ResetViolations):
				wantNotif = 0
			case has(api.ResetUsers):
				wantNotif = before["notifications"] / 4 // the admin's
			}
			if after["notifications"] != wantNotif {
				t.Errorf("notifications: %d, want %d", after["notifications"], wantNotif)
			}
			if has(api.ResetViolations) && !has(api.ResetParentMessages) {
				var queued int
				must(t, db.Get(&queued, `SELECT count(*) FROM parent_messages WHERE status = 'queued'`))
				if queued != 0 || after["parent_messages"] != before["parent_messages"]-1 {
					t.Errorf("parent messages: %d queued, %d left", queued, after["parent_messages"])
				}
			}
			if has(api.ResetParentMessages) {
				var paused bool
				must(t, db.Get(&paused, `SELECT paused_until IS NOT NULL FROM messaging_state`))
				if paused {
					t.Error("messaging pause kept")
				}
			}
			if has(api.ResetUsers) {
				var roles []string
				must(t, db.Select(&roles, `SELECT DISTINCT role FROM users`))
				if !slices.Equal(roles, []string{"admin"}) || after["sessions"] != 1 {
					t.Errorf("users left: %v, sessions %d", roles, after["sessions"])
				}
				if !has(api.ResetStudents) {
					var homeroom *int64
					must(t, db.Get(&homeroom, `SELECT homeroom_teacher_id FROM classes`))
					if homeroom != nil {
						t.Error("homeroom teacher kept")
					}
				}
			}
			if has(api.ResetViolationTypes) {
				var own int
				must(t, db.Get(&own, `SELECT count(*) FROM violation_types WHERE slug = 'merokok'`))
				if own != 0 || !slices.Equal(res.Recreated, []string{"violation_categories", "sp_thresholds", "handling_types", "system_types"}) {
					t.Errorf("own type %d, recreated %v", own, res.Recreated)
				}
			} else if len(res.Recreated) != 0 {
				t.Errorf("recreated %v with nothing missing", res.Recreated)
			}
			// The defaults are back (or never left).
			var cats, thr, hand, sys int
			must(t, db.QueryRow(`SELECT (SELECT count(*) FROM violation_categories WHERE name IN ('Ringan','Sedang','Berat')),
				(SELECT count(*) FROM sp_thresholds), (SELECT count(*) FROM handling_types), (SELECT count(*) FROM violation_types WHERE is_system)`).
				Scan(&cats, &thr, &hand, &sys))
			if cats != 3 || thr != 3 || hand != len(violationtype.DefaultHandlingTypes) || sys != 2 {
				t.Errorf("defaults: %d %d %d %d", cats, thr, hand, sys)
			}
			// Everything no chosen set owns is untouched.
			owned := map[string]bool{"notifications": true, "parent_messages": true, "parent_message_attempts": true}
			for tb := range gone {
				owned[tb] = true
			}
			if has(api.ResetUsers) {
				owned["users"], owned["sessions"] = true, true
			}
			if has(api.ResetViolationTypes) {
				for _, tb := range []string{"violation_types", "violation_categories", "sp_thresholds", "handling_types"} {
					owned[tb] = true
				}
			}
			for _, tb := range allTables {
				if !owned[tb] && after[tb] != before[tb] {
					t.Errorf("%s: %d rows, had %d (not chosen)", tb, after[tb], before[tb])
				}
			}
			if after["role_permissions"] != before["role_permissions"] || after["settings"] != before["settings"] {
				t.Error("role permissions or settings changed")
			}
			// The audit entry, the latest of a log that was not emptied.
			var e struct {
				ID      int64           `db:"id"`
				Action  string          `db:"action"`
				ActorID *int64          `db:"actor_id"`
				Details json.RawMessage `db:"details"`
			}
			must(t, db.Get(&e, `SELECT id, action, actor_id, details FROM audit_log ORDER BY id DESC LIMIT 1`))
			var d struct {
				Sets    []string         `json:"sets"`
				Removed map[string]int64 `json:"removed"`
			}
			must(t, json.Unmarshal(e.Details, &d))
			if e.ID != res.AuditID || e.Action != "data.reset" || e.ActorID == nil || *e.ActorID != s.adminID ||
				len(d.Sets) != len(sets) || !maps.Equal(d.Removed, res.Removed) {
				t.Errorf("audit: %+v %s (result %+v)", e, e.Details, res)
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func joinSets(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += "+"
		}
		out += x
	}
	return out
}

// A refused reset removes nothing.
func TestResetRefused(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	before := counts(t, s.env.DB)
	type body = map[string]any
	cases := []struct {
		name  string
		body  body
		field string
		code  string
	}{
		{"ErrMissingRequirement", body{"sets": []string{"students", "violations"}, "school_name": schoolName, "password": "rahasia123"}, "sets", "datareset.sets_missing"},
		{"ErrTypesWithoutViolations", body{"sets": []string{"violation_types"}, "school_name": schoolName, "password": "rahasia123"}, "sets", "datareset.sets_missing"},
		{"ErrNoSets", body{"sets": []string{}, "school_name": schoolName, "password": "rahasia123"}, "sets", "datareset.sets_required"},
		{"ErrUnknownSet", body{"sets": []string{"audit_log"}, "school_name": schoolName, "password": "rahasia123"}, "sets", "datareset.set_unknown"},
		{"ErrSchoolName", body{"sets": []string{"violations"}, "school_name": "SMK Negeri 1 contoh", "password": "rahasia123"}, "school_name", "datareset.school_name_wrong"},
		{"ErrSchoolNameEmpty", body{"sets": []string{"violations"}, "school_name": " ", "password": "rahasia123"}, "school_name", "datareset.school_name_required"},
		{"ErrPassword", body{"sets": []string{"violations"}, "school_name": schoolName, "password": "salah123"}, "password", "datareset.password_wrong"},
		{"ErrPasswordEmpty", body{"sets": []string{"violations"}, "school_name": schoolName, "password": ""}, "password", "datareset.password_required"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := s.admin.Do("POST", "/api/v1/admin/reset", c.body).Want(422).Err()
			if got := e.Error.FieldCodes[c.field].Code; got != c.code {
				t.Fatalf("field_codes = %+v, want %s on %s", e.Error.FieldCodes, c.code, c.field)
			}
		})
	}
	t.Run("MissingNamed", func(t *testing.T) {
		e := s.admin.Do("POST", "/api/v1/admin/reset", body{"sets": []string{"students"}, "school_name": schoolName, "password": "rahasia123"},
			"Accept-Language", "en").Want(422).Err()
		if e.Error.FieldCodes["sets"].Params["missing"] != "violations,attendance,parent_messages,face" ||
			e.Error.Fields["sets"] != "These must be emptied too: Violations, Attendance, Parent messages, Face-ID data." {
			t.Fatalf("%+v", e.Error)
		}
	})
	if after := counts(t, s.env.DB); !maps.Equal(before, after) {
		t.Fatalf("a refused reset changed rows:\nbefore %v\nafter  %v", before, after)
	}
	var n int
	must(t, s.env.DB.Get(&n, `SELECT count(*) FROM audit_log WHERE action = 'data.reset'`))
	if n != 0 {
		t.Fatalf("%d reset entries", n)
	}
	// The school name is compared trimmed.
	s.admin.Do("POST", "/api/v1/admin/reset", body{"sets": []string{"notifications"}, "school_name": "  " + schoolName + " ", "password": "rahasia123"}).Want(200)
}

func TestResetUnsetSchoolName(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	mustExec(t, s.env.DB, `DELETE FROM settings WHERE key = 'school'`)
	e := s.admin.Do("POST", "/api/v1/admin/reset", api.ResetRequest{Sets: []string{"notifications"}, SchoolName: "", Password: "rahasia123"}).Want(422).Err()
	if e.Error.FieldCodes["school_name"].Code != "datareset.school_name_unset" {
		t.Fatalf("%+v", e.Error)
	}
}

// Wrong passwords count as failed sign-ins: the sixth guess is throttled.
func TestResetPasswordThrottled(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	for i := 0; i < 5; i++ {
		s.admin.Do("POST", "/api/v1/admin/reset", api.ResetRequest{Sets: []string{"notifications"}, SchoolName: schoolName, Password: "salah123"}).Want(422)
	}
	s.reset(api.ResetNotifications).Want(429)
}

// A BK and a homeroom teacher get 403, even when someone stored a grant of
// data.reset for their role.
func TestResetForbidden(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	bk := s.env.As(perm.BK)
	wali := s.env.As(perm.WaliKelas)
	s.admin.Do("PUT", "/api/v1/roles/bk/permissions", map[string]any{"permissions": append(perm.Defaults(perm.BK), perm.DataReset)}).Want(422)
	mustExec(t, s.env.DB, `INSERT INTO role_permissions (role, permission, granted) VALUES ('bk', 'data.reset', true), ('wali_kelas', 'data.reset', true)`)
	must(t, s.env.Deps.Auth.DropPermissionCache(context.Background()))
	before := counts(t, s.env.DB)
	for _, c := range []*apitest.Client{bk, wali} {
		c.Do("GET", "/api/v1/admin/reset", nil).Want(403)
		c.Do("POST", "/api/v1/admin/reset", api.ResetRequest{Sets: []string{"violations"}, SchoolName: schoolName, Password: "rahasia123"}).Want(403)
	}
	s.env.Anonymous().Do("POST", "/api/v1/admin/reset", api.ResetRequest{Sets: []string{"violations"}, SchoolName: schoolName, Password: "rahasia123"}).Want(401)
	if after := counts(t, s.env.DB); !maps.Equal(before, after) {
		t.Fatal("a refused caller changed rows")
	}
}

// Two resets at once: the second waits for the first's commit, then runs
// on what the first left (it removes nothing the first removed).
//
// Not parallel: the hook is the package's.
func TestResetSerialised(t *testing.T) {
	s := newSchool(t)
	held := make(chan struct{})
	release := make(chan struct{})
	var once sync.Once
	datareset.SetBeforeCommit(func(ctx context.Context, tx *sqlx.Tx) error {
		first := false
		once.Do(func() { first = true })
		if first {
			close(held)
			<-release
		}
		return nil
	})
	defer datareset.SetBeforeCommit(nil)
	results := make([]api.ResetResult, 2)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s.reset(api.ResetViolations).Want(200).JSON(&results[0])
	}()
	<-held
	other := s.env.Login(s.adminUsername(t), "rahasia123")
	wg.Add(1)
	go func() {
		defer wg.Done()
		other.Do("POST", "/api/v1/admin/reset", api.ResetRequest{Sets: []string{api.ResetViolations}, SchoolName: schoolName, Password: "rahasia123"}).
			Want(200).JSON(&results[1])
	}()
	// The second waits on the reset lock while the first holds it.
	waitFor(t, func() bool {
		var n int
		must(t, s.env.DB.Get(&n, `SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`))
		return n == 1
	})
	close(release)
	wg.Wait()
	if results[0].Removed["violations"] != 4 || results[1].Removed["violations"] != 0 {
		t.Fatalf("removed: first %v, second %v", results[0].Removed, results[1].Removed)
	}
	var n int
	must(t, s.env.DB.Get(&n, `SELECT count(*) FROM audit_log WHERE action = 'data.reset'`))
	if n != 2 {
		t.Fatalf("%d audit entries", n)
	}
}

func (s *school) adminUsername(t *testing.T) string {
	var u string
	must(t, s.env.DB.Get(&u, `SELECT username FROM users WHERE id = $1`, s.adminID))
	return u
}

func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if ok() {
			return
		}
	}
	t.Fatal("timed out")
}

// A reset whose database connection dies before the commit (the server
// killed mid-transaction, as PostgreSQL sees it) leaves everything as it
// was.
//
// Not parallel: the hook is the package's.
func TestResetInterrupted(t *testing.T) {
	s := newSchool(t)
	before := counts(t, s.env.DB)
	errKilled := errors.New("killed")
	datareset.SetBeforeCommit(func(ctx context.Context, tx *sqlx.Tx) error {
		var pid int
		if err := tx.GetContext(ctx, &pid, `SELECT pg_backend_pid()`); err != nil {
			return err
		}
		// Everything is deleted inside the transaction at this point.
		var left int
		if err := tx.GetContext(ctx, &left, `SELECT count(*) FROM students`); err != nil || left != 0 {
			t.Errorf("students before the kill: %d %v", left, err)
		}
		if _, err := s.env.DB.Exec(`SELECT pg_terminate_backend($1)`, pid); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `SELECT 1`); err == nil {
			return errKilled // the kill did not land; fail the reset anyway
		}
		return nil // go on to the commit, on a dead connection
	})
	defer datareset.SetBeforeCommit(nil)
	res := s.reset(api.ResetStudents, api.ResetViolations, api.ResetAttendance, api.ResetParentMessages, api.ResetViolationTypes, api.ResetUsers, api.ResetNotifications, datareset.ResetFace)
	// The connection is gone: the server answers the database unavailable.
	if res.Status != 503 {
		t.Fatalf("status %d: %s", res.Status, res.Body)
	}
	if after := counts(t, s.env.DB); !maps.Equal(before, after) {
		t.Fatalf("an interrupted reset changed rows:\nbefore %v\nafter  %v", before, after)
	}
	var n int
	must(t, s.env.DB.Get(&n, `SELECT count(*) FROM audit_log WHERE action = 'data.reset'`))
	if n != 0 {
		t.Fatalf("%d audit entries", n)
	}
	s.admin.Do("GET", "/api/v1/admin/reset", nil).Want(200)
}

// A default an admin had removed (the whole SP ladder) comes back with any
// reset, and the result says so.
func TestResetRecreatesMissingDefaults(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	mustExec(t, s.env.DB, `DELETE FROM sp_thresholds`)
	var res api.ResetResult
	s.reset(api.ResetAttendance).Want(200).JSON(&res)
	var n int
	must(t, s.env.DB.Get(&n, `SELECT count(*) FROM sp_thresholds`))
	if n != len(violationtype.DefaultThresholds) || !slices.Equal(res.Recreated, []string{"sp_thresholds"}) {
		t.Fatalf("thresholds %d, recreated %v", n, res.Recreated)
	}
}

// A reset that deadlocks with another writer is a Conflict to retry, and
// removes nothing.
func TestResetDeadlockIsConflict(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	before := counts(t, s.env.DB)
	// Another transaction holds a row of violations; a short lock_timeout
	// on the reset's side stands in for the deadlock detector's verdict.
	tx, err := s.env.DB.Beginx()
	must(t, err)
	defer tx.Rollback()
	_, err = tx.Exec(`UPDATE violations SET description = 'dipakai' WHERE id = (SELECT min(id) FROM violations)`)
	must(t, err)
	mustExec(t, s.env.DB, `ALTER DATABASE `+currentDB(t, s.env.DB)+` SET lock_timeout = '200ms'`)
	s.env.DB.SetMaxIdleConns(0) // new connections pick the setting up
	e := s.reset(api.ResetViolations).Want(409).Err()
	if e.Error.MessageCode != "datareset.busy" {
		t.Fatalf("%+v", e.Error)
	}
	must(t, tx.Rollback())
	if after := counts(t, s.env.DB); !maps.Equal(before, after) {
		t.Fatal("a busy reset changed rows")
	}
}

func currentDB(t *testing.T, db *sqlx.DB) string {
	var name string
	must(t, db.Get(&name, `SELECT current_database()`))
	return name
}
