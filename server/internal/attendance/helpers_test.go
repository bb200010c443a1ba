package attendance_test

import (
	"context"
	"fmt"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/attendance"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/violationtype"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// school is a small school: class A with its homeroom teacher, class B,
// the default types (alpha 15, terlambat 2) and thresholds (SP 1 at 50).
type school struct {
	env            *apitest.Env
	bk             *apitest.Client
	wali           *apitest.Client // homeroom teacher of class A
	classA, classB int64
}

func newSchool(t testing.TB) *school {
	t.Helper()
	env := apitest.New(t)
	if err := violationtype.Boot(context.Background(), env.Deps); err != nil {
		t.Fatal(err)
	}
	s := &school{env: env, bk: env.As(perm.BK), wali: env.As(perm.WaliKelas)}
	must(t, env.DB.Get(&s.classA, `INSERT INTO classes (name, grade, homeroom_teacher_id) VALUES ('X IPA 1', 10, $1) RETURNING id`, s.wali.UserID))
	must(t, env.DB.Get(&s.classB, `INSERT INTO classes (name, grade) VALUES ('X IPA 2', 10) RETURNING id`))
	return s
}

var studentSeq atomic.Int64

// student adds an active student to class, named so the form's order is
// the order of creation.
func (s *school) student(t testing.TB, class int64) int64 {
	t.Helper()
	n := studentSeq.Add(1) + 1000
	var id int64
	must(t, s.env.DB.Get(&id, `INSERT INTO students (source_id, nisn, nis, full_name, class_id) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
		n, fmt.Sprintf("00%08d", n), strconv.FormatInt(n, 10), fmt.Sprintf("Siswa %06d", n), class))
	return id
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// apply runs ApplyTx in its own transaction.
func (s *school) apply(t testing.TB, o attendance.Origin, entries ...attendance.Entry) api.AttendanceResult {
	t.Helper()
	res, err := s.tryApply(o, entries...)
	must(t, err)
	return res
}

func (s *school) tryApply(o attendance.Origin, entries ...attendance.Entry) (api.AttendanceResult, error) {
	var res api.AttendanceResult
	err := pg.InTx(context.Background(), s.env.DB, func(tx *sqlx.Tx) error {
		var err error
		res, err = attendance.ApplyTx(context.Background(), tx, entries, o)
		return err
	})
	return res, err
}

var journal = attendance.Origin{Journal: true, Actor: audit.Actor{Name: "journal"}}

// hours returns entries of one student's day: status for each hour.
func hours(student int64, date string, statuses ...string) []attendance.Entry {
	out := make([]attendance.Entry, len(statuses))
	for i, st := range statuses {
		out[i] = attendance.Entry{StudentID: student, Date: date, LessonHour: i + 1, Status: st}
	}
	return out
}

// autoViolation is the automatic violation of a student's day.
type autoViolation struct {
	ID         int64  `db:"id"`
	Points     int    `db:"points"`
	Hours      int    `db:"auto_hours"`
	Unbacked   bool   `db:"auto_unbacked"`
	RecordedBy *int64 `db:"recorded_by"`
	Desc       string `db:"description"`
	OccurredAt time.Time
}

func (s *school) autos(t testing.TB, student int64, date, kind string) []autoViolation {
	t.Helper()
	var out []autoViolation
	must(t, s.env.DB.Select(&out, `SELECT id, points, auto_hours, auto_unbacked, recorded_by, description
		FROM violations WHERE student_id = $1 AND occurred_on = $2 AND auto_kind = $3 ORDER BY id`, student, date, kind))
	return out
}

func (s *school) count(t testing.TB, q string, args ...any) int {
	t.Helper()
	var n int
	must(t, s.env.DB.Get(&n, q, args...))
	return n
}

// today is the Jakarta date now.
func today() string {
	loc, _ := time.LoadLocation("Asia/Jakarta")
	return time.Now().In(loc).Format(time.DateOnly)
}
