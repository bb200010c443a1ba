package letter_test

import (
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/letter"
	"github.com/tatib/tatib/shared/perm"
)

func label(start time.Time) string {
	return strconv.Itoa(start.Year()) + "/" + strconv.Itoa(start.Year()+1)
}

// A letter of an academic year that has ended is a record: it lists and
// prints, its status no longer moves.
func TestPastYear(t *testing.T) {
	t.Parallel()
	f := setup(t)
	cur := currentYearStart()
	prev := cur.AddDate(-1, 0, 0)
	st := f.student(t, "Ahmad Fauzi", "0011", f.classA)
	now := f.letter(t, st, f.classA, 1, 55, time.Now().Add(-time.Hour))
	f.yearStart = prev.Format(time.DateOnly)
	old := f.letter(t, st, f.classA, 1, 60, prev.AddDate(0, 2, 0))
	oldPath := "/api/v1/warning-letters/" + strconv.FormatInt(old, 10)

	t.Run("ErrStatusChange", func(t *testing.T) {
		for _, status := range []string{"printed", "signed", "delivered"} {
			e := f.bk.Do("POST", oldPath+"/status", map[string]string{"status": status}, "Accept-Language", "en").Want(409).Err()
			if e.Error.MessageCode != "letter.past_year" || e.Error.Params["year"] != label(prev) {
				t.Fatalf("%s: %+v", status, e.Error)
			}
		}
		var row struct {
			Status string `db:"status"`
			Events int    `db:"events"`
			Audits int    `db:"audits"`
		}
		must(t, f.env.DB.Get(&row, `SELECT status,
			(SELECT count(*) FROM warning_letter_events WHERE letter_id = $1) AS events,
			(SELECT count(*) FROM audit_log WHERE action = 'warning_letter.status' AND entity_id = $1::text) AS audits
			FROM warning_letters WHERE id = $1`, old))
		if row.Status != "draft" || row.Events != 1 || row.Audits != 0 {
			t.Fatalf("the past letter changed: %+v", row)
		}
	})
	t.Run("OKCurrentYearMoves", func(t *testing.T) {
		var l letter.Letter
		f.bk.Do("POST", "/api/v1/warning-letters/"+strconv.FormatInt(now, 10)+"/status", map[string]string{"status": "printed"}).Want(200).JSON(&l)
		if l.Status != "printed" || l.PastYear || l.AcademicYear != label(cur) {
			t.Fatalf("%+v", l)
		}
	})
	t.Run("OKLateLetterOfLastYear", func(t *testing.T) {
		// Last June's violation recorded in July issues a letter for last
		// year today: it is this year's work, so its status moves.
		late := f.letter(t, st, f.classA, 2, 110, time.Now().Add(-time.Minute))
		var l letter.Letter
		f.bk.Do("POST", "/api/v1/warning-letters/"+strconv.FormatInt(late, 10)+"/status", map[string]string{"status": "printed"}).Want(200).JSON(&l)
		if l.PastYear || l.AcademicYear != label(prev) || l.Status != "printed" {
			t.Fatalf("%+v", l)
		}
	})
	t.Run("OKShown", func(t *testing.T) {
		var l letter.Letter
		f.bk.Do("GET", oldPath, nil).Want(200).JSON(&l)
		if !l.PastYear || l.AcademicYear != label(prev) || l.AcademicYearStart != prev.Format(time.DateOnly) {
			t.Fatalf("%+v", l)
		}
		var p page
		f.bk.Do("GET", "/api/v1/warning-letters?student_id="+strconv.FormatInt(st, 10), nil).Want(200).JSON(&p)
		past := map[int64]bool{}
		for _, l := range p.Data {
			past[l.ID] = l.PastYear
		}
		if len(past) != 3 || !past[old] || past[now] {
			t.Fatalf("past_year by id %v", past)
		}
	})
	t.Run("OKFilterByYear", func(t *testing.T) {
		var p page
		f.bk.Do("GET", "/api/v1/warning-letters?student_id="+strconv.FormatInt(st, 10)+"&academic_year="+strconv.Itoa(prev.Year()), nil).Want(200).JSON(&p)
		if len(p.Data) != 2 || p.Meta.Total != 2 {
			t.Fatalf("last year: %v", ids(p))
		}
		for _, l := range p.Data {
			if l.AcademicYearStart != prev.Format(time.DateOnly) {
				t.Fatalf("letter of %s in %d", l.AcademicYearStart, prev.Year())
			}
		}
		f.bk.Do("GET", "/api/v1/warning-letters?student_id="+strconv.FormatInt(st, 10)+"&academic_year="+strconv.Itoa(cur.Year()), nil).Want(200).JSON(&p)
		if len(p.Data) != 1 || p.Data[0].ID != now {
			t.Fatalf("this year: %v", ids(p))
		}
		for _, bad := range []string{"1999", "2025/2026", "x"} {
			e := f.bk.Do("GET", "/api/v1/warning-letters?academic_year="+url.QueryEscape(bad), nil).Want(422).Err()
			if e.Error.FieldCodes["academic_year"].Code != "letter.filter.academic_year" {
				t.Fatalf("%s: %+v", bad, e.Error)
			}
		}
	})
	t.Run("OKStillPrints", func(t *testing.T) {
		res := f.bk.Do("GET", oldPath+"/pdf", nil).Want(200)
		if ct := res.Header.Get("Content-Type"); ct != "application/pdf" || len(res.Body) < 100 {
			t.Fatalf("content type %q, %d bytes", ct, len(res.Body))
		}
	})
	t.Run("OKStartSetting", func(t *testing.T) {
		// The school moves its start to tomorrow's date: the running year
		// began nearly a year ago, still after last year's letter's start
		// and not after this year's letter's.
		j, _ := time.LoadLocation("Asia/Jakarta")
		md := time.Now().In(j).AddDate(0, 0, 1).Format("01-02")
		if md == "02-29" {
			t.Skip("no such start")
		}
		f.env.DB.MustExec(`INSERT INTO settings (key, value) VALUES ('school', jsonb_build_object('academic_year_start', $1::text))
			ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`, md)
		defer f.env.DB.MustExec(`DELETE FROM settings WHERE key = 'school'`)
		var y letter.AcademicYear
		f.bk.Do("GET", "/api/v1/academic-year", nil).Want(200).JSON(&y)
		start, err := time.Parse(time.DateOnly, y.Start)
		must(t, err)
		if y.StartMonthDay != md || start.Format("01-02") != md || !start.Before(time.Now()) || start.AddDate(1, 0, 0).Before(time.Now()) {
			t.Fatalf("%+v", y)
		}
		var p page
		f.bk.Do("GET", "/api/v1/warning-letters?student_id="+strconv.FormatInt(st, 10), nil).Want(200).JSON(&p)
		for _, l := range p.Data {
			if l.PastYear != (l.ID == old) {
				t.Fatalf("letter %d of %s: past_year %v (year %+v)", l.ID, l.AcademicYearStart, l.PastYear, y)
			}
		}
	})
}

func TestAcademicYear(t *testing.T) {
	t.Parallel()
	f := setup(t)
	cur := currentYearStart()
	for _, role := range []perm.Role{perm.Staff, perm.Other, perm.WaliKelas, perm.BK} {
		var y letter.AcademicYear
		f.env.As(role).Do("GET", "/api/v1/academic-year", nil).Want(200).JSON(&y)
		if y.Start != cur.Format(time.DateOnly) || y.End != cur.AddDate(1, 0, 0).Format(time.DateOnly) ||
			y.Label != label(cur) || y.StartMonthDay != "07-01" {
			t.Fatalf("%s: %+v", role, y)
		}
	}
	f.env.Anonymous().Do("GET", "/api/v1/academic-year", nil).Want(401)
}
