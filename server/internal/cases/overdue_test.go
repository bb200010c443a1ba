package cases_test

import (
	"net/http"
	"testing"

	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

func TestOverdueAndDashboard(t *testing.T) {
	s := setup(t)
	s.bk.Do("PATCH", s.path(), map[string]any{"stages": []map[string]any{{"stage": "identification", "due_on": "2026-01-05"}}}).Want(http.StatusOK)

	var ew api.EarlyWarningPage
	s.bk.Do("GET", "/api/v1/early-warnings", nil).Want(http.StatusOK).JSON(&ew)
	if len(ew.CaseStagesOverdue) != 1 || !ew.CaseStagesOverdue[0].Overdue || ew.CaseStagesOverdueCount == nil || *ew.CaseStagesOverdueCount != 1 {
		t.Errorf("counselor: %+v count %v", ew.CaseStagesOverdue, ew.CaseStagesOverdueCount)
	}
	s.waliA.Do("GET", "/api/v1/early-warnings", nil).Want(http.StatusOK).JSON(&ew)
	if len(ew.CaseStagesOverdue) != 1 || ew.CaseStagesOverdue[0].Title != "" || ew.CaseStagesOverdueCount != nil {
		t.Errorf("homeroom: %+v count %v", ew.CaseStagesOverdue, ew.CaseStagesOverdueCount)
	}
	head := s.env.As(perm.KepalaSekolah)
	head.Do("GET", "/api/v1/early-warnings", nil).Want(http.StatusOK).JSON(&ew)
	if len(ew.CaseStagesOverdue) != 0 || ew.CaseStagesOverdueCount == nil || *ew.CaseStagesOverdueCount != 1 {
		t.Errorf("principal: %+v count %v", ew.CaseStagesOverdue, ew.CaseStagesOverdueCount)
	}

	var d api.Dashboard
	head.Do("GET", "/api/v1/dashboard", nil).Want(http.StatusOK).JSON(&d)
	if d.Cases == nil || d.Cases.Total != 1 || d.Cases.Overdue != 1 || len(d.Cases.ByClass) != 2 {
		t.Errorf("principal dashboard cases %+v", d.Cases)
	}
	s.waliA.Do("GET", "/api/v1/dashboard", nil).Want(http.StatusOK).JSON(&d)
	if d.Cases != nil {
		t.Errorf("homeroom dashboard shows school-wide case counts %+v", d.Cases)
	}
}
