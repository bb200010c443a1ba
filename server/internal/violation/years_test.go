package violation_test

import (
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/violation"
	"github.com/tatib/tatib/shared/perm"
)

// jakartaToday is today's date in Jakarta at midnight UTC (a date value).
func jakartaToday() time.Time {
	j, _ := time.LoadLocation("Asia/Jakarta")
	y, m, d := time.Now().In(j).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// yearStart is the start of the academic year containing day for a start
// on month/day.
func yearStart(day time.Time, month time.Month, dd int) time.Time {
	s := time.Date(day.Year(), month, dd, 0, 0, 0, 0, time.UTC)
	if s.After(day) {
		s = s.AddDate(-1, 0, 0)
	}
	return s
}

// violationOn stores a violation of typ on day directly (the form refuses
// days before the previous academic year).
func (s *school) violationOn(t *testing.T, student, class, typ int64, day time.Time, points int) {
	t.Helper()
	s.env.DB.MustExec(`INSERT INTO violations (student_id, class_id, class_name, violation_type_id, occurred_at, occurred_on, points)
		VALUES ($1, $2, (SELECT name FROM classes WHERE id = $2), $3, $4, $5, $6)`,
		student, class, typ, day.Add(3*time.Hour), day.Format(time.DateOnly), points)
}

// letterFor stores a letter of level for the academic year starting on start.
func (s *school) letterFor(t *testing.T, student, class int64, level int, status string, start time.Time) int64 {
	t.Helper()
	var id int64
	must(t, s.env.DB.Get(&id, `INSERT INTO warning_letters (student_id, class_id, class_name, level, name, min_points, academic_year_start, points, status)
		VALUES ($1, $2, (SELECT name FROM classes WHERE id = $2), $3::int, 'SP ' || $3::int, 50, $4, 60, $5) RETURNING id`,
		student, class, level, start.Format(time.DateOnly), status))
	return id
}

func TestStudentYears(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	cur := yearStart(jakartaToday(), time.July, 1)
	prev := cur.AddDate(-1, 0, 0)
	st := s.student(t, s.classA)
	// This year: its first day. Last year: its last day and a day in
	// August, and a letter that was delivered.
	s.violationOn(t, st, s.classA, s.t10, cur, 10)
	s.violationOn(t, st, s.classA, s.t40, cur.AddDate(0, 0, -1), 40)
	s.violationOn(t, st, s.classA, s.t60, prev.AddDate(0, 1, 0), 60)
	oldLetter := s.letterFor(t, st, s.classA, 1, "delivered", prev)
	oldLetter2 := s.letterFor(t, st, s.classA, 2, "draft", prev)
	path := "/api/v1/students/" + itoa(st) + "/years"

	t.Run("OK", func(t *testing.T) {
		var out violation.StudentYears
		s.bk.Do("GET", path, nil).Want(200).JSON(&out)
		if out.CurrentStart != cur.Format(time.DateOnly) || len(out.Data) != 2 {
			t.Fatalf("%+v", out)
		}
		now, last := out.Data[0], out.Data[1]
		wantLabel := func(y time.Time) string { return itoa(int64(y.Year())) + "/" + itoa(int64(y.Year()+1)) }
		if now.Start != cur.Format(time.DateOnly) || now.Label != wantLabel(cur) || !now.Current ||
			now.Total != 10 || now.Violations != 1 || len(now.Letters) != 0 {
			t.Fatalf("current year: %+v", now)
		}
		if last.Start != prev.Format(time.DateOnly) || last.Label != wantLabel(prev) || last.Current ||
			last.Total != 100 || last.Violations != 2 || len(last.Letters) != 2 {
			t.Fatalf("last year: %+v", last)
		}
		if l := last.Letters[0]; l.ID != oldLetter || l.Level != 1 || l.Name != "SP 1" || l.Status != "delivered" {
			t.Fatalf("letter: %+v", l)
		}
		if last.Letters[1].ID != oldLetter2 || last.Letters[1].Status != "draft" {
			t.Fatalf("letter 2: %+v", last.Letters[1])
		}
	})
	t.Run("OKNoData", func(t *testing.T) {
		var out violation.StudentYears
		s.bk.Do("GET", "/api/v1/students/"+itoa(s.inB)+"/years", nil).Want(200).JSON(&out)
		if out.Data == nil || len(out.Data) != 0 || out.CurrentStart == "" {
			t.Fatalf("%+v", out)
		}
	})
	t.Run("OKStartSetting", func(t *testing.T) {
		// A school whose year starts on 1 January: the last day of June
		// and the first of July fall in the same year.
		s.env.DB.MustExec(`INSERT INTO settings (key, value) VALUES ('school', '{"academic_year_start":"01-01"}')
			ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`)
		defer s.env.DB.MustExec(`DELETE FROM settings WHERE key = 'school'`)
		other := s.student(t, s.classA)
		s.violationOn(t, other, s.classA, s.t10, cur, 10)
		s.violationOn(t, other, s.classA, s.t40, cur.AddDate(0, 0, -1), 40)
		var out violation.StudentYears
		s.bk.Do("GET", "/api/v1/students/"+itoa(other)+"/years", nil).Want(200).JSON(&out)
		jan := time.Date(cur.Year(), time.January, 1, 0, 0, 0, 0, time.UTC)
		if len(out.Data) != 1 || out.Data[0].Start != jan.Format(time.DateOnly) || out.Data[0].Total != 50 || out.Data[0].Violations != 2 {
			t.Fatalf("%+v", out)
		}
		if out.CurrentStart != yearStart(jakartaToday(), time.January, 1).Format(time.DateOnly) {
			t.Fatalf("current start %s", out.CurrentStart)
		}
	})
	t.Run("OKHomeroomOwnClass", func(t *testing.T) {
		var out violation.StudentYears
		s.wali.Do("GET", path, nil).Want(200).JSON(&out)
		if len(out.Data) != 2 {
			t.Fatalf("%+v", out)
		}
	})
	t.Run("ErrHomeroomOtherClass", func(t *testing.T) {
		if code := s.wali.Do("GET", "/api/v1/students/"+itoa(s.inB)+"/years", nil).Want(404).Err().Error.MessageCode; code != "db.not_found" {
			t.Fatalf("code %q", code)
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		s.bk.Do("GET", "/api/v1/students/987654/years", nil).Want(404)
		s.bk.Do("GET", "/api/v1/students/abc/years", nil).Want(404)
	})
	t.Run("OKOpenHandlingCarriesOver", func(t *testing.T) {
		// The turn of the year closes nothing: last year's violation still
		// being handled stays in the open list; only its points stop
		// counting (docs/decisions.md).
		other := s.student(t, s.classA)
		s.violationOn(t, other, s.classA, s.t40, prev.AddDate(0, 3, 0), 40)
		s.env.DB.MustExec(`UPDATE violations SET handling_status = 'in_progress' WHERE student_id = $1`, other)
		var list struct {
			Data []struct {
				ID             int64  `json:"id"`
				HandlingStatus string `json:"handling_status"`
			} `json:"data"`
		}
		s.bk.Do("GET", "/api/v1/violations?handling_status=in_progress&student_id="+itoa(other), nil).Want(200).JSON(&list)
		if len(list.Data) != 1 || list.Data[0].HandlingStatus != "in_progress" {
			t.Fatalf("open list %+v", list)
		}
		var p struct {
			Total    int `json:"total"`
			Lifetime int `json:"lifetime_total"`
		}
		s.bk.Do("GET", "/api/v1/students/"+itoa(other)+"/points", nil).Want(200).JSON(&p)
		if p.Total != 0 || p.Lifetime != 40 {
			t.Fatalf("points %+v", p)
		}
	})
	t.Run("ErrNoPermission", func(t *testing.T) {
		for _, role := range []perm.Role{perm.Staff, perm.Other} {
			s.env.As(role).Do("GET", path, nil).Want(403)
		}
	})
}

// Deleting a violation of an ended academic year leaves that year's draft
// letters issued before this year began: they are read-only (the letter
// package answers 409 letter.past_year). A draft issued this year for last
// year's points (a June violation recorded in July) is still workable and
// is withdrawn as usual.
func TestDeletePastYearKeepsReadOnlyLetters(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	cur := yearStart(jakartaToday(), time.July, 1)
	prev := cur.AddDate(-1, 0, 0)
	status := func(id int64) string {
		var st string
		must(t, s.env.DB.Get(&st, `SELECT status FROM warning_letters WHERE id = $1`, id))
		return st
	}
	lastViolation := func(student int64) int64 {
		var id int64
		must(t, s.env.DB.Get(&id, `SELECT max(id) FROM violations WHERE student_id = $1`, student))
		return id
	}
	old := s.student(t, s.classA)
	s.violationOn(t, old, s.classA, s.t60, prev.AddDate(0, 1, 0), 60)
	oldLetter := s.letterFor(t, old, s.classA, 1, "draft", prev)
	s.env.DB.MustExec(`UPDATE warning_letters SET issued_at = $2 WHERE id = $1`, oldLetter, prev.AddDate(0, 1, 0))

	late := s.student(t, s.classA)
	s.violationOn(t, late, s.classA, s.t60, cur.AddDate(0, 0, -2), 60)
	lateLetter := s.letterFor(t, late, s.classA, 1, "draft", prev)

	s.bk.Do("DELETE", "/api/v1/violations/"+itoa(lastViolation(old)), nil).Want(204)
	s.bk.Do("DELETE", "/api/v1/violations/"+itoa(lastViolation(late)), nil).Want(204)
	if got := status(oldLetter); got != "draft" {
		t.Errorf("a read-only letter of an ended year became %q", got)
	}
	if got := status(lateLetter); got != "withdrawn" {
		t.Errorf("a letter issued this year for last year's points is %q, want withdrawn", got)
	}
}
