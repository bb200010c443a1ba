package cases_test

import (
	"net/http"
	"strconv"
	"testing"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

type school struct {
	env                   *apitest.Env
	bk, admin             *apitest.Client
	waliA, waliB          *apitest.Client
	classA, classB        int64
	perp, victim, witness int64
	caseID                int64
	perpName, victimName  string
	witnessName           string
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// setup: a bullying case opened by a counselor with a perpetrator and a
// victim of class A, a witness of class B and the victim's mother.
func setup(t *testing.T) *school {
	t.Helper()
	env := apitest.New(t)
	s := &school{env: env, bk: env.As(perm.BK), admin: env.As(perm.Admin), waliA: env.As(perm.WaliKelas), waliB: env.As(perm.WaliKelas),
		perpName: "Andi Pelaku", victimName: "Budi Korban", witnessName: "Citra Saksi"}
	must(t, env.DB.Get(&s.classA, `INSERT INTO classes (name, grade, homeroom_teacher_id) VALUES ('X A', 10, $1) RETURNING id`, s.waliA.UserID))
	must(t, env.DB.Get(&s.classB, `INSERT INTO classes (name, grade, homeroom_teacher_id) VALUES ('X B', 10, $1) RETURNING id`, s.waliB.UserID))
	must(t, env.DB.Get(&s.perp, `INSERT INTO students (source_id, full_name, class_id) VALUES (1, $1, $2) RETURNING id`, s.perpName, s.classA))
	must(t, env.DB.Get(&s.victim, `INSERT INTO students (source_id, full_name, class_id) VALUES (2, $1, $2) RETURNING id`, s.victimName, s.classA))
	must(t, env.DB.Get(&s.witness, `INSERT INTO students (source_id, full_name, class_id) VALUES (3, $1, $2) RETURNING id`, s.witnessName, s.classB))
	var c api.Case
	s.bk.Do("POST", "/api/v1/cases", map[string]any{
		"title": "Perundungan di kantin", "occurred_at": "2026-11-20T10:15", "place": "Kantin", "description": "Rahasia: uraian kejadian",
		"category_id": 1, "source": "staff_finding",
		"participants": []map[string]any{
			{"kind": "student", "student_id": s.perp, "role": "terduga_pelaku"},
			{"kind": "student", "student_id": s.victim, "role": "korban"},
			{"kind": "student", "student_id": s.witness, "role": "saksi"},
			{"kind": "outsider", "name": "Ibu Budi", "relation": "orang tua korban"},
		},
	}).Want(http.StatusCreated).JSON(&c)
	s.caseID = c.ID
	if c.Level != api.CaseLevelFull || !c.CanEdit || len(c.People) != 4 || len(c.Stages) != 3 || len(c.Team) != 1 || c.Stage != api.CaseStageIdentification {
		t.Fatalf("created %+v", c)
	}
	return s
}

func (s *school) path() string { return "/api/v1/cases/" + itoa(s.caseID) }

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func names(c api.Case) map[string]string {
	out := map[string]string{}
	for _, p := range c.People {
		n := "<hidden>"
		if p.Name != nil {
			n = *p.Name
		}
		out[n] = p.Role + p.Relation
	}
	return out
}

func TestVisibility(t *testing.T) {
	s := setup(t)
	env := s.env

	t.Run("OKTeamSeesAll", func(t *testing.T) {
		var c api.Case
		s.bk.Do("GET", s.path(), nil).Want(http.StatusOK).JSON(&c)
		n := names(c)
		if n[s.victimName] != "korban" || n[s.witnessName] != "saksi" || n["Ibu Budi"] != "orang tua korban" || c.Description == nil || *c.Description == "" {
			t.Errorf("team sees %v, description %v", n, c.Description)
		}
		if c.Stages[0].Notes == nil {
			t.Error("team sees no stage notes")
		}
	})
	t.Run("OKManagerOutsideTeamRedacted", func(t *testing.T) {
		bk2 := env.As(perm.BK)
		var c api.Case
		bk2.Do("GET", s.path(), nil).Want(http.StatusOK).JSON(&c)
		n := names(c)
		if c.Level != api.CaseLevelManaged || c.Description != nil || c.CanEdit || n[s.perpName] != "terduga_pelaku" || len(n) != 2 {
			t.Errorf("manager sees level %s %v, description %v", c.Level, n, c.Description)
		}
		for _, p := range c.People {
			if p.Role != api.CaseRoleSuspect && (p.StudentID != nil || p.ClassName != "") {
				t.Errorf("manager sees %+v", p)
			}
		}
		if c.Stages[0].Notes != nil {
			t.Error("manager sees stage notes")
		}
		e := bk2.Do("PATCH", s.path(), map[string]any{"classification": "school_rule"}).Want(http.StatusForbidden).Err()
		if e.Error.Code != "forbidden" {
			t.Errorf("patch by manager outside team: %+v", e)
		}
	})
	t.Run("OKHomeroomOwnStudentsOnly", func(t *testing.T) {
		var c api.Case
		s.waliA.Do("GET", s.path(), nil).Want(http.StatusOK).JSON(&c)
		n := names(c)
		if c.Level != api.CaseLevelHomeroom || len(n) != 2 || n[s.perpName] != "terduga_pelaku" || n[s.victimName] != "korban" || c.Title != "" || c.Description != nil {
			t.Errorf("homeroom A sees %+v %v", c.CaseSummary, n)
		}
		s.waliB.Do("GET", s.path(), nil).Want(http.StatusOK).JSON(&c)
		if n := names(c); len(n) != 1 || n[s.witnessName] != "saksi" {
			t.Errorf("homeroom B sees %v", n)
		}
		var page api.Page[api.CaseSummary]
		s.waliB.Do("GET", "/api/v1/cases", nil).Want(http.StatusOK).JSON(&page)
		if len(page.Data) != 1 || page.Data[0].Participants != 1 {
			t.Errorf("homeroom B list %+v", page.Data)
		}
		other := env.As(perm.WaliKelas)
		other.Do("GET", s.path(), nil).Want(http.StatusNotFound)
		other.Do("GET", "/api/v1/cases", nil).Want(http.StatusOK).JSON(&page)
		if len(page.Data) != 0 {
			t.Errorf("homeroom of no student sees %+v", page.Data)
		}
	})
	t.Run("OKHomeroomInTeamSeesAll", func(t *testing.T) {
		s.bk.Do("PATCH", s.path(), map[string]any{"team": []int64{s.bk.UserID, s.waliB.UserID}}).Want(http.StatusOK)
		var c api.Case
		s.waliB.Do("GET", s.path(), nil).Want(http.StatusOK).JSON(&c)
		if c.Level != api.CaseLevelFull || len(c.People) != 4 || c.CanEdit {
			t.Errorf("homeroom in team: level %s, %d people, can_edit %v", c.Level, len(c.People), c.CanEdit)
		}
	})
	t.Run("OKPrincipalCountsOnly", func(t *testing.T) {
		head := env.As(perm.KepalaSekolah)
		head.Do("GET", s.path(), nil).Want(http.StatusNotFound)
		var page api.Page[api.CaseSummary]
		head.Do("GET", "/api/v1/cases", nil).Want(http.StatusOK).JSON(&page)
		if len(page.Data) != 0 {
			t.Errorf("principal lists %+v", page.Data)
		}
		var counts api.CaseCounts
		head.Do("GET", "/api/v1/cases/counts", nil).Want(http.StatusOK).JSON(&counts)
		if counts.Total != 1 || counts.Open != 1 || counts.ByStage[0].Key != "identification" || counts.ByStage[0].Count != 1 ||
			len(counts.ByClass) != 2 || counts.ByCategory[0].Count != 1 {
			t.Errorf("counts %+v", counts)
		}
	})
	t.Run("ErrForbidden", func(t *testing.T) {
		staff := env.As(perm.Staff)
		staff.Do("GET", "/api/v1/cases", nil).Want(http.StatusForbidden)
		staff.Do("GET", "/api/v1/cases/counts", nil).Want(http.StatusForbidden)
		s.waliA.Do("POST", "/api/v1/cases", map[string]any{}).Want(http.StatusForbidden)
		s.waliA.Do("POST", s.path()+"/stage", map[string]any{"to": "handling"}).Want(http.StatusForbidden)
		s.bk.Do("GET", s.path()+"/access-log", nil).Want(http.StatusForbidden)
	})
	t.Run("OKAccessLogShowsEachRead", func(t *testing.T) {
		var log []api.CaseAccess
		s.admin.Do("GET", s.path()+"/access-log", nil).Want(http.StatusOK).JSON(&log)
		seen := map[string]bool{}
		for _, e := range log {
			seen[e.What+"/"+e.Level] = true
		}
		for _, want := range []string{"create/full", "view/full", "view/managed", "view/homeroom", "list/homeroom", "access_log/full"} {
			if !seen[want] {
				t.Errorf("access log lacks %s: %v", want, seen)
			}
		}
		if log[0].What != "access_log" || log[0].UserID == nil || *log[0].UserID != s.admin.UserID {
			t.Errorf("newest entry %+v", log[0])
		}
	})
}

func TestStages(t *testing.T) {
	s := setup(t)
	stage := func(to string, want int) api.Case {
		var c api.Case
		r := s.bk.Do("POST", s.path()+"/stage", map[string]any{"to": to, "notes": "catatan " + to}).Want(want)
		if want == http.StatusOK {
			r.JSON(&c)
		}
		return c
	}
	e := s.bk.Do("POST", s.path()+"/stage", map[string]any{"to": "handling"}).Want(http.StatusUnprocessableEntity).Err()
	if e.Error.FieldCodes["to"].Code != "cases.stage.classify_first" {
		t.Errorf("unclassified: %+v", e.Error.FieldCodes)
	}
	e = s.bk.Do("PATCH", s.path(), map[string]any{"classification": "pidana"}).Want(http.StatusUnprocessableEntity).Err()
	if e.Error.FieldCodes["classification"].Code != "cases.classification.choose" {
		t.Errorf("bad classification: %+v", e.Error.FieldCodes)
	}
	s.bk.Do("PATCH", s.path(), map[string]any{"classification": "school_rule",
		"stages": []map[string]any{{"stage": "handling", "due_on": "2026-12-31"}}}).Want(http.StatusOK)
	e = s.bk.Do("POST", s.path()+"/stage", map[string]any{"to": "conclusions"}).Want(http.StatusUnprocessableEntity).Err()
	if e.Error.FieldCodes["to"].Code != "cases.stage.not_next" {
		t.Errorf("skip: %+v", e.Error.FieldCodes)
	}
	c := stage("handling", http.StatusOK)
	if c.Stage != api.CaseStageHandling || c.Stages[0].CompletedAt == nil || *c.Stages[0].Notes != "catatan handling" || c.Stages[1].DueOn != "2026-12-31" || c.Stages[1].StartedAt == nil {
		t.Errorf("after handling %+v", c.Stages)
	}
	stage("conclusions", http.StatusOK)
	if c = stage("closed", http.StatusOK); c.Stage != api.CaseStageClosed || c.CanEdit != true {
		t.Errorf("closed %+v", c.CaseSummary)
	}
	s.bk.Do("PATCH", s.path(), map[string]any{"title": "baru"}).Want(http.StatusConflict)
	s.bk.Do("POST", s.path()+"/participants", map[string]any{"kind": "student", "student_id": s.perp, "role": "saksi"}).Want(http.StatusConflict)
	var n int
	must(t, s.env.DB.Get(&n, `SELECT count(*) FROM audit_log WHERE action = 'case.stage' AND entity_id = $1`, itoa(s.caseID)))
	if n != 3 {
		t.Errorf("%d stage audits", n)
	}
}

func TestInput(t *testing.T) {
	s := setup(t)
	e := s.bk.Do("POST", "/api/v1/cases", map[string]any{"title": " ", "occurred_at": "2099-01-01T10:00", "category_id": 999, "source": "rumor",
		"participants": []map[string]any{{"kind": "student", "student_id": s.perp, "role": "dalang"}, {"kind": "outsider"}}}).
		Want(http.StatusUnprocessableEntity).Err()
	want := map[string]string{"title": "cases.title.required", "occurred_at": "cases.occurred_at.future", "source": "cases.source.choose",
		"participants.0.role": "cases.participant.role_choose", "participants.1.name": "cases.participant.name_required"}
	for f, code := range want {
		if e.Error.FieldCodes[f].Code != code {
			t.Errorf("%s: %q, want %q", f, e.Error.FieldCodes[f].Code, code)
		}
	}
	e = s.bk.Do("POST", s.path()+"/participants", map[string]any{"kind": "student", "student_id": 99999, "role": "saksi"}).Want(http.StatusUnprocessableEntity).Err()
	if e.Error.FieldCodes["student_id"].Code != "cases.participant.student_not_found" {
		t.Errorf("unknown student: %+v", e.Error.FieldCodes)
	}
	s.bk.Do("POST", s.path()+"/participants", map[string]any{"kind": "student", "student_id": s.victim, "role": "korban"}).Want(http.StatusConflict)
	var c api.Case
	s.bk.Do("POST", s.path()+"/participants", map[string]any{"kind": "staff", "user_id": s.waliA.UserID, "relation": "wali kelas"}).Want(http.StatusCreated).JSON(&c)
	if len(c.People) != 5 {
		t.Errorf("%d people", len(c.People))
	}
}

func TestCategoriesAndSettings(t *testing.T) {
	s := setup(t)
	var cat api.CaseCategory
	s.bk.Do("POST", "/api/v1/case-categories", map[string]any{"name": "Perundungan siber"}).Want(http.StatusCreated).JSON(&cat)
	s.bk.Do("POST", "/api/v1/case-categories", map[string]any{"name": "perundungan SIBER"}).Want(http.StatusConflict)
	s.waliA.Do("POST", "/api/v1/case-categories", map[string]any{"name": "X"}).Want(http.StatusForbidden)
	s.bk.Do("PATCH", "/api/v1/case-categories/"+itoa(cat.ID), map[string]any{"active": false}).Want(http.StatusOK)
	e := s.bk.Do("POST", "/api/v1/cases", map[string]any{"title": "T", "occurred_at": "2026-11-20T10:00", "category_id": cat.ID, "source": "report"}).
		Want(http.StatusUnprocessableEntity).Err()
	if e.Error.FieldCodes["category_id"].Code != "cases.category.not_found" {
		t.Errorf("inactive category: %+v", e.Error.FieldCodes)
	}

	s.bk.Do("PUT", "/api/v1/settings/cases", map[string]any{"identification_days": 2, "handling_days": 5, "conclusions_days": 1}).Want(http.StatusForbidden)
	s.admin.Do("PUT", "/api/v1/settings/cases", map[string]any{"identification_days": 0, "handling_days": 5, "conclusions_days": 1}).Want(http.StatusUnprocessableEntity)
	s.admin.Do("PUT", "/api/v1/settings/cases", map[string]any{"identification_days": 2, "handling_days": 5, "conclusions_days": 1}).Want(http.StatusOK)
	var c api.Case
	s.bk.Do("POST", "/api/v1/cases", map[string]any{"title": "T", "occurred_at": "2026-11-20T10:00", "category_id": 1, "source": "report"}).
		Want(http.StatusCreated).JSON(&c)
	var days []int
	must(t, s.env.DB.Select(&days, `SELECT due_on - current_date FROM case_stages WHERE case_id = $1 ORDER BY due_on`, c.ID))
	// Today in Jakarta may be tomorrow in UTC: the differences are what the settings say.
	if len(days) != 3 || days[1]-days[0] != 5 || days[2]-days[1] != 1 {
		t.Errorf("due dates %v", days)
	}
}
