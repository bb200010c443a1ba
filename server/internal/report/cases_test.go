package report_test

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tatib/tatib/server/internal/violation/vltest"
	"github.com/tatib/tatib/shared/api"
)

// The cases section: the period's cases (Asia/Jakarta days) counted by
// category, stage, classification and referral — for cases.view_counts on
// the whole school's report only, and never a title or a name.
func TestCasesSection(t *testing.T) {
	need(t, "pdftotext")
	s := vltest.New(t)
	s.Env.DB.MustExec(`INSERT INTO cases (title, occurred_at, category_id, source, classification, stage) VALUES
		('Judul Rahasia Satu', '2026-11-10 10:00+07', 1, 'staff_finding', 'suspected_law', 'handling'),
		('Judul Rahasia Dua', '2026-11-30 23:30+07', 2, 'anonymous_report', '', 'identification'),
		('Judul Desember', '2026-12-01 00:30+07', 1, 'staff_finding', 'school_rule', 'closed')`)
	s.Env.DB.MustExec(`INSERT INTO case_referrals (case_id, sent_to, sent_on) SELECT id, 'Pokja Kota', '2026-11-12' FROM cases WHERE title = 'Judul Rahasia Satu'`)
	count := func(rows []api.CaseCount, key string) int {
		for _, r := range rows {
			if r.Key == key {
				return r.Count
			}
		}
		return -1
	}
	res := s.BK.Do("GET", "/api/v1/reports/violation-recap?month=2026-11", nil).Want(http.StatusOK)
	var r api.ViolationRecap
	res.JSON(&r)
	c := r.Cases
	if c == nil || c.Total != 2 || c.Referred != 1 || count(c.ByCategory, "1") != 1 || count(c.ByCategory, "2") != 1 ||
		count(c.ByStage, "handling") != 1 || count(c.ByStage, "identification") != 1 || count(c.ByStage, "closed") != 0 ||
		count(c.ByClassification, "suspected_law") != 1 || count(c.ByClassification, "") != 1 || count(c.ByClassification, "school_rule") != 0 {
		t.Fatalf("cases %+v", c)
	}
	if strings.Contains(string(res.Body), "Rahasia") {
		t.Error("the report names a case")
	}
	// A class's report has none (a few cases in one class point at its
	// children), nor has a homeroom teacher's (no cases.view_counts).
	if r := get(t, s.BK, fmt.Sprintf("month=2026-11&class_id=%d", s.ClassA)); r.Cases != nil {
		t.Errorf("a class report counts cases: %+v", r.Cases)
	}
	if r := get(t, s.TeacherA, "month=2026-11"); r.Cases != nil {
		t.Errorf("a homeroom teacher sees case counts: %+v", r.Cases)
	}

	pdf := func(body []byte) string {
		t.Helper()
		file := filepath.Join(t.TempDir(), "rekap.pdf")
		if err := os.WriteFile(file, body, 0o600); err != nil {
			t.Fatal(err)
		}
		if png := os.Getenv("REPORT_PNG"); png != "" {
			if err := exec.Command("pdftoppm", "-png", "-r", "60", file, png+"-cases").Run(); err != nil {
				t.Fatal(err)
			}
		}
		out, err := exec.Command("pdftotext", "-layout", file, "-").Output()
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	got := pdf(s.BK.Do("GET", "/api/v1/reports/violation-recap.pdf?month=2026-11", nil).Want(http.StatusOK).Body)
	for _, want := range []string{"D. Kasus (jumlah saja)", "Dirujuk ke Pokja", "Dugaan pelanggaran peraturan perundang-undangan", "Belum diklasifikasikan",
		"Identifikasi dan klasifikasi", "Semua kasus dalam periode"} {
		if !strings.Contains(got, want) {
			t.Errorf("the PDF lacks %q", want)
		}
	}
	if strings.Contains(got, "Rahasia") {
		t.Error("the PDF names a case")
	}
	if got := pdf(s.TeacherA.Do("GET", "/api/v1/reports/violation-recap.pdf?month=2026-11", nil).Want(http.StatusOK).Body); strings.Contains(got, "D. Kasus") {
		t.Error("the homeroom teacher's PDF has the cases section")
	}
}
