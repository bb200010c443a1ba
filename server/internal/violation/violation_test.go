package violation_test

import (
	"bytes"
	"context"
	"encoding/json"
	"hash/crc32"
	"image"
	"image/png"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/server/internal/violation"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

func TestRecord(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	t.Run("OK", func(t *testing.T) {
		out := record(t, s.bk, s.inA, s.t10, s.t40)
		if len(out.Violations) != 2 {
			t.Fatalf("%+v", out)
		}
		v := out.Violations[0]
		if v.TypeID != s.t10 || v.Points != 10 || v.ClassName != "X IPA 1" || v.DepartmentName != "Ilmu Pengetahuan Alam" ||
			v.Sanction != "Sanksi bawaan 10" || v.Location != "Kantin" || v.RecordedBy == nil || *v.RecordedBy != s.bk.UserID ||
			v.RecordedByName == "" || v.Source != api.SourceManual || v.HandlingStatus != api.HandlingUnhandled {
			t.Fatalf("violation: %+v", v)
		}
		// 10 + 40 reaches SP 1 (50).
		if out.Violations[1].Points != 40 || out.Points.Total != 50 || out.Points.Level != 1 || out.Points.LevelName != "SP 1" ||
			len(out.Letters) != 1 || out.Letters[0].Level != 1 {
			t.Fatalf("points: %+v / %+v / %+v", out.Violations[1], out.Points, out.Letters)
		}
	})
	t.Run("OKPointsAndClassKept", func(t *testing.T) {
		st := s.student(t, s.classA)
		out := record(t, s.bk, st, s.t60)
		// The type's points change and the student moves class: history stays.
		s.env.DB.MustExec(`UPDATE violation_types SET points = 5 WHERE id = $1`, s.t60)
		s.env.DB.MustExec(`UPDATE students SET class_id = $1 WHERE id = $2`, s.classB, st)
		var v struct {
			Points    int    `db:"points"`
			ClassID   int64  `db:"class_id"`
			ClassName string `db:"class_name"`
		}
		must(t, s.env.DB.Get(&v, `SELECT points, class_id, class_name FROM violations WHERE id = $1`, out.Violations[0].ID))
		if v.Points != 60 || v.ClassID != s.classA || v.ClassName != "X IPA 1" {
			t.Fatalf("%+v", v)
		}
		var p api.StudentPoints
		s.bk.Do("GET", "/api/v1/students/"+itoa(st)+"/points", nil).Want(200).JSON(&p)
		if p.Total != 60 || p.LifetimeTotal != 60 || p.Level != 1 || p.NextLevel == nil || *p.NextLevel != 2 || *p.PointsToNext != 40 {
			t.Fatalf("points: %+v", p)
		}
		s.env.DB.MustExec(`UPDATE violation_types SET points = 60 WHERE id = $1`, s.t60)
	})
	t.Run("OKSanctionAndTime", func(t *testing.T) {
		at := time.Now().Add(-26 * time.Hour).Truncate(time.Second)
		var out api.CreateViolationsResponse
		s.bk.Do("POST", "/api/v1/violations", map[string]any{"student_id": s.inB, "type_ids": []int64{s.t10}, "occurred_at": at,
			"sanction": "  Membersihkan kelas  "}).Want(201).JSON(&out)
		v := out.Violations[0]
		if v.Sanction != "Membersihkan kelas" || !v.OccurredAt.Equal(at) || v.OccurredOn != schoolday.Of(at) {
			t.Fatalf("%+v", v)
		}
	})
	jakarta, _ := time.LoadLocation("Asia/Jakarta")
	t.Run("OKJakartaDay", func(t *testing.T) {
		// 20:00 UTC is already the next day in Jakarta.
		now := time.Now().In(jakarta)
		at := time.Date(now.Year(), now.Month(), now.Day(), 3, 30, 0, 0, jakarta).AddDate(0, 0, -1)
		var out api.CreateViolationsResponse
		s.bk.Do("POST", "/api/v1/violations", map[string]any{"student_id": s.inB, "type_ids": []int64{s.t10}, "occurred_at": at.UTC()}).Want(201).JSON(&out)
		if out.Violations[0].OccurredOn != at.Format(time.DateOnly) {
			t.Fatalf("occurred_on %s, want %s", out.Violations[0].OccurredOn, at.Format(time.DateOnly))
		}
	})

	inactiveStudent := s.student(t, s.classA)
	s.env.DB.MustExec(`UPDATE students SET active = false WHERE id = $1`, inactiveStudent)
	long := func(n int) string { return strings.Repeat("a", n) }
	for _, tc := range []struct {
		name, field, code string
		body              map[string]any
	}{
		{"ErrStudentRequired", "student_id", "violation.student.required", map[string]any{"type_ids": []int64{s.t10}}},
		{"ErrStudentNotFound", "student_id", "violation.student.not_found", map[string]any{"student_id": 987654, "type_ids": []int64{s.t10}}},
		{"ErrStudentInactive", "student_id", "violation.student.inactive", map[string]any{"student_id": inactiveStudent, "type_ids": []int64{s.t10}}},
		{"ErrTypesRequired", "type_ids", "violation.types.required", map[string]any{"student_id": s.inA, "type_ids": []int64{}}},
		{"ErrTypesTooMany", "type_ids", "violation.types.too_many", map[string]any{"student_id": s.inA, "type_ids": make([]int64, 21)}},
		{"ErrTypesDuplicate", "type_ids", "violation.types.duplicate", map[string]any{"student_id": s.inA, "type_ids": []int64{s.t10, s.t10}}},
		{"ErrTypeNotFound", "type_ids", "violation.types.not_found", map[string]any{"student_id": s.inA, "type_ids": []int64{s.t10, 987654}}},
		{"ErrTypeInactive", "type_ids", "violation.types.inactive", map[string]any{"student_id": s.inA, "type_ids": []int64{s.inactive}}},
		{"ErrTypeAttendance", "type_ids", "violation.types.attendance", map[string]any{"student_id": s.inA, "type_ids": []int64{s.alpha}}},
		{"ErrFuture", "occurred_at", "violation.occurred_at.future", map[string]any{"student_id": s.inA, "type_ids": []int64{s.t10}, "occurred_at": time.Now().Add(time.Hour)}},
		{"ErrTooOld", "occurred_at", "violation.occurred_at.too_old", map[string]any{"student_id": s.inA, "type_ids": []int64{s.t10}, "occurred_at": time.Now().AddDate(-3, 0, 0)}},
		{"ErrLocation", "location", "violation.location.too_long", map[string]any{"student_id": s.inA, "type_ids": []int64{s.t10}, "location": long(201)}},
		{"ErrDescription", "description", "violation.description.too_long", map[string]any{"student_id": s.inA, "type_ids": []int64{s.t10}, "description": long(5001)}},
		{"ErrSanction", "sanction", "violation.sanction.too_long", map[string]any{"student_id": s.inA, "type_ids": []int64{s.t10}, "sanction": long(1001)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := s.bk.Do("POST", "/api/v1/violations", tc.body).Want(422).Err()
			if got := e.Error.FieldCodes[tc.field].Code; got != tc.code {
				t.Fatalf("field %s: %q, want %q (%+v)", tc.field, got, tc.code, e.Error)
			}
		})
	}
	t.Run("OKNothingStoredOnError", func(t *testing.T) {
		var n int
		must(t, s.env.DB.Get(&n, `SELECT count(*) FROM violations WHERE student_id = $1`, inactiveStudent))
		if n != 0 {
			t.Fatalf("%d violations", n)
		}
	})
	t.Run("OKFuture5MinutesSkew", func(t *testing.T) {
		s.bk.Do("POST", "/api/v1/violations", map[string]any{"student_id": s.inB, "type_ids": []int64{s.t10}, "occurred_at": time.Now().Add(4 * time.Minute)}).Want(201)
	})
	t.Run("OKAuditedAndPointAudit", func(t *testing.T) {
		st := s.student(t, s.classA)
		out := record(t, s.bk, st, s.t10, s.t40)
		var rows []struct {
			Action string `db:"action"`
			Before int    `db:"points_before"`
			After  int    `db:"points_after"`
			Actor  string `db:"actor_name"`
			Addr   string `db:"address"`
		}
		must(t, s.env.DB.Select(&rows, `SELECT action, points_before, points_after, actor_name, address FROM point_audit WHERE student_id = $1 ORDER BY id`, st))
		if len(rows) != 2 || rows[0].Before != 0 || rows[0].After != 10 || rows[1].Before != 10 || rows[1].After != 50 ||
			rows[0].Action != "record" || rows[0].Actor == "" || rows[0].Addr == "" {
			t.Fatalf("%+v", rows)
		}
		var n int
		must(t, s.env.DB.Get(&n, `SELECT count(*) FROM audit_log WHERE entity = 'violation' AND action = 'violation.record' AND entity_id = $1`, itoa(out.Violations[0].ID)))
		if n != 1 {
			t.Fatalf("audit entries: %d", n)
		}
		var page api.Page[api.PointAuditEntry]
		s.bk.Do("GET", "/api/v1/point-audit?student_id="+itoa(st), nil).Want(200).JSON(&page)
		if page.Meta.Total != 2 || page.Data[0].PointsAfter != 50 || page.Data[0].StudentName == "" {
			t.Fatalf("%+v", page)
		}
		s.bk.Do("GET", "/api/v1/point-audit?student_id=x", nil).Want(422)
	})
}

func TestLetters(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	t.Run("OKOneAtATime", func(t *testing.T) {
		st := s.student(t, s.classA)
		if out := record(t, s.bk, st, s.t40); len(out.Letters) != 0 {
			t.Fatalf("letters at 40: %+v", out.Letters)
		}
		out := record(t, s.bk, st, s.t10)
		if len(out.Letters) != 1 || out.Letters[0].Level != 1 || out.Letters[0].Points != 50 || out.Letters[0].Status != api.LetterDraft ||
			out.Letters[0].MinPoints != 50 || out.Letters[0].ViolationID == nil || *out.Letters[0].ViolationID != out.Violations[0].ID ||
			out.Letters[0].ClassName != "X IPA 1" || out.Letters[0].StudentName == "" {
			t.Fatalf("letters at 50: %+v", out.Letters)
		}
		if out := record(t, s.bk, st, s.t10); len(out.Letters) != 0 {
			t.Fatalf("letters at 60: %+v", out.Letters)
		}
		var events int
		must(t, s.env.DB.Get(&events, `SELECT count(*) FROM warning_letter_events e JOIN warning_letters w ON w.id = e.letter_id
			WHERE w.student_id = $1 AND e.status = 'draft'`, st))
		if events != 1 {
			t.Fatalf("events: %d", events)
		}
		var colour string
		must(t, s.env.DB.Get(&colour, `SELECT colour FROM sp_thresholds WHERE level = 1`))
		if out.Letters[0].Colour != colour || colour == "" {
			t.Errorf("letter colour %q, threshold's %q", out.Letters[0].Colour, colour)
		}
		var issued int
		must(t, s.env.DB.Get(&issued, `SELECT count(*) FROM audit_log WHERE entity = 'warning_letter' AND action = 'warning_letter.issue' AND entity_id = $1`,
			itoa(out.Letters[0].ID)))
		if issued != 1 {
			t.Fatalf("audit entries for the letter: %d", issued)
		}
	})
	t.Run("OKJumpCoversEveryLevel", func(t *testing.T) {
		// 40 → 160 at once: one letter covering SP 1–3, no level skipped.
		st := s.student(t, s.classA)
		record(t, s.bk, st, s.t40)
		out := record(t, s.bk, st, s.t100, s.t10, s.newType(t, 10, true))
		if len(out.Letters) != 1 || out.Letters[0].Level != 3 || !slices.Equal(out.Letters[0].LevelsCovered, api.Levels{1, 2, 3}) ||
			out.Letters[0].Name != "SP 1–3" {
			t.Fatalf("letters: %+v", out.Letters)
		}
		if out.Points.Total != 160 || out.Points.Level != 3 || out.Points.NextLevel != nil || out.Points.PointsToNext != nil {
			t.Fatalf("points: %+v", out.Points)
		}
	})
	t.Run("OKOpenLetterRaised", func(t *testing.T) {
		// SP 1 still a draft when SP 2 is reached: the same letter rises,
		// its history names the violation that raised it.
		st := s.student(t, s.classA)
		first := record(t, s.bk, st, s.t60)
		second := record(t, s.bk, st, s.t60) // 120
		if len(second.Letters) != 1 || second.Letters[0].ID != first.Letters[0].ID || second.Letters[0].Name != "SP 1–2" ||
			!slices.Equal(second.Letters[0].LevelsCovered, api.Levels{1, 2}) || second.Letters[0].Points != 120 {
			t.Fatalf("raised %+v (first %+v)", second.Letters, first.Letters)
		}
		var ev struct {
			Level int   `db:"level"`
			VID   int64 `db:"violation_id"`
		}
		must(t, s.env.DB.Get(&ev, `SELECT level, violation_id FROM warning_letter_events WHERE letter_id = $1 AND status = 'raised'`, first.Letters[0].ID))
		if ev.Level != 2 || ev.VID != second.Violations[0].ID {
			t.Fatalf("raise event %+v", ev)
		}
		// Delivered: it never changes; SP 3 starts a new letter.
		s.env.DB.MustExec(`UPDATE warning_letters SET status = 'delivered' WHERE id = $1`, first.Letters[0].ID)
		third := record(t, s.bk, st, s.t40) // 160
		if len(third.Letters) != 1 || third.Letters[0].ID == first.Letters[0].ID || !slices.Equal(third.Letters[0].LevelsCovered, api.Levels{3}) {
			t.Fatalf("after delivery %+v", third.Letters)
		}
	})
	t.Run("OKMissingLevelCovered", func(t *testing.T) {
		// A letter of SP 2 alone (say imported) and SP 1 reached: the open
		// letter comes to cover SP 1 too, never a second letter.
		st := s.student(t, s.classA)
		out := record(t, s.bk, st, s.t100)
		s.env.DB.MustExec(`UPDATE warning_letters SET levels_covered = '{2}', name = 'SP 2' WHERE id = $1`, out.Letters[0].ID)
		again := record(t, s.bk, st, s.t10)
		if len(again.Letters) != 1 || again.Letters[0].ID != out.Letters[0].ID || !slices.Equal(again.Letters[0].LevelsCovered, api.Levels{1, 2}) {
			t.Fatalf("%+v", again.Letters)
		}
	})
	t.Run("OKRace", func(t *testing.T) {
		for round := 0; round < 3; round++ {
			st := s.student(t, s.classA)
			body, _ := json.Marshal(map[string]any{"student_id": st, "type_ids": []int64{s.t10}})
			var wg sync.WaitGroup
			statuses := make([]int, 20)
			for i := range statuses {
				wg.Add(1)
				go func() {
					defer wg.Done()
					req, _ := http.NewRequest("POST", s.env.Server.URL+"/api/v1/violations", bytes.NewReader(body))
					req.Header.Set("Content-Type", "application/json")
					req.Header.Set("Authorization", "Bearer "+s.bk.Token)
					res, err := s.env.Server.Client().Do(req)
					if err != nil {
						return
					}
					_, _ = io.Copy(io.Discard, res.Body)
					res.Body.Close()
					statuses[i] = res.StatusCode
				}()
			}
			wg.Wait()
			for i, st := range statuses {
				if st != 201 {
					t.Fatalf("request %d: %d", i, st)
				}
			}
			// Every level reached covered by exactly one live letter, and
			// one letter (nothing delivered meanwhile).
			var levels []int
			must(t, s.env.DB.Select(&levels, `SELECT unnest(levels_covered) AS l FROM warning_letters
				WHERE student_id = $1 AND status <> 'withdrawn' ORDER BY l`, st))
			var letters int
			must(t, s.env.DB.Get(&letters, `SELECT count(*) FROM warning_letters WHERE student_id = $1`, st))
			if !slices.Equal(levels, []int{1, 2, 3}) || letters != 1 {
				t.Fatalf("round %d: live levels %v in %d letters", round, levels, letters)
			}
			var p api.StudentPoints
			s.bk.Do("GET", "/api/v1/students/"+itoa(st)+"/points", nil).Want(200).JSON(&p)
			if p.Total != 200 {
				t.Fatalf("total %d", p.Total)
			}
			// The point audit is a chain: every entry starts where another ended.
			var bad int
			must(t, s.env.DB.Get(&bad, `SELECT count(*) FROM point_audit a WHERE a.student_id = $1 AND a.points_before <> 0
				AND NOT EXISTS (SELECT 1 FROM point_audit b WHERE b.student_id = a.student_id AND b.points_after = a.points_before)`, st))
			var maxAfter int
			must(t, s.env.DB.Get(&maxAfter, `SELECT max(points_after) FROM point_audit WHERE student_id = $1`, st))
			if bad != 0 || maxAfter != 200 {
				t.Fatalf("point audit: %d broken links, max %d", bad, maxAfter)
			}
		}
	})
}

func TestDelete(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	t.Run("OKDraftWithdrawn", func(t *testing.T) {
		st := s.student(t, s.classA)
		out := record(t, s.bk, st, s.t60)
		if len(out.Letters) != 1 {
			t.Fatalf("%+v", out.Letters)
		}
		s.bk.Do("DELETE", "/api/v1/violations/"+itoa(out.Violations[0].ID), nil).Want(204)
		s.bk.Do("DELETE", "/api/v1/violations/"+itoa(out.Violations[0].ID), nil).Want(404)
		var l struct {
			Status string `db:"status"`
			Reason string `db:"withdrawn_reason"`
		}
		must(t, s.env.DB.Get(&l, `SELECT status, withdrawn_reason FROM warning_letters WHERE id = $1`, out.Letters[0].ID))
		if l.Status != api.LetterWithdrawn || l.Reason != violation.WithdrawReason {
			t.Fatalf("%+v", l)
		}
		var pa struct {
			Before int   `db:"points_before"`
			After  int   `db:"points_after"`
			VID    int64 `db:"violation_id"`
		}
		must(t, s.env.DB.Get(&pa, `SELECT points_before, points_after, violation_id FROM point_audit WHERE student_id = $1 AND action = 'delete'`, st))
		if pa.Before != 60 || pa.After != 0 || pa.VID != out.Violations[0].ID {
			t.Fatalf("%+v", pa)
		}
		var n int
		must(t, s.env.DB.Get(&n, `SELECT count(*) FROM audit_log WHERE entity = 'violation' AND action = 'violation.delete' AND entity_id = $1`, itoa(out.Violations[0].ID)))
		if n != 1 {
			t.Fatalf("audit %d", n)
		}
		// Crossing again drafts the same letter again (it was never
		// printed or sent): one record, its history shows both.
		again := record(t, s.bk, st, s.t60)
		if len(again.Letters) != 1 || again.Letters[0].Level != 1 || again.Letters[0].ID != out.Letters[0].ID ||
			again.Letters[0].Status != api.LetterDraft {
			t.Fatalf("%+v", again.Letters)
		}
		var drafts int
		must(t, s.env.DB.Get(&drafts, `SELECT count(*) FROM warning_letter_events WHERE letter_id = $1 AND status = 'draft'`, out.Letters[0].ID))
		if drafts != 2 {
			t.Fatalf("draft events %d", drafts)
		}
	})
	t.Run("OKOpenLetterLoweredDeliveredStays", func(t *testing.T) {
		// An open letter (printed counts) follows the total down; a
		// delivered one stays and says the total has fallen since.
		st := s.student(t, s.classA)
		a := record(t, s.bk, st, s.t60)
		b := record(t, s.bk, st, s.t60) // 120: SP 1–2, one letter
		id := a.Letters[0].ID
		s.env.DB.MustExec(`UPDATE warning_letters SET status = 'printed' WHERE id = $1`, id)
		s.bk.Do("DELETE", "/api/v1/violations/"+itoa(b.Violations[0].ID), nil).Want(204)
		var l struct {
			Status string `db:"status"`
			Level  int    `db:"level"`
			Name   string `db:"name"`
			Levels string `db:"levels"`
		}
		must(t, s.env.DB.Get(&l, `SELECT status, level, name, levels_covered::text AS levels FROM warning_letters WHERE id = $1`, id))
		if l.Status != api.LetterPrinted || l.Level != 1 || l.Levels != "{1}" || l.Name != "SP 1" {
			t.Fatalf("lowered %+v", l)
		}
		var ev int64
		must(t, s.env.DB.Get(&ev, `SELECT violation_id FROM warning_letter_events WHERE letter_id = $1 AND status = 'lowered'`, id))
		if ev != b.Violations[0].ID {
			t.Fatalf("lowered by %d", ev)
		}
		s.env.DB.MustExec(`UPDATE warning_letters SET status = 'delivered' WHERE id = $1`, id)
		s.bk.Do("DELETE", "/api/v1/violations/"+itoa(a.Violations[0].ID), nil).Want(204)
		var fallen bool
		must(t, s.env.DB.Get(&l.Status, `SELECT status FROM warning_letters WHERE id = $1`, id))
		must(t, s.env.DB.Get(&fallen, `SELECT total_fallen_at IS NOT NULL FROM warning_letters WHERE id = $1`, id))
		if l.Status != api.LetterDelivered || !fallen {
			t.Fatalf("delivered letter %s, fallen %v", l.Status, fallen)
		}
		// Back at SP 1: the delivered letter covers it, and is no longer
		// marked fallen.
		record(t, s.bk, st, s.t60)
		must(t, s.env.DB.Get(&fallen, `SELECT total_fallen_at IS NOT NULL FROM warning_letters WHERE id = $1`, id))
		var live int
		must(t, s.env.DB.Get(&live, `SELECT count(*) FROM warning_letters WHERE student_id = $1 AND status <> 'withdrawn'`, st))
		if fallen || live != 1 {
			t.Fatalf("fallen %v, live letters %d", fallen, live)
		}
	})
	t.Run("OKPhotosGo", func(t *testing.T) {
		body, ct := multipartBody(t, map[string]any{"student_id": s.inA, "type_ids": []int64{s.t10}}, namedFile{"a.jpg", testJPEG(t, 20, 20)})
		var out api.CreateViolationsResponse
		s.bk.Do("POST", "/api/v1/violations", body, "Content-Type", ct).Want(201).JSON(&out)
		s.bk.Do("DELETE", "/api/v1/violations/"+itoa(out.Violations[0].ID), nil).Want(204)
		var n int
		must(t, s.env.DB.Get(&n, `SELECT count(*) FROM violation_photos WHERE violation_id = $1`, out.Violations[0].ID))
		if n != 0 {
			t.Fatal("photos left")
		}
	})
}

func TestVerify(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	out := record(t, s.bk, s.inA, s.t10)
	id := itoa(out.Violations[0].ID)
	var v1, v2 api.Violation
	s.bk.Do("POST", "/api/v1/violations/"+id+"/verify", nil).Want(200).JSON(&v1)
	if v1.VerifiedBy == nil || *v1.VerifiedBy != s.bk.UserID || v1.VerifiedAt == nil || v1.VerifiedByName == "" {
		t.Fatalf("%+v", v1)
	}
	other := s.env.As(perm.BK)
	other.Do("POST", "/api/v1/violations/"+id+"/verify", nil).Want(200).JSON(&v2)
	if *v2.VerifiedBy != s.bk.UserID || !v2.VerifiedAt.Equal(*v1.VerifiedAt) {
		t.Fatalf("second verify changed it: %+v", v2)
	}
	var n int
	must(t, s.env.DB.Get(&n, `SELECT count(*) FROM audit_log WHERE entity = 'violation' AND action = 'violation.verify'`))
	if n != 1 {
		t.Fatalf("audit %d", n)
	}
	s.bk.Do("POST", "/api/v1/violations/987654/verify", nil).Want(404)
	s.wali.Do("POST", "/api/v1/violations/"+id+"/verify", nil).Want(403)
}

func TestScope(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	t.Run("ErrRecordOtherClass", func(t *testing.T) {
		e := s.wali.Do("POST", "/api/v1/violations", map[string]any{"student_id": s.inB, "type_ids": []int64{s.t10}}).Want(403).Err()
		if e.Error.MessageCode != "violation.student.not_your_class" {
			t.Fatalf("%+v", e.Error)
		}
		// The answer names nobody outside the caller's class (issue 25).
		var name string
		must(t, s.env.DB.Get(&name, `SELECT full_name FROM students WHERE id = $1`, s.inB))
		if strings.Contains(e.Error.Message, name) {
			t.Fatalf("the 403 names the student: %q", e.Error.Message)
		}
	})
	own := record(t, s.wali, s.inA, s.t10)
	body, ct := multipartBody(t, map[string]any{"student_id": s.inB, "type_ids": []int64{s.t10}}, namedFile{"b.jpg", testJPEG(t, 30, 30)})
	var other api.CreateViolationsResponse
	s.bk.Do("POST", "/api/v1/violations", body, "Content-Type", ct).Want(201).JSON(&other)
	t.Run("OKOwnClass", func(t *testing.T) {
		if own.Violations[0].RecordedByName == "" || own.Points.Total != 10 {
			t.Fatalf("%+v", own)
		}
		s.wali.Do("GET", "/api/v1/students/"+itoa(s.inA)+"/points", nil).Want(200)
	})
	t.Run("ErrPointsOtherClass", func(t *testing.T) {
		s.wali.Do("GET", "/api/v1/students/"+itoa(s.inB)+"/points", nil).Want(404)
		s.bk.Do("GET", "/api/v1/students/987654/points", nil).Want(404)
	})
	t.Run("ErrPhotoOtherClass", func(t *testing.T) {
		p := other.Violations[0].Photos[0]
		s.bk.Do("GET", p.URL, nil).Want(200)
		s.wali.Do("GET", p.URL, nil).Want(404)
		s.wali.Do("GET", p.ThumbnailURL, nil).Want(404)
		// The photo id under another violation's id: 404.
		s.bk.Do("GET", "/api/v1/violations/"+itoa(own.Violations[0].ID)+"/photos/"+itoa(p.ID), nil).Want(404)
	})
	t.Run("OKViolationOfTheirClassAfterMove", func(t *testing.T) {
		// The student moved to class B: the violation recorded in class A
		// stays visible to A's homeroom teacher (its class that day).
		st := s.student(t, s.classA)
		body, ct := multipartBody(t, map[string]any{"student_id": st, "type_ids": []int64{s.t10}}, namedFile{"c.jpg", testJPEG(t, 10, 10)})
		var out api.CreateViolationsResponse
		s.wali.Do("POST", "/api/v1/violations", body, "Content-Type", ct).Want(201).JSON(&out)
		s.env.DB.MustExec(`UPDATE students SET class_id = $1 WHERE id = $2`, s.classB, st)
		s.wali.Do("GET", out.Violations[0].Photos[0].URL, nil).Want(200)
		s.wali.Do("GET", "/api/v1/students/"+itoa(st)+"/points", nil).Want(200)
		s.wali.Do("POST", "/api/v1/violations", map[string]any{"student_id": st, "type_ids": []int64{s.t10}}).Want(403)
	})
	t.Run("ErrNoPermission", func(t *testing.T) {
		staff := s.env.As(perm.Staff)
		e := staff.Do("POST", "/api/v1/violations", map[string]any{"student_id": s.inA, "type_ids": []int64{s.t10}}).Want(403).Err()
		if e.Error.Params["code"] != string(perm.ViolationsRecord) {
			t.Fatalf("%+v", e.Error)
		}
		s.wali.Do("DELETE", "/api/v1/violations/"+itoa(own.Violations[0].ID), nil).Want(403)
		s.wali.Do("GET", "/api/v1/point-audit", nil).Want(403)
	})
	t.Run("OKPointAuditScoped", func(t *testing.T) {
		// Granted the permission, a homeroom teacher sees their class only.
		admin := s.env.As(perm.Admin)
		perms := append(perm.Defaults(perm.WaliKelas), perm.PointAuditView)
		admin.Do("PUT", "/api/v1/roles/wali_kelas/permissions", map[string]any{"permissions": perms}).Want(200)
		var page api.Page[api.PointAuditEntry]
		s.wali.Do("GET", "/api/v1/point-audit", nil).Want(200).JSON(&page)
		if page.Meta.Total == 0 {
			t.Fatal("nothing")
		}
		for _, e := range page.Data {
			if e.StudentID == s.inB {
				t.Fatalf("another class's entry: %+v", e)
			}
		}
	})
}

func TestPhotos(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	send := func(t *testing.T, files ...namedFile) *api.CreateViolationsResponse {
		t.Helper()
		body, ct := multipartBody(t, map[string]any{"student_id": s.inA, "type_ids": []int64{s.t10, s.t40}}, files...)
		res := s.bk.Do("POST", "/api/v1/violations", body, "Content-Type", ct)
		if res.Status != 201 {
			return nil
		}
		var out api.CreateViolationsResponse
		res.JSON(&out)
		return &out
	}
	t.Run("OKExifGone", func(t *testing.T) {
		src := withExif(testJPEG(t, 40, 20), 6)
		if !bytes.Contains(src, []byte("GPS-SECRET")) {
			t.Fatal("test photo has no GPS")
		}
		out := send(t, namedFile{"kamera.jpg", src})
		if out == nil {
			t.Fatal("not recorded")
		}
		for _, v := range out.Violations {
			if v.PhotoCount != 1 || len(v.Photos) != 1 {
				t.Fatalf("photos: %+v", v)
			}
		}
		p := out.Violations[0].Photos[0]
		// Orientation 6 (rotate 90° clockwise): 40×20 becomes 20×40.
		if p.Width != 20 || p.Height != 40 {
			t.Fatalf("size %dx%d", p.Width, p.Height)
		}
		for _, u := range []string{p.URL, p.ThumbnailURL} {
			res := s.bk.Do("GET", u, nil).Want(200)
			if res.Header.Get("Content-Type") != "image/jpeg" || !strings.HasPrefix(res.Header.Get("Cache-Control"), "private") ||
				res.Header.Get("X-Content-Type-Options") != "nosniff" {
				t.Fatalf("headers: %v", res.Header)
			}
			if bytes.Contains(res.Body, []byte("Exif")) || bytes.Contains(res.Body, []byte("GPS-SECRET")) || hasSegment(res.Body, 0xE1) {
				t.Fatalf("%s still carries EXIF", u)
			}
			img, _, err := image.Decode(bytes.NewReader(res.Body))
			must(t, err)
			// Upright: red (the picture's left half) is now on top.
			r, _, b, _ := img.At(img.Bounds().Dx()/2, 2).RGBA()
			if r < b {
				t.Fatalf("%s not rotated: top pixel r=%d b=%d", u, r>>8, b>>8)
			}
		}
	})
	t.Run("OKPNGAndLargeResized", func(t *testing.T) {
		img := image.NewNRGBA(image.Rect(0, 0, 2000, 1000))
		var b bytes.Buffer
		must(t, png.Encode(&b, img))
		out := send(t, namedFile{"layar.png", b.Bytes()})
		if out == nil {
			t.Fatal("not recorded")
		}
		p := out.Violations[0].Photos[0]
		if p.Width != violation.MaxPhotoSide || p.Height != 800 {
			t.Fatalf("size %dx%d", p.Width, p.Height)
		}
		th := s.bk.Do("GET", p.ThumbnailURL, nil).Want(200)
		cfg, _, err := image.DecodeConfig(bytes.NewReader(th.Body))
		must(t, err)
		if cfg.Width != violation.MaxThumbnailSide || cfg.Height != 160 {
			t.Fatalf("thumbnail %dx%d", cfg.Width, cfg.Height)
		}
	})
	errCode := func(t *testing.T, files ...namedFile) string {
		t.Helper()
		body, ct := multipartBody(t, map[string]any{"student_id": s.inA, "type_ids": []int64{s.t10}}, files...)
		e := s.bk.Do("POST", "/api/v1/violations", body, "Content-Type", ct).Want(422).Err()
		return e.Error.FieldCodes["photos"].Code
	}
	t.Run("ErrTextNamedJPG", func(t *testing.T) {
		if c := errCode(t, namedFile{"foto.jpg", []byte("ini bukan foto, hanya teks")}); c != "violation.photo.not_image" {
			t.Fatal(c)
		}
	})
	t.Run("ErrWebP", func(t *testing.T) {
		webp := append([]byte("RIFF\x24\x00\x00\x00WEBPVP8 "), make([]byte, 40)...)
		if c := errCode(t, namedFile{"x.webp", webp}); c != "violation.photo.unsupported" {
			t.Fatal(c)
		}
	})
	t.Run("ErrDamaged", func(t *testing.T) {
		jpg := testJPEG(t, 50, 50)
		if c := errCode(t, namedFile{"rusak.jpg", jpg[:len(jpg)/3]}); c != "violation.photo.damaged" {
			t.Fatal(c)
		}
	})
	t.Run("ErrDecompressionBomb", func(t *testing.T) {
		if c := errCode(t, namedFile{"bom.png", pngClaiming(t, 100000, 100000)}); c != "violation.photo.too_many_pixels" {
			t.Fatal(c)
		}
	})
	t.Run("ErrTooMany", func(t *testing.T) {
		f := namedFile{"a.jpg", testJPEG(t, 8, 8)}
		if c := errCode(t, f, f, f, f, f, f); c != "violation.photo.too_many" {
			t.Fatal(c)
		}
	})
	t.Run("ErrTooLarge", func(t *testing.T) {
		big := append(testJPEG(t, 8, 8), make([]byte, violation.MaxPhotoBytes)...)
		if c := errCode(t, namedFile{"besar.jpg", big}); c != "violation.photo.too_large" {
			t.Fatal(c)
		}
	})
	t.Run("OKAboveServerUploadLimit", func(t *testing.T) {
		// 9 MB: more than the server's general 8 MiB upload limit, which
		// this route raises (trailing bytes after the JPEG are ignored).
		big := append(testJPEG(t, 8, 8), make([]byte, 9<<20)...)
		if out := send(t, namedFile{"besar.jpg", big}); out == nil {
			t.Fatal("a 9 MB photo was refused")
		}
	})
	t.Run("ErrNoData", func(t *testing.T) {
		body, ct := multipartBody(t, map[string]any{}, namedFile{"a.jpg", testJPEG(t, 8, 8)})
		// Drop the data part by sending only a photo.
		raw := strings.Replace(body.String(), `name="data"`, `name="lain"`, 1)
		e := s.bk.Do("POST", "/api/v1/violations", strings.NewReader(raw), "Content-Type", ct).Want(400).Err()
		if e.Error.MessageCode != "violation.request.unknown_part" {
			t.Fatalf("%+v", e.Error)
		}
	})
	t.Run("OKNothingStoredOnPhotoError", func(t *testing.T) {
		var n int
		must(t, s.env.DB.Get(&n, `SELECT count(*) FROM violations WHERE student_id = $1`, s.inA))
		if n != 6 { // three recordings of two types above
			t.Fatalf("%d violations", n)
		}
	})
}

// hasSegment reports whether a JPEG has a marker segment before its scan.
func hasSegment(jpg []byte, marker byte) bool {
	i := 2
	for i+4 <= len(jpg) && jpg[i] == 0xFF {
		if jpg[i+1] == 0xDA {
			return false
		}
		if jpg[i+1] == marker {
			return true
		}
		i += 2 + int(jpg[i+2])<<8 + int(jpg[i+3])
	}
	return false
}

// pngClaiming is a tiny PNG whose header claims w×h pixels.
func pngClaiming(t *testing.T, w, h uint32) []byte {
	var b bytes.Buffer
	must(t, png.Encode(&b, image.NewGray(image.Rect(0, 0, 1, 1))))
	p := b.Bytes()
	// IHDR data starts at 16 (8 signature + 4 length + 4 type).
	put := func(at int, v uint32) {
		p[at], p[at+1], p[at+2], p[at+3] = byte(v>>24), byte(v>>16), byte(v>>8), byte(v)
	}
	put(16, w)
	put(20, h)
	put(29, crc32.ChecksumIEEE(p[12:29]))
	return p
}

// TestPointAuditCommitOrder: a recording that waited for another (it
// started first, committed last) lists as the newest entry, with the
// student's real total: the list follows the order entries committed, not
// the transactions' start.
func TestPointAuditCommitOrder(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	st := s.student(t, s.classA)
	ctx := context.Background()
	rec := func(tx *sqlx.Tx, typeID int64) {
		t.Helper()
		in := violation.Record{StudentID: st, Items: []violation.Item{{TypeID: typeID}}, Source: api.SourceManual}
		in.Validate(apperr.Fields{})
		if _, err := violation.RecordTx(ctx, tx, in, audit.Actor{Name: "uji"}); err != nil {
			t.Fatal(err)
		}
	}
	record(t, s.bk, st, s.t40)
	first := s.env.DB.MustBegin()
	defer first.Rollback()
	first.MustExec(`SELECT 1`) // its transaction (and now()) starts here
	time.Sleep(20 * time.Millisecond)
	second := s.env.DB.MustBegin()
	rec(second, s.t40) // 80
	must(t, second.Commit())
	rec(first, s.t10) // 90, committed last
	must(t, first.Commit())

	var p struct{ Data []api.PointAuditEntry }
	s.bk.Do("GET", "/api/v1/point-audit?student_id="+itoa(st), nil).Want(200).JSON(&p)
	if len(p.Data) != 3 || p.Data[0].PointsBefore != 80 || p.Data[0].PointsAfter != 90 || p.Data[1].PointsAfter != 80 {
		t.Fatalf("point audit, newest first: %+v", p.Data)
	}
	if !p.Data[0].At.Before(p.Data[1].At) {
		t.Fatalf("the test wants the newest entry's transaction to have started first: %v, %v", p.Data[0].At, p.Data[1].At)
	}
}
