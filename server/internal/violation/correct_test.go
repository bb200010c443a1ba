package violation_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

func correct(t *testing.T, s *school, id int64, body map[string]any) api.CorrectViolationResponse {
	t.Helper()
	var out api.CorrectViolationResponse
	s.bk.Do("PATCH", "/api/v1/violations/"+itoa(id), body).Want(200).JSON(&out)
	return out
}

func TestCorrect(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	t.Run("OKTypeAndPointsFollow", func(t *testing.T) {
		st := s.student(t, s.classA)
		v := record(t, s.bk, st, s.t10).Violations[0]
		at := v.OccurredAt.Add(-time.Hour)
		out := correct(t, s, v.ID, map[string]any{"type_id": s.t60, "occurred_at": at, "location": " Lab ", "description": "Berkelahi di lab",
			"sanction": "Skorsing 1 hari"})
		got := out.Violation
		if got.TypeID != s.t60 || got.Points != 60 || got.Location != "Lab" || got.Sanction != "Skorsing 1 hari" || !got.OccurredAt.Equal(at) ||
			got.ClassName != v.ClassName || got.RecordedByName != v.RecordedByName {
			t.Fatalf("corrected %+v", got)
		}
		// 10 → 60: SP 1 reached by the correction, through the ledger.
		if len(out.Letters) != 1 || out.Letters[0].Change != api.LetterChangeIssued || out.Points.Total != 60 {
			t.Fatalf("letters %+v, points %+v", out.Letters, out.Points)
		}
		var pa []struct {
			Action  string          `db:"action"`
			Before  int             `db:"points_before"`
			After   int             `db:"points_after"`
			Details json.RawMessage `db:"details"`
		}
		must(t, s.env.DB.Select(&pa, `SELECT action, points_before, points_after, details FROM point_audit WHERE student_id = $1 ORDER BY id`, st))
		var d struct{ Before, After struct{ Points int } }
		if len(pa) != 2 || pa[1].Action != "correct" || pa[1].Before != 10 || pa[1].After != 60 || json.Unmarshal(pa[1].Details, &d) != nil ||
			d.Before.Points != 10 || d.After.Points != 60 {
			t.Fatalf("point audit %+v", pa)
		}
		var p api.Page[api.PointAuditEntry]
		s.bk.Do("GET", "/api/v1/point-audit?student_id="+itoa(st), nil).Want(200).JSON(&p)
		if len(p.Data) != 2 || p.Data[0].Action != "correct" || len(p.Data[0].Details) < 10 {
			t.Fatalf("point audit list %+v", p.Data)
		}
		var n int
		must(t, s.env.DB.Get(&n, `SELECT count(*) FROM audit_log WHERE action = 'violation.correct' AND entity_id = $1`, itoa(v.ID)))
		if n != 1 {
			t.Fatalf("%d audit entries", n)
		}
		// The recording's recipients are told, "diperbaiki".
		var told []int64
		must(t, s.env.DB.Select(&told, `SELECT user_id FROM notifications WHERE kind = 'violation_corrected' AND violation_id = $1 ORDER BY user_id`, v.ID))
		var recorded []int64
		must(t, s.env.DB.Select(&recorded, `SELECT user_id FROM notifications WHERE kind = 'violation' AND violation_id = $1 ORDER BY user_id`, v.ID))
		if len(told) == 0 || len(told) != len(recorded) {
			t.Fatalf("corrected told %v, recorded told %v", told, recorded)
		}
		var list struct{ Data []api.Notification }
		s.wali.Do("GET", "/api/v1/notifications", nil).Want(200).JSON(&list)
		if len(list.Data) == 0 || list.Data[0].Kind != api.NotificationViolationCorrected || list.Data[0].Title == "" {
			t.Fatalf("wali's newest %+v", list.Data)
		}
	})
	t.Run("OKLowerTypeWithdrawsLetter", func(t *testing.T) {
		st := s.student(t, s.classA)
		rec := record(t, s.bk, st, s.t60)
		out := correct(t, s, rec.Violations[0].ID, map[string]any{"type_id": s.t10})
		if len(out.Letters) != 1 || out.Letters[0].Change != api.LetterChangeWithdrawn || out.Points.Total != 10 {
			t.Fatalf("%+v", out)
		}
	})
	t.Run("OKNothingChanged", func(t *testing.T) {
		st := s.student(t, s.classA)
		v := record(t, s.bk, st, s.t10).Violations[0]
		correct(t, s, v.ID, map[string]any{"type_id": s.t10, "location": v.Location})
		var n int
		must(t, s.env.DB.Get(&n, `SELECT count(*) FROM point_audit WHERE violation_id = $1 AND action = 'correct'`, v.ID))
		if n != 0 {
			t.Fatalf("%d entries for no change", n)
		}
	})
	t.Run("ErrAutomatic", func(t *testing.T) {
		var id int64
		must(t, s.env.DB.Get(&id, `INSERT INTO violations (student_id, class_id, violation_type_id, occurred_at, occurred_on, points, source, auto_kind, auto_hours)
			VALUES ($1, $2, $3, now(), (now() AT TIME ZONE 'Asia/Jakarta')::date, 3, 'attendance', 'alpha', 2) RETURNING id`, s.inA, s.classA, s.alpha))
		e := s.bk.Do("PATCH", "/api/v1/violations/"+itoa(id), map[string]any{"description": "x"}).Want(422).Err()
		if e.Error.MessageCode != "violation.correct.automatic" || e.Error.Message == "" {
			t.Fatalf("%+v", e.Error)
		}
	})
	t.Run("ErrFields", func(t *testing.T) {
		v := record(t, s.bk, s.inA, s.t10).Violations[0]
		for _, tc := range []struct {
			body  map[string]any
			field string
			code  string
		}{
			{map[string]any{"type_id": s.inactive}, "type_id", "violation.types.inactive"},
			{map[string]any{"type_id": s.alpha}, "type_id", "violation.types.attendance"},
			{map[string]any{"type_id": 99999}, "type_id", "violation.types.not_found"},
			{map[string]any{"occurred_at": time.Now().Add(time.Hour)}, "occurred_at", "violation.occurred_at.future"},
			{map[string]any{"occurred_at": time.Now().AddDate(0, 0, -400)}, "occurred_at", "violation.correct.other_year"},
			{map[string]any{"occurred_at": time.Now().AddDate(-3, 0, 0)}, "occurred_at", "violation.occurred_at.too_old"},
			{map[string]any{"location": strings.Repeat("é", 201)}, "location", "violation.location.too_long"},
		} {
			e := s.bk.Do("PATCH", "/api/v1/violations/"+itoa(v.ID), tc.body).Want(422).Err()
			if e.Error.FieldCodes[tc.field].Code != tc.code {
				t.Errorf("%v: %+v", tc.body, e.Error)
			}
		}
		var got struct {
			Points int `db:"points"`
		}
		must(t, s.env.DB.Get(&got, `SELECT points FROM violations WHERE id = $1`, v.ID))
		if got.Points != 10 {
			t.Fatalf("stored %+v", got)
		}
	})
	t.Run("ScopeAndPermission", func(t *testing.T) {
		inB := record(t, s.bk, s.inB, s.t10).Violations[0]
		inA := record(t, s.bk, s.inA, s.t10).Violations[0]
		s.wali.Do("PATCH", "/api/v1/violations/"+itoa(inB.ID), map[string]any{"description": "x"}).Want(404)
		s.wali.Do("PATCH", "/api/v1/violations/"+itoa(inA.ID), map[string]any{"description": "Dibetulkan wali"}).Want(200)
		s.env.As(perm.Staff).Do("PATCH", "/api/v1/violations/"+itoa(inA.ID), map[string]any{"description": "x"}).Want(403)
		s.env.Anonymous().Do("PATCH", "/api/v1/violations/"+itoa(inA.ID), map[string]any{"description": "x"}).Want(401)
		s.bk.Do("PATCH", "/api/v1/violations/999999", map[string]any{"description": "x"}).Want(404)
		// Moved to class B since: visible to A's homeroom teacher (its class
		// that day) but corrected, as recorded, by the class's own.
		st := s.student(t, s.classA)
		moved := record(t, s.wali, st, s.t10).Violations[0]
		s.env.DB.MustExec(`UPDATE students SET class_id = $1 WHERE id = $2`, s.classB, st)
		e := s.wali.Do("PATCH", "/api/v1/violations/"+itoa(moved.ID), map[string]any{"description": "x"}).Want(403).Err()
		if e.Error.MessageCode != "violation.student.not_your_class" {
			t.Fatalf("%+v", e.Error)
		}
	})
}
