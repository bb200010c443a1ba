package cases_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/tatib/tatib/server/internal/violationtype"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

func person(t *testing.T, c api.Case, role string) int64 {
	t.Helper()
	for _, p := range c.People {
		if p.Role == role {
			return p.ID
		}
	}
	t.Fatalf("no %s in %+v", role, c.People)
	return 0
}

func TestHandling(t *testing.T) {
	s := setup(t)
	must(t, violationtype.Boot(context.Background(), s.env.Deps))
	var typeID int64
	must(t, s.env.DB.Get(&typeID, `INSERT INTO violation_types (name, slug, points, category_id, active)
		VALUES ('Perundungan', 'perundungan-uji', 100, (SELECT id FROM violation_categories ORDER BY id LIMIT 1), true) RETURNING id`))
	var c api.Case
	s.bk.Do("GET", s.path(), nil).Want(http.StatusOK).JSON(&c)
	perp, victim, witness := person(t, c, "terduga_pelaku"), person(t, c, "korban"), person(t, c, "saksi")

	t.Run("OKViolationThroughTheLedger", func(t *testing.T) {
		var out api.CreateViolationsResponse
		s.bk.Do("POST", s.path()+"/violations", map[string]any{"student_id": s.perp, "type_ids": []int64{typeID}}).Want(http.StatusCreated).JSON(&out)
		var caseID, audits int64
		must(t, s.env.DB.Get(&caseID, `SELECT case_id FROM violations WHERE id = $1`, out.Violations[0].ID))
		must(t, s.env.DB.Get(&audits, `SELECT count(*) FROM point_audit WHERE student_id = $1`, s.perp))
		if caseID != s.caseID || audits != 1 || out.Points.Total != 100 || len(out.Letters) == 0 {
			t.Errorf("case_id %d, %d point audits, points %+v, letters %+v", caseID, audits, out.Points, out.Letters)
		}
		s.bk.Do("GET", s.path(), nil).Want(http.StatusOK).JSON(&c)
		if len(c.Violations) != 1 || c.Violations[0].StudentName != s.perpName {
			t.Errorf("case violations %+v", c.Violations)
		}
	})
	t.Run("ErrVictimOrWitness", func(t *testing.T) {
		for _, st := range []int64{s.victim, s.witness} {
			e := s.bk.Do("POST", s.path()+"/violations", map[string]any{"student_id": st, "type_ids": []int64{typeID}}).Want(http.StatusUnprocessableEntity).Err()
			if e.Error.FieldCodes["student_id"].Code != "cases.violation.victim_or_witness" {
				t.Errorf("student %d: %+v", st, e.Error.FieldCodes)
			}
		}
		var n int
		must(t, s.env.DB.Get(&n, `SELECT count(*) FROM violations WHERE student_id IN ($1, $2)`, s.victim, s.witness))
		if n != 0 {
			t.Errorf("%d violations for victim and witness", n)
		}
		// Homeroom teachers record violations, but not inside a case.
		s.waliA.Do("POST", s.path()+"/violations", map[string]any{"student_id": s.perp, "type_ids": []int64{typeID}}).Want(http.StatusForbidden)
	})
	t.Run("OKSessionAgreementRecovery", func(t *testing.T) {
		s.bk.Do("POST", s.path()+"/sessions", map[string]any{"held_at": "2026-11-21T09:00", "participant_ids": []int64{perp, victim},
			"staff_ids": []int64{s.waliA.UserID}, "notes": "Mediasi rahasia"}).Want(http.StatusCreated).JSON(&c)
		if len(c.Sessions) != 1 || len(c.Sessions[0].People) != 2 || c.Sessions[0].Notes != "Mediasi rahasia" {
			t.Errorf("sessions %+v", c.Sessions)
		}
		s.bk.Do("POST", s.path()+"/agreements", map[string]any{"agreed_on": "2026-11-21", "items": []map[string]any{
			{"participant_id": perp, "action": "Meminta maaf", "due_on": "2026-11-28"},
			{"participant_id": victim, "action": "Mengikuti konseling", "due_on": "2026-12-05"}}}).Want(http.StatusCreated).JSON(&c)
		a := c.Agreements[0]
		s.bk.Do("PATCH", s.path()+"/agreements/"+itoa(a.ID), map[string]any{"items": []map[string]any{
			{"id": a.Items[0].ID, "status": "done", "notes": "Sudah"}}}).Want(http.StatusOK).JSON(&c)
		it := c.Agreements[0].Items[0]
		if it.Status != "done" || it.CheckedAt == nil || it.CheckedByName == "" || c.Agreements[0].Items[1].Status != "open" {
			t.Errorf("checked %+v", c.Agreements[0].Items)
		}
		e := s.bk.Do("POST", s.path()+"/recovery-actions", map[string]any{"participant_id": witness, "kind": "counselling", "planned_on": "2026-11-30"}).
			Want(http.StatusUnprocessableEntity).Err()
		if e.Error.FieldCodes["participant_id"].Code != "cases.recovery.not_victim" {
			t.Errorf("recovery for witness %+v", e.Error.FieldCodes)
		}
		s.bk.Do("POST", s.path()+"/recovery-actions", map[string]any{"participant_id": victim, "kind": "counselling", "planned_on": "2026-11-30"}).
			Want(http.StatusCreated).JSON(&c)
		if len(c.Recovery) != 1 || c.Recovery[0].PartyName != s.victimName {
			t.Errorf("recovery %+v", c.Recovery)
		}
	})
	t.Run("OKHiddenOutsideTeam", func(t *testing.T) {
		var m api.Case
		s.env.As(perm.BK).Do("GET", s.path(), nil).Want(http.StatusOK).JSON(&m)
		if len(m.Sessions)+len(m.Agreements)+len(m.Recovery) != 0 || len(m.Violations) != 1 {
			t.Errorf("manager sees sessions %d agreements %d recovery %d violations %d", len(m.Sessions), len(m.Agreements), len(m.Recovery), len(m.Violations))
		}
		s.waliA.Do("GET", s.path(), nil).Want(http.StatusOK).JSON(&m)
		if len(m.Sessions)+len(m.Agreements)+len(m.Recovery)+len(m.Violations) != 0 {
			t.Errorf("homeroom sees handling %+v", m)
		}
	})
}

// A session names one of the violations' handling types (optional, active
// only); the name stays with the session when the type is deleted later.
func TestSessionHandlingType(t *testing.T) {
	s := setup(t)
	var active, inactive int64
	must(t, s.env.DB.Get(&active, `INSERT INTO handling_types (name, sort_order) VALUES ('Mediasi uji', 90) RETURNING id`))
	must(t, s.env.DB.Get(&inactive, `INSERT INTO handling_types (name, sort_order, active) VALUES ('Lama uji', 91, false) RETURNING id`))
	var c api.Case
	s.bk.Do("GET", s.path(), nil).Want(http.StatusOK).JSON(&c)
	perp, victim := person(t, c, "terduga_pelaku"), person(t, c, "korban")
	body := func(typeID any) map[string]any {
		return map[string]any{"held_at": "2026-11-21T09:00", "participant_ids": []int64{perp, victim}, "handling_type_id": typeID}
	}
	for _, tc := range []struct {
		id   any
		code string
	}{{inactive, "cases.session.handling_type_inactive"}, {999999, "cases.session.handling_type_not_found"}, {-1, "cases.session.handling_type_not_found"}} {
		e := s.bk.Do("POST", s.path()+"/sessions", body(tc.id)).Want(http.StatusUnprocessableEntity).Err()
		if e.Error.FieldCodes["handling_type_id"].Code != tc.code {
			t.Errorf("type %v: %+v", tc.id, e.Error.FieldCodes)
		}
	}
	s.waliA.Do("POST", s.path()+"/sessions", body(active)).Want(http.StatusForbidden)
	if e := s.env.As(perm.BK).Do("POST", s.path()+"/sessions", body(active)).Want(http.StatusForbidden).Err(); e.Error.MessageCode != "cases.not_in_team" {
		t.Errorf("counselor outside the team: %+v", e.Error)
	}
	s.bk.Do("POST", s.path()+"/sessions", body(nil)).Want(http.StatusCreated)
	s.bk.Do("POST", s.path()+"/sessions", body(active)).Want(http.StatusCreated).JSON(&c)
	if len(c.Sessions) != 2 || c.Sessions[0].HandlingTypeID != nil || c.Sessions[0].HandlingTypeName != "" ||
		c.Sessions[1].HandlingTypeID == nil || *c.Sessions[1].HandlingTypeID != active || c.Sessions[1].HandlingTypeName != "Mediasi uji" {
		t.Fatalf("sessions %+v", c.Sessions)
	}
	s.admin.Do("DELETE", "/api/v1/handling-types/"+itoa(active), nil).Want(http.StatusNoContent)
	s.bk.Do("GET", s.path(), nil).Want(http.StatusOK).JSON(&c)
	if c.Sessions[1].HandlingTypeID != nil || c.Sessions[1].HandlingTypeName != "Mediasi uji" {
		t.Errorf("after the type's deletion %+v", c.Sessions[1])
	}
}
