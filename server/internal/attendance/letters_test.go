package attendance_test

import (
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/tatib/tatib/server/internal/attendance"
	"github.com/tatib/tatib/server/internal/parentmsg"
	"github.com/tatib/tatib/server/internal/parentmsg/worker/outboxtest"
	"github.com/tatib/tatib/shared/api"
)

// at48 is a student of class A with 48 points of behaviour this academic
// year (SP 1 is at 50): one alpha hour (2 points) reaches SP 1.
func (s *school) at48(t *testing.T, day string) int64 {
	t.Helper()
	st := s.student(t, s.classA)
	var typeID int64
	must(t, s.env.DB.Get(&typeID, `INSERT INTO violation_types (name, slug, points, category_id)
		VALUES ('Merusak fasilitas ' || $1::text, 'merusak-' || $1::text, 48, (SELECT id FROM violation_categories ORDER BY id LIMIT 1))
		RETURNING id`, fmt.Sprint(st)))
	must(t, s.env.DB.Get(new(int64), `INSERT INTO violations (student_id, class_id, violation_type_id, occurred_at, occurred_on, points)
		VALUES ($1, $2, $3, ($4::date + time '08:00') AT TIME ZONE 'Asia/Jakarta', $4::date, 48) RETURNING id`, st, s.classA, typeID, day))
	return st
}

// letterState is a student's letters: how many were ever made, and the
// levels the live ones cover.
func (s *school) letterState(t *testing.T, student int64) (records int, live string) {
	t.Helper()
	records = s.count(t, `SELECT count(*) FROM warning_letters WHERE student_id = $1`, student)
	must(t, s.env.DB.Get(&live, `SELECT COALESCE(string_agg(levels_covered::text, ' ' ORDER BY id), '') FROM warning_letters
		WHERE student_id = $1 AND status <> 'withdrawn'`, student))
	return records, live
}

// TestFlipAtThreshold: a homeroom teacher saves one lesson hour as A, then
// H, five times, for a student at 48 of 50 points. Each A drafts SP 1 and
// each H withdraws it, but it is one letter record throughout, its history
// showing each step.
func TestFlipAtThreshold(t *testing.T) {
	s := newSchool(t)
	d := today()
	st := s.at48(t, d)
	s.messaging(t)
	var letterID int64
	for i := range 5 {
		var out api.SaveAttendanceResponse
		s.wali.Do("PUT", formPath(s.classA, d), map[string]any{"entries": formEntries("A", 1, st)}).Want(http.StatusOK).JSON(&out)
		if len(out.Letters) != 1 || out.Letters[0].Change != api.LetterChangeIssued || (letterID != 0 && out.Letters[0].ID != letterID) {
			t.Fatalf("A #%d: letters %+v", i+1, out.Letters)
		}
		letterID = out.Letters[0].ID
		s.wali.Do("PUT", formPath(s.classA, d), map[string]any{"entries": formEntries("H", 1, st)}).Want(http.StatusOK).JSON(&out)
		if len(out.Letters) != 1 || out.Letters[0].Change != api.LetterChangeWithdrawn || out.Letters[0].ID != letterID {
			t.Fatalf("H #%d: letters %+v", i+1, out.Letters)
		}
	}
	if records, live := s.letterState(t, st); records != 1 || live != "" {
		t.Fatalf("%d letter records, live %q", records, live)
	}
	if n := s.count(t, `SELECT count(*) FROM warning_letter_events WHERE letter_id = $1 AND status IN ('draft', 'withdrawn')`, letterID); n != 10 {
		t.Fatalf("%d draft and withdrawn steps in the history, want 10", n)
	}
	// The parent heard nothing: no letter was sent, and the day ended with
	// nothing to report.
	if n := s.count(t, `SELECT count(*) FROM parent_messages WHERE student_id = $1`, st); n != 0 {
		t.Fatalf("%d parent messages", n)
	}
	// A at last: the letter stands; the parent hears of it when a
	// counselor sends it, once.
	s.wali.Do("PUT", formPath(s.classA, d), map[string]any{"entries": formEntries("A", 1, st)}).Want(http.StatusOK)
	if n := s.count(t, `SELECT count(*) FROM parent_messages WHERE student_id = $1 AND event = 'warning_letter'`, st); n != 0 {
		t.Fatalf("%d letter messages before sending", n)
	}
	s.bk.Do("POST", fmt.Sprintf("/api/v1/warning-letters/%d/send", letterID), nil).Want(http.StatusOK)
	s.bk.Do("POST", fmt.Sprintf("/api/v1/warning-letters/%d/send", letterID), nil).Want(http.StatusConflict)
	if n := s.count(t, `SELECT count(*) FROM parent_messages WHERE student_id = $1 AND event = 'warning_letter'`, st); n != 1 {
		t.Fatalf("%d letter messages after sending", n)
	}
}

// messaging sets up parent messaging: a gateway, every event on, the
// automatic violations included.
func (s *school) messaging(t *testing.T) {
	t.Helper()
	outboxtest.Configure(t, s.env.DB, "http://127.0.0.1:9", func(set *parentmsg.Settings) { set.Events.Violation.IncludeAutomatic = true })
	s.env.DB.MustExec(`UPDATE students SET parent_phone = '081234567890', parent_name = 'Orang tua'`)
}

// TestConcurrentFlips: overlapping pushes and saves flip one hour between A
// and H for a student at 48 points: no deadlock, one letter record, and in
// the end SP 1 covered by one live letter exactly when the total reaches
// it.
func TestConcurrentFlips(t *testing.T) {
	s := newSchool(t)
	d := today()
	st := s.at48(t, d)
	other := s.at48(t, d) // a second student in the same batches: locks in id order
	s.messaging(t)
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for g := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 4 {
				status := []string{"A", "H"}[(g+i)%2]
				o := journal
				if g%4 == 0 {
					o = attendance.Origin{UserID: s.wali.UserID}
				}
				if _, err := s.tryApply(o, attendance.Entry{StudentID: other, Date: d, LessonHour: 2, Status: status},
					attendance.Entry{StudentID: st, Date: d, LessonHour: 1, Status: status}); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("apply: %v", err)
	}
	for _, id := range []int64{st, other} {
		var total int
		must(t, s.env.DB.Get(&total, `SELECT COALESCE(sum(points), 0) FROM violations WHERE student_id = $1`, id))
		records, live := s.letterState(t, id)
		want := ""
		if total >= 50 {
			want = "{1}"
		}
		if records > 1 || live != want {
			t.Fatalf("student %d at %d points: %d letter records, live %q", id, total, records, live)
		}
		if n := s.count(t, `SELECT count(*) FROM parent_messages WHERE student_id = $1 AND event = 'warning_letter'`, id); n != 0 {
			t.Fatalf("student %d: %d letter messages nobody sent", id, n)
		}
		if n := s.count(t, `SELECT count(*) FROM parent_messages WHERE student_id = $1 AND event = 'violation'`, id); n > 1 {
			t.Fatalf("student %d: %d attendance messages for one day", id, n)
		}
	}
	checkConsistent(t, s)
}

// TestNumberedDraftNotRevived: a draft whose PDF was downloaded has a
// number (and perhaps a paper copy); withdrawn by an H, it does not come
// back re-dated when the A returns: a new draft is made, and the withdrawn
// one keeps its number.
func TestNumberedDraftNotRevived(t *testing.T) {
	s := newSchool(t)
	d := today()
	st := s.at48(t, d)
	var out api.SaveAttendanceResponse
	s.wali.Do("PUT", formPath(s.classA, d), map[string]any{"entries": formEntries("A", 1, st)}).Want(http.StatusOK).JSON(&out)
	if len(out.Letters) != 1 {
		t.Fatalf("letters %+v", out.Letters)
	}
	first := out.Letters[0].ID
	s.bk.Do("GET", fmt.Sprintf("/api/v1/warning-letters/%d/pdf", first), nil).Want(http.StatusOK)
	s.wali.Do("PUT", formPath(s.classA, d), map[string]any{"entries": formEntries("H", 1, st)}).Want(http.StatusOK)
	s.wali.Do("PUT", formPath(s.classA, d), map[string]any{"entries": formEntries("A", 1, st)}).Want(http.StatusOK).JSON(&out)
	if len(out.Letters) != 1 || out.Letters[0].Change != api.LetterChangeIssued || out.Letters[0].ID == first {
		t.Fatalf("A again: letters %+v, want a new letter (not %d)", out.Letters, first)
	}
	if records, live := s.letterState(t, st); records != 2 || live != "{1}" {
		t.Fatalf("%d letter records, live %q", records, live)
	}
	if n := s.count(t, `SELECT count(*) FROM warning_letters WHERE id = $1 AND status = 'withdrawn' AND number IS NOT NULL`, first); n != 1 {
		t.Fatalf("the numbered letter is not withdrawn with its number")
	}
}
