package attendance_test

import (
	"context"
	"fmt"
	"math/rand"
	"sync"
	"testing"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/attendance"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/shared/api"
)

const day = "2025-11-03"

func TestParseStatus(t *testing.T) {
	for in, want := range map[string]string{
		"H": "H", "h": "H", " hadir ": "H", "Present": "H",
		"S": "S", "sakit": "S", "SICK": "S",
		"I": "I", "izin": "I", "permission": "I",
		"A": "A", "alpha": "A", "Absent": "A",
		"T": "T", "terlambat": "T", "late": "T",
		"belum": api.AttendanceNone, " BELUM": api.AttendanceNone,
	} {
		if got, ok := attendance.ParseStatus(in); !ok || got != want {
			t.Errorf("ParseStatus(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "X", "hadirr", "-", "null"} {
		if got, ok := attendance.ParseStatus(in); ok {
			t.Errorf("ParseStatus(%q) = %q, true; want false", in, got)
		}
	}
}

func TestAlphaPoints(t *testing.T) {
	for _, c := range []struct{ typePoints, hours, want int }{
		{15, 1, 2}, {15, 3, 5}, {15, 10, 15}, {3, 1, 1}, {15, 2, 3}, {10, 16, 16}, {1, 4, 1}, {5, 1, 1},
	} {
		if got := attendance.AlphaPoints(c.typePoints, c.hours); got != c.want {
			t.Errorf("AlphaPoints(%d, %d) = %d, want %d", c.typePoints, c.hours, got, c.want)
		}
	}
}

func TestApplyAlphaPoints(t *testing.T) {
	s := newSchool(t)
	for _, c := range []struct {
		hours, want int
	}{{1, 2}, {3, 5}, {10, 15}} {
		st := s.student(t, s.classA)
		statuses := make([]string, 10)
		for i := range statuses {
			statuses[i] = "H"
			if i < c.hours {
				statuses[i] = "A"
			}
		}
		res := s.apply(t, journal, hours(st, day, statuses...)...)
		if res.Created != 10 || res.ViolationsCreated != 1 {
			t.Errorf("%d hours: %+v", c.hours, res)
		}
		v := s.autos(t, st, day, api.AutoAlpha)
		if len(v) != 1 || v[0].Points != c.want || v[0].Hours != c.hours {
			t.Errorf("%d A hours: %+v, want one of %d points", c.hours, v, c.want)
		}
		want := fmt.Sprintf("Alpha — tidak hadir tanpa keterangan (%d jam pelajaran)", c.hours)
		if len(v) == 1 && v[0].Desc != want {
			t.Errorf("description %q, want %q", v[0].Desc, want)
		}
	}
	// A 3-point alpha type: 0.3 rounds to 0, at least 1.
	must(t, s.env.DB.Get(new(int), `UPDATE violation_types SET points = 3 WHERE slug = 'alpha' RETURNING points`))
	st := s.student(t, s.classA)
	s.apply(t, journal, hours(st, day, "A")...)
	if v := s.autos(t, st, day, api.AutoAlpha); len(v) != 1 || v[0].Points != 1 {
		t.Errorf("3-point type, 1 hour: %+v, want 1 point", v)
	}
	// Dated 07:00 Jakarta on its own day, from attendance.
	var at string
	must(t, s.env.DB.Get(&at, `SELECT to_char(occurred_at AT TIME ZONE 'Asia/Jakarta', 'YYYY-MM-DD HH24:MI') || source
		FROM violations WHERE student_id = $1`, st))
	if at != day+" 07:00attendance" {
		t.Errorf("occurred_at, source: %s", at)
	}
}

func TestApplyLate(t *testing.T) {
	s := newSchool(t)
	st := s.student(t, s.classA)
	res := s.apply(t, journal, hours(st, day, "T", "H")...)
	v := s.autos(t, st, day, api.AutoLate)
	if res.ViolationsCreated != 1 || len(v) != 1 || v[0].Points != 2 || v[0].Desc != "Terlambat (1 jam pelajaran)" {
		t.Fatalf("late: %+v %+v", res, v)
	}
	// A second late hour: the same violation, the type's points still.
	res = s.apply(t, journal, hours(st, day, "T", "T")...)
	v2 := s.autos(t, st, day, api.AutoLate)
	if res.Updated != 1 || res.ViolationsUpdated != 1 || res.ViolationsCreated != 0 || len(v2) != 1 || v2[0].ID != v[0].ID ||
		v2[0].Points != 2 || v2[0].Hours != 2 {
		t.Errorf("two late hours: %+v %+v", res, v2)
	}
	// Same points: no point audit entry for the update.
	if n := s.count(t, `SELECT count(*) FROM point_audit WHERE student_id = $1`, st); n != 1 {
		t.Errorf("point audit entries %d, want 1 (the record)", n)
	}
	if s.autos(t, st, day, api.AutoAlpha) != nil {
		t.Error("late made an alpha violation")
	}
}

func TestApplyHoursChangeUpdates(t *testing.T) {
	s := newSchool(t)
	st := s.student(t, s.classA)
	s.apply(t, journal, hours(st, day, "A", "H", "H")...)
	first := s.autos(t, st, day, api.AutoAlpha)
	res := s.apply(t, journal, hours(st, day, "A", "A", "A")...)
	v := s.autos(t, st, day, api.AutoAlpha)
	if res.Created != 0 || res.Updated != 2 || res.Unchanged != 1 || res.ViolationsUpdated != 1 || res.ViolationsCreated != 0 {
		t.Errorf("result %+v", res)
	}
	if len(v) != 1 || v[0].ID != first[0].ID || v[0].Points != 5 || v[0].Hours != 3 ||
		v[0].Desc != "Alpha — tidak hadir tanpa keterangan (3 jam pelajaran)" {
		t.Errorf("after 3 hours: %+v", v)
	}
	var audits []struct {
		Action string `db:"action"`
		Before int    `db:"points_before"`
		After  int    `db:"points_after"`
	}
	must(t, s.env.DB.Select(&audits, `SELECT action, points_before, points_after FROM point_audit WHERE student_id = $1 ORDER BY id`, st))
	if len(audits) != 2 || audits[0].Action != "auto_record" || audits[0].Before != 0 || audits[0].After != 2 ||
		audits[1].Action != "auto_update" || audits[1].Before != 2 || audits[1].After != 5 {
		t.Errorf("point audit %+v", audits)
	}
	var d struct{ H, A int }
	must(t, s.env.DB.QueryRow(`SELECT h, a FROM attendance_days WHERE student_id = $1 AND date = $2`, st, day).Scan(&d.H, &d.A))
	if d.H != 0 || d.A != 3 {
		t.Errorf("attendance_days %+v", d)
	}
}

func TestApplyRemoval(t *testing.T) {
	s := newSchool(t)
	st := s.student(t, s.classA)
	s.apply(t, journal, hours(st, day, "A", "T")...)
	res := s.apply(t, journal, hours(st, day, "H", "S")...)
	if res.ViolationsRemoved != 2 || res.ViolationsKept != 0 {
		t.Errorf("result %+v", res)
	}
	if n := s.count(t, `SELECT count(*) FROM violations WHERE student_id = $1`, st); n != 0 {
		t.Errorf("%d violations left", n)
	}
	if n := s.count(t, `SELECT count(*) FROM point_audit WHERE student_id = $1 AND action = 'auto_delete' AND points_after < points_before`, st); n != 2 {
		t.Errorf("auto_delete audit entries %d, want 2", n)
	}
	var h, sick, a, late int
	must(t, s.env.DB.QueryRow(`SELECT h, s, a, t FROM attendance_days WHERE student_id = $1`, st).Scan(&h, &sick, &a, &late))
	if h != 1 || sick != 1 || a != 0 || late != 0 {
		t.Errorf("days h=%d s=%d a=%d t=%d", h, sick, a, late)
	}
}

func TestApplyHandledKeptAndReused(t *testing.T) {
	s := newSchool(t)
	st := s.student(t, s.classA)
	s.apply(t, journal, hours(st, day, "A", "A")...)
	v := s.autos(t, st, day, api.AutoAlpha)
	must(t, s.env.DB.Get(new(int64), `UPDATE violations SET handling_status = 'in_progress' WHERE id = $1 RETURNING id`, v[0].ID))

	res := s.apply(t, journal, hours(st, day, "H", "H")...)
	kept := s.autos(t, st, day, api.AutoAlpha)
	if res.ViolationsKept != 1 || res.ViolationsRemoved != 0 || len(kept) != 1 || !kept[0].Unbacked || kept[0].Points != 3 {
		t.Fatalf("handled one: %+v %+v", res, kept)
	}
	if n := s.count(t, `SELECT count(*) FROM point_audit WHERE student_id = $1`, st); n != 1 {
		t.Errorf("point audit entries %d: keeping changes no points", n)
	}
	// Nothing more to do on a replay.
	if res := s.apply(t, journal, hours(st, day, "H", "H")...); res.ViolationsKept != 0 || res.Unchanged != 2 {
		t.Errorf("replay %+v", res)
	}
	// The hours come back: the same violation, backed again.
	res = s.apply(t, journal, hours(st, day, "A", "H")...)
	back := s.autos(t, st, day, api.AutoAlpha)
	if res.ViolationsUpdated != 1 || res.ViolationsCreated != 0 || len(back) != 1 || back[0].ID != v[0].ID || back[0].Unbacked || back[0].Points != 2 {
		t.Errorf("reused: %+v %+v", res, back)
	}
}

func TestApplyHandlingRecordKeeps(t *testing.T) {
	s := newSchool(t)
	st := s.student(t, s.classA)
	s.apply(t, journal, hours(st, day, "T")...)
	v := s.autos(t, st, day, api.AutoLate)
	must(t, s.env.DB.Get(new(int64), `INSERT INTO handlings (violation_id, handling_type_id, handled_on)
		VALUES ($1, (SELECT id FROM handling_types ORDER BY id LIMIT 1), $2) RETURNING id`, v[0].ID, day))
	res := s.apply(t, journal, hours(st, day, "H")...)
	if k := s.autos(t, st, day, api.AutoLate); res.ViolationsKept != 1 || len(k) != 1 || !k[0].Unbacked {
		t.Errorf("with a handling record: %+v %+v", res, k)
	}
}

func TestApplyReplayChangesNothing(t *testing.T) {
	s := newSchool(t)
	a, b := s.student(t, s.classA), s.student(t, s.classA)
	batch := append(hours(a, day, "A", "A", "T", "H"), hours(b, "2025-11-04", "S", "I", "A")...)
	first := s.apply(t, journal, batch...)
	if first.Created != 7 || first.ViolationsCreated != 3 {
		t.Fatalf("first %+v", first)
	}
	audits := s.count(t, `SELECT count(*) FROM point_audit`)
	var stamp string
	must(t, s.env.DB.Get(&stamp, `SELECT max(updated_at)::text FROM attendance`))
	again := s.apply(t, journal, batch...)
	want := api.AttendanceResult{Unchanged: 7}
	if again != want {
		t.Errorf("replay %+v, want %+v", again, want)
	}
	var stamp2 string
	must(t, s.env.DB.Get(&stamp2, `SELECT max(updated_at)::text FROM attendance`))
	if n := s.count(t, `SELECT count(*) FROM point_audit`); n != audits || stamp2 != stamp {
		t.Errorf("replay wrote: point audit %d → %d, updated_at %s → %s", audits, n, stamp, stamp2)
	}
	// Duplicate keys in one batch: the last wins.
	dup := []attendance.Entry{{StudentID: a, Date: day, LessonHour: 4, Status: "A"}, {StudentID: a, Date: day, LessonHour: 4, Status: "hadir"}}
	if r := s.apply(t, journal, dup...); r.Unchanged != 1 || r.Updated != 0 {
		t.Errorf("dedup %+v", r)
	}
}

func TestApplyBelumSkipped(t *testing.T) {
	s := newSchool(t)
	st := s.student(t, s.classA)
	s.apply(t, journal, hours(st, day, "A")...)
	res := s.apply(t, journal, hours(st, day, "belum", "belum")...)
	if res.Skipped != 2 || res.Created+res.Updated+res.Unchanged != 0 {
		t.Errorf("belum %+v", res)
	}
	if n := s.count(t, `SELECT count(*) FROM attendance WHERE student_id = $1`, st); n != 1 {
		t.Errorf("belum deleted or stored: %d rows", n)
	}
	if _, err := s.tryApply(journal, attendance.Entry{StudentID: st, Date: day, LessonHour: 1, Status: "X"}); apperr.Code(err) != apperr.Invalid {
		t.Errorf("unknown status: %v", err)
	}
	if _, err := s.tryApply(journal, attendance.Entry{StudentID: 999999, Date: day, LessonHour: 1, Status: "H"}); apperr.Code(err) != apperr.Invalid {
		t.Errorf("unknown student: %v", err)
	}
}

func TestApplyRecordedBy(t *testing.T) {
	s := newSchool(t)
	a, b := s.student(t, s.classA), s.student(t, s.classA)
	s.apply(t, journal, hours(a, day, "A")...)
	form := attendance.Origin{UserID: s.bk.UserID, Actor: audit.Actor{ID: s.bk.UserID, Name: "bk"}}
	s.apply(t, form, hours(b, day, "A")...)
	if v := s.autos(t, a, day, api.AutoAlpha); len(v) != 1 || v[0].RecordedBy != nil {
		t.Errorf("journal's: %+v", v)
	}
	if v := s.autos(t, b, day, api.AutoAlpha); len(v) != 1 || v[0].RecordedBy == nil || *v[0].RecordedBy != s.bk.UserID {
		t.Errorf("form's: %+v", v)
	}
	var fromJournal []bool
	var by []int64
	must(t, s.env.DB.Select(&fromJournal, `SELECT from_journal FROM attendance ORDER BY student_id`))
	must(t, s.env.DB.Select(&by, `SELECT COALESCE(updated_by, 0) FROM attendance ORDER BY student_id`))
	if !fromJournal[0] || fromJournal[1] || by[0] != 0 || by[1] != s.bk.UserID {
		t.Errorf("from_journal %v updated_by %v", fromJournal, by)
	}
	if n := s.count(t, `SELECT count(*) FROM audit_log WHERE action IN ('attendance.sync', 'attendance.record')`); n != 2 {
		t.Errorf("audit entries %d, want one per call", n)
	}
}

func TestApplyLetters(t *testing.T) {
	s := newSchool(t)
	st := s.student(t, s.classA)
	// 40 points recorded by hand this academic year.
	var typeID int64
	must(t, s.env.DB.Get(&typeID, `INSERT INTO violation_types (name, slug, points, category_id)
		VALUES ('Berkelahi', 'berkelahi', 40, (SELECT id FROM violation_categories ORDER BY id LIMIT 1)) RETURNING id`))
	must(t, s.env.DB.Get(new(int64), `INSERT INTO violations (student_id, class_id, violation_type_id, occurred_at, occurred_on, points)
		VALUES ($1, $2, $3, '2025-10-01T03:00:00Z', '2025-10-01', 40) RETURNING id`, st, s.classA, typeID))
	var sp1 int
	must(t, s.env.DB.Get(&sp1, `SELECT min_points FROM sp_thresholds WHERE level = 1`))
	if sp1 != 50 {
		t.Fatalf("SP 1 at %d, the test expects 50", sp1)
	}
	all := []string{"A", "A", "A", "A", "A", "A", "A", "A", "A", "A"}
	res := s.apply(t, journal, hours(st, day, all...)...) // +15 → 55
	if res.LettersIssued != 1 {
		t.Fatalf("letters issued %d: %+v", res.LettersIssued, res)
	}
	var l struct {
		ID     int64  `db:"id"`
		Points int    `db:"points"`
		Status string `db:"status"`
		Start  string `db:"start"`
		VID    *int64 `db:"violation_id"`
	}
	must(t, s.env.DB.Get(&l, `SELECT id, points, status, academic_year_start::text AS start, violation_id FROM warning_letters WHERE student_id = $1`, st))
	v := s.autos(t, st, day, api.AutoAlpha)
	if l.Points != 55 || l.Status != "draft" || l.Start != "2025-07-01" || l.VID == nil || *l.VID != v[0].ID {
		t.Errorf("letter %+v", l)
	}
	if n := s.count(t, `SELECT count(*) FROM warning_letter_events WHERE letter_id = $1 AND status = 'draft'`, l.ID); n != 1 {
		t.Errorf("draft events %d", n)
	}
	var pa struct{ Before, After int }
	must(t, s.env.DB.QueryRow(`SELECT points_before, points_after FROM point_audit WHERE student_id = $1`, st).Scan(&pa.Before, &pa.After))
	if pa.Before != 40 || pa.After != 55 {
		t.Errorf("point audit %+v, want 40 → 55", pa)
	}
	// A replay issues nothing more.
	if res := s.apply(t, journal, hours(st, day, all...)...); res.LettersIssued != 0 {
		t.Errorf("replay issued %d", res.LettersIssued)
	}
	// The hours turn out to be present: the draft is withdrawn.
	s.apply(t, journal, hours(st, day, "H", "H", "H", "H", "H", "H", "H", "H", "H", "H")...)
	must(t, s.env.DB.Get(&l.Status, `SELECT status FROM warning_letters WHERE id = $1`, l.ID))
	if l.Status != "withdrawn" {
		t.Errorf("letter %s after the points fell", l.Status)
	}
	if n := s.count(t, `SELECT count(*) FROM warning_letter_events WHERE letter_id = $1 AND status = 'withdrawn'`, l.ID); n != 1 {
		t.Errorf("withdrawn events %d", n)
	}
	// Back above: a new draft (the withdrawn one stays withdrawn).
	if res := s.apply(t, journal, hours(st, day, all...)...); res.LettersIssued != 1 {
		t.Errorf("re-issue %+v", res)
	}
}

// TestApplyConcurrent pushes 20 overlapping batches at once, each in its
// own transaction: every key once, every automatic violation once, the
// day counts and violations matching what is stored, no deadlock.
func TestApplyConcurrent(t *testing.T) {
	s := newSchool(t)
	var students []int64
	for range 12 {
		students = append(students, s.student(t, s.classA))
	}
	s.messaging(t)
	dates := []string{"2025-11-03", "2025-11-04"}
	statuses := []string{"H", "A", "T", "S", "I", "A"}
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for g := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewSource(int64(g)))
			var batch []attendance.Entry
			for _, st := range students {
				for _, d := range dates {
					for h := 1; h <= 6; h++ {
						if rng.Intn(3) == 0 {
							continue
						}
						batch = append(batch, attendance.Entry{StudentID: st, Date: d, LessonHour: h, Status: statuses[rng.Intn(len(statuses))]})
					}
				}
			}
			rng.Shuffle(len(batch), func(i, j int) { batch[i], batch[j] = batch[j], batch[i] })
			if _, err := s.tryApply(journal, batch...); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("concurrent apply: %v", err)
	}
	if n := s.count(t, `SELECT count(*) FROM (SELECT student_id, date, lesson_hour FROM attendance GROUP BY 1, 2, 3 HAVING count(*) > 1) d`); n != 0 {
		t.Errorf("%d keys twice", n)
	}
	if n := s.count(t, `SELECT count(*) FROM (SELECT student_id, occurred_on, auto_kind FROM violations WHERE auto_kind IS NOT NULL
		GROUP BY 1, 2, 3 HAVING count(*) > 1) d`); n != 0 {
		t.Errorf("%d automatic violations twice", n)
	}
	// Parents: no letter message (nobody sent one), one message at most per
	// student and day.
	if n := s.count(t, `SELECT count(*) FROM parent_messages WHERE event = 'warning_letter'`); n != 0 {
		t.Errorf("%d letter messages", n)
	}
	if n := s.count(t, `SELECT count(*) FROM (SELECT 1 FROM parent_messages GROUP BY student_id, attendance_date HAVING count(*) > 1) x`); n != 0 {
		t.Errorf("%d student-days with several messages", n)
	}
	checkConsistent(t, s)
}

// checkConsistent compares attendance_days and the automatic violations
// with the stored attendance, and the point audit's last total with the
// violations.
func checkConsistent(t *testing.T, s *school) {
	t.Helper()
	if n := s.count(t, `SELECT count(*) FROM (
		SELECT student_id, date, count(*) FILTER (WHERE status = 'H') h, count(*) FILTER (WHERE status = 'S') s,
		    count(*) FILTER (WHERE status = 'I') i, count(*) FILTER (WHERE status = 'A') a, count(*) FILTER (WHERE status = 'T') t
		FROM attendance GROUP BY 1, 2) x FULL JOIN attendance_days d USING (student_id, date)
		WHERE (x.h, x.s, x.i, x.a, x.t) IS DISTINCT FROM (d.h::bigint, d.s::bigint, d.i::bigint, d.a::bigint, d.t::bigint)`); n != 0 {
		t.Errorf("%d attendance_days rows out of step", n)
	}
	if n := s.count(t, `SELECT count(*) FROM attendance_days d FULL JOIN
		(SELECT * FROM violations WHERE auto_kind = 'alpha' AND NOT auto_unbacked) v ON v.student_id = d.student_id AND v.occurred_on = d.date
		WHERE (d.a > 0) IS DISTINCT FROM (v.id IS NOT NULL) OR v.auto_hours <> d.a`); n != 0 {
		t.Errorf("%d alpha days without their violation (or the reverse)", n)
	}
	if n := s.count(t, `SELECT count(*) FROM attendance_days d FULL JOIN
		(SELECT * FROM violations WHERE auto_kind = 'late' AND NOT auto_unbacked) v ON v.student_id = d.student_id AND v.occurred_on = d.date
		WHERE (d.t > 0) IS DISTINCT FROM (v.id IS NOT NULL) OR v.auto_hours <> d.t`); n != 0 {
		t.Errorf("%d late days without their violation (or the reverse)", n)
	}
	if n := s.count(t, `SELECT count(*) FROM students s WHERE COALESCE((SELECT points_after FROM point_audit p WHERE p.student_id = s.id
		ORDER BY id DESC LIMIT 1), 0) <> COALESCE((SELECT sum(points) FROM violations v WHERE v.student_id = s.id), 0)`); n != 0 {
		t.Errorf("%d students whose last point audit total is not their total", n)
	}
	_ = context.Background()
}
