package pointspolicy_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/pointspolicy"
	"github.com/tatib/tatib/server/internal/violationtype"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

var jakarta, _ = time.LoadLocation("Asia/Jakarta")

type school struct {
	env      *apitest.Env
	bk, wali *apitest.Client
	students []int64
	t60      int64
	achType  int64
}

func newSchool(t *testing.T, n int) *school {
	t.Helper()
	env := apitest.New(t)
	must(t, violationtype.Boot(context.Background(), env.Deps))
	s := &school{env: env, bk: env.As(perm.BK), wali: env.As(perm.WaliKelas)}
	var class int64
	must(t, env.DB.Get(&class, `INSERT INTO classes (name, grade, homeroom_teacher_id) VALUES ('XI A', 11, $1) RETURNING id`, s.wali.UserID))
	for i := range n {
		var id int64
		must(t, env.DB.Get(&id, `INSERT INTO students (source_id, nisn, nis, full_name, class_id) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
			700+i, fmt.Sprintf("77%08d", i), fmt.Sprint(700+i), fmt.Sprintf("Siswa %d", i), class))
		s.students = append(s.students, id)
	}
	must(t, env.DB.Get(&s.t60, `INSERT INTO violation_types (name, slug, points, category_id) VALUES ('Berkelahi', 'berkelahi', 60,
		(SELECT id FROM violation_categories ORDER BY id LIMIT 1)) RETURNING id`))
	must(t, env.DB.Get(&s.achType, `INSERT INTO achievement_types (category_id, name, points_provinsi) VALUES
		((SELECT id FROM achievement_categories WHERE name = 'Akademik'), 'Lomba Debat', 40) RETURNING id`))
	return s
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func (s *school) violation(t *testing.T, student int64, at time.Time) {
	t.Helper()
	s.bk.Do("POST", "/api/v1/violations", map[string]any{"student_id": student, "type_ids": []int64{s.t60}, "occurred_at": at}).Want(201)
}

func (s *school) total(t *testing.T, student int64) int {
	t.Helper()
	var p api.StudentPoints
	s.bk.Do("GET", fmt.Sprintf("/api/v1/students/%d/points", student), nil).Want(200).JSON(&p)
	return p.Total
}

func (s *school) policy(t *testing.T, p map[string]any) {
	t.Helper()
	s.bk.Do("PUT", "/api/v1/points-policy", p).Want(200)
}

func TestPolicySettings(t *testing.T) {
	s := newSchool(t, 0)
	var p api.PointsPolicy
	s.wali.Do("GET", "/api/v1/points-policy", nil).Want(200).JSON(&p)
	if p.Mode != "none" || p.UpdatedAt != nil {
		t.Fatalf("default %+v", p)
	}
	body := map[string]any{"mode": "offset", "offset_cap_percent": 0, "amnesty_clean_school_days": 30, "amnesty_points": 10}
	if e := s.bk.Do("PUT", "/api/v1/points-policy", body).Want(422).Err(); e.Error.FieldCodes["offset_cap_percent"].Code != "pointspolicy.cap.range" {
		t.Fatalf("%+v", e)
	}
	body["offset_cap_percent"] = 50
	s.wali.Do("PUT", "/api/v1/points-policy", body).Want(403)
	s.bk.Do("PUT", "/api/v1/points-policy", body).Want(200).JSON(&p)
	if p.Mode != "offset" || p.OffsetCapPercent != 50 || p.UpdatedAt == nil {
		t.Fatalf("saved %+v", p)
	}
}

// A counselor records a team's provincial win (40 points) for three
// students and verifies it. Under offset at 50%: each total of 60 falls by
// min(40, 30) = 30, with a point-audit entry naming the policy; the open
// SP 1 letter of the first is withdrawn by the ledger, the delivered one
// of the second stays delivered and is marked fallen.
func TestOffset(t *testing.T) {
	s := newSchool(t, 3)
	now := time.Now()
	for _, id := range s.students {
		s.violation(t, id, now.Add(-time.Hour))
	}
	_, err := s.env.DB.Exec(`UPDATE warning_letters SET status = 'delivered' WHERE student_id = $1`, s.students[1])
	must(t, err)
	s.policy(t, map[string]any{"mode": "offset", "offset_cap_percent": 50, "amnesty_clean_school_days": 30, "amnesty_points": 10})
	var a api.Achievement
	s.bk.Do("POST", "/api/v1/achievements", map[string]any{"student_ids": s.students, "type_id": s.achType, "level": "provinsi",
		"achieved_on": now.In(jakarta).Format(time.DateOnly)}).Want(201).JSON(&a)
	if got := s.total(t, s.students[0]); got != 60 {
		t.Fatalf("an unverified achievement changed the total: %d", got)
	}
	s.bk.Do("POST", fmt.Sprintf("/api/v1/achievements/%d/verify", a.ID), nil).Want(200)
	s.bk.Do("POST", fmt.Sprintf("/api/v1/achievements/%d/verify", a.ID), nil).Want(200) // once
	for _, id := range s.students {
		if got := s.total(t, id); got != 30 {
			t.Fatalf("student %d: total %d, want 30", id, got)
		}
	}
	var years struct {
		Data []struct {
			Total int `json:"total"`
		} `json:"data"`
	}
	s.bk.Do("GET", fmt.Sprintf("/api/v1/students/%d/years", s.students[0]), nil).Want(200).JSON(&years)
	if len(years.Data) != 1 || years.Data[0].Total != 30 {
		t.Fatalf("the year's record %+v", years)
	}
	var audit []struct {
		Action  string          `db:"action"`
		Before  int             `db:"points_before"`
		After   int             `db:"points_after"`
		Details json.RawMessage `db:"details"`
	}
	must(t, s.env.DB.Select(&audit, `SELECT action, points_before, points_after, details FROM point_audit WHERE action = 'offset' ORDER BY id`))
	var d struct {
		Policy        string `json:"policy"`
		AchievementID int64  `json:"achievement_id"`
	}
	if len(audit) != 3 || audit[0].Before != 60 || audit[0].After != 30 || json.Unmarshal(audit[0].Details, &d) != nil ||
		d.Policy != "offset" || d.AchievementID != a.ID {
		t.Fatalf("point audit %+v", audit)
	}
	var letters []struct {
		Student int64  `db:"student_id"`
		Status  string `db:"status"`
		Fallen  bool   `db:"fallen"`
	}
	must(t, s.env.DB.Select(&letters, `SELECT student_id, status, total_fallen_at IS NOT NULL AS fallen FROM warning_letters
		WHERE student_id = ANY(ARRAY[$1, $2]::bigint[]) ORDER BY student_id`, s.students[0], s.students[1]))
	if len(letters) != 2 || letters[0].Status != "withdrawn" || letters[1].Status != "delivered" || !letters[1].Fallen {
		t.Fatalf("letters %+v", letters)
	}
	// The letter states the policy in force.
	var letterID int64
	must(t, s.env.DB.Get(&letterID, `SELECT id FROM warning_letters WHERE student_id = $1`, s.students[1]))
	pdf := s.bk.Do("GET", fmt.Sprintf("/api/v1/warning-letters/%d/pdf", letterID), nil).Want(200).Body
	if text := pdfText(t, pdf); !strings.Contains(strings.Join(strings.Fields(text), " "), "Kebijakan poin yang berlaku: imbangan prestasi") {
		t.Fatalf("the letter does not state the policy:\n%s", text)
	}
}

// pdfText is pdftotext's reading of pdf.
func pdfText(t *testing.T, pdf []byte) string {
	t.Helper()
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext not installed (poppler-utils)")
	}
	path := filepath.Join(t.TempDir(), "x.pdf")
	must(t, os.WriteFile(path, pdf, 0o600))
	out, err := exec.Command("pdftotext", "-enc", "UTF-8", path, "-").CombinedOutput()
	if err != nil {
		t.Fatalf("pdftotext: %v: %s", err, out)
	}
	return string(out)
}

// Under amnesty (3 clean school days, 10 points) a student whose last
// violation is followed by three school days gets the reduction once; a
// student with a violation since gets none.
func TestAmnesty(t *testing.T) {
	s := newSchool(t, 2)
	now := time.Now()
	day := now.In(jakarta).AddDate(0, 0, -5)
	s.violation(t, s.students[0], day)
	s.violation(t, s.students[1], day)
	s.violation(t, s.students[1], now.Add(-time.Minute))
	for i := 1; i <= 3; i++ {
		_, err := s.env.DB.Exec(`INSERT INTO attendance_days (student_id, date, h) VALUES ($1, $2, 1)`, s.students[0],
			day.AddDate(0, 0, i).Format(time.DateOnly))
		must(t, err)
	}
	if n, err := pointspolicy.Sweep(context.Background(), s.env.DB, now); err != nil || n != 0 {
		t.Fatalf("under none: %d, %v", n, err)
	}
	s.policy(t, map[string]any{"mode": "amnesty", "offset_cap_percent": 50, "amnesty_clean_school_days": 3, "amnesty_points": 10})
	for i, want := range []int{1, 0} {
		n, err := pointspolicy.Sweep(context.Background(), s.env.DB, now)
		if err != nil || n != want {
			t.Fatalf("sweep %d: %d, %v; want %d", i, n, err, want)
		}
	}
	if a, b := s.total(t, s.students[0]), s.total(t, s.students[1]); a != 50 || b != 120 {
		t.Fatalf("totals %d, %d", a, b)
	}
	var policy string
	must(t, s.env.DB.Get(&policy, `SELECT details->>'policy' FROM point_audit WHERE action = 'amnesty'`))
	if policy != "amnesty" {
		t.Fatalf("point audit names %q", policy)
	}
}

// The simulator: SP 1 moved from 50 to 60 sends the student at 55 back
// below it; draft type points do the same; nothing is written.
func TestSimulate(t *testing.T) {
	s := newSchool(t, 2)
	var t55 int64
	must(t, s.env.DB.Get(&t55, `INSERT INTO violation_types (name, slug, points, category_id) VALUES ('Membolos', 'membolos', 55,
		(SELECT id FROM violation_categories ORDER BY id LIMIT 1)) RETURNING id`))
	now := time.Now()
	s.violation(t, s.students[0], now.Add(-time.Hour))
	s.bk.Do("POST", "/api/v1/violations", map[string]any{"student_id": s.students[1], "type_ids": []int64{t55}, "occurred_at": now.Add(-time.Hour)}).Want(201)
	var audits int
	must(t, s.env.DB.Get(&audits, `SELECT count(*) FROM audit_log`))

	draft := map[string]any{"thresholds": []map[string]any{{"level": 1, "name": "SP 1", "min_points": 60}, {"level": 2, "name": "SP 2", "min_points": 100},
		{"level": 3, "name": "SP 3", "min_points": 150}}}
	var res api.SimulateResponse
	s.bk.Do("POST", "/api/v1/points-policy/simulate", draft).Want(200).JSON(&res)
	if res.Students != 2 || res.Levels[1].Today != 2 || res.Levels[1].Draft != 1 || res.Levels[0].Draft != 1 ||
		len(res.Changes) != 1 || res.Changes[0].StudentID != s.students[1] || res.Changes[0].Change != "fell_back" ||
		len(res.Classes) != 1 || res.Classes[0].FellBack != 1 || res.Note == "" {
		t.Fatalf("%+v", res)
	}
	s.bk.Do("POST", "/api/v1/points-policy/simulate", map[string]any{"type_points": []map[string]any{{"type_id": t55, "points": 40}}}).Want(200).JSON(&res)
	if len(res.Changes) != 1 || res.Changes[0].DraftTotal != 40 {
		t.Fatalf("type points: %+v", res.Changes)
	}
	bad := map[string]any{"thresholds": []map[string]any{{"level": 1, "min_points": 60}, {"level": 2, "min_points": 50}}}
	s.bk.Do("POST", "/api/v1/points-policy/simulate", bad).Want(422)
	s.wali.Do("POST", "/api/v1/points-policy/simulate", draft).Want(403)

	var after, sp1 int
	must(t, s.env.DB.Get(&after, `SELECT count(*) FROM audit_log`))
	must(t, s.env.DB.Get(&sp1, `SELECT min_points FROM sp_thresholds WHERE level = 1`))
	if after != audits || sp1 != 50 {
		t.Fatalf("the simulator wrote: audit %d → %d, SP 1 at %d", audits, after, sp1)
	}
}

// Net totals (student_year_points): under offset, the early warnings, the
// dashboard's nearest-level list and the recap report read the year total
// less the reductions, as the ledger does. A at 95 (5 before SP 2) falls to
// 55 and leaves the early warnings; B at 105 (SP 2 reached, next SP 3)
// falls to 65, below SP 2, which is their next level again.
func TestNetTotals(t *testing.T) {
	s := newSchool(t, 2)
	a, b := s.students[0], s.students[1]
	typ := func(name string, points int) int64 {
		var id int64
		must(t, s.env.DB.Get(&id, `INSERT INTO violation_types (name, slug, points, category_id) VALUES ($1, $1, $2,
			(SELECT id FROM violation_categories ORDER BY id LIMIT 1)) RETURNING id`, name, points))
		return id
	}
	now := time.Now()
	s.bk.Do("POST", "/api/v1/violations", map[string]any{"student_id": a, "type_ids": []int64{s.t60, typ("t35", 35)}, "occurred_at": now.Add(-time.Hour)}).Want(201)
	s.bk.Do("POST", "/api/v1/violations", map[string]any{"student_id": b, "type_ids": []int64{s.t60, typ("t45", 45)}, "occurred_at": now.Add(-time.Hour)}).Want(201)

	type near struct{ points, level, toGo int }
	look := func() (map[int64]near, map[int64]near) {
		var ew api.EarlyWarningPage
		s.bk.Do("GET", "/api/v1/early-warnings", nil).Want(200).JSON(&ew)
		warned := map[int64]near{}
		for _, w := range ew.Data {
			if w.Kind == "near_level" {
				warned[w.StudentID] = near{*w.Points, *w.NextLevel, *w.PointsToNext}
			}
		}
		var d api.Dashboard
		s.bk.Do("GET", "/api/v1/dashboard", nil).Want(200).JSON(&d)
		listed := map[int64]near{}
		for _, n := range d.Violations.NearestSP {
			listed[n.StudentID] = near{n.Points, n.NextLevel, n.PointsToGo}
		}
		return warned, listed
	}
	warned, listed := look()
	if warned[a] != (near{95, 2, 5}) || listed[b] != (near{105, 3, 45}) {
		t.Fatalf("before: warned %v, listed %v", warned, listed)
	}

	s.policy(t, map[string]any{"mode": "offset", "offset_cap_percent": 50, "amnesty_clean_school_days": 30, "amnesty_points": 10})
	var ach api.Achievement
	s.bk.Do("POST", "/api/v1/achievements", map[string]any{"student_ids": s.students, "type_id": s.achType, "level": "provinsi",
		"achieved_on": now.In(jakarta).Format(time.DateOnly)}).Want(201).JSON(&ach)
	s.bk.Do("POST", fmt.Sprintf("/api/v1/achievements/%d/verify", ach.ID), nil).Want(200)

	warned, listed = look()
	if _, ok := warned[a]; ok || listed[a] != (near{55, 2, 45}) || listed[b] != (near{65, 2, 35}) {
		t.Fatalf("after: warned %v, listed %v", warned, listed)
	}
	day := now.In(jakarta).Format(time.DateOnly)
	var rep api.ViolationRecap
	s.bk.Do("GET", "/api/v1/reports/violation-recap?from="+now.In(jakarta).AddDate(0, 0, -1).Format(time.DateOnly)+"&to="+day, nil).Want(200).JSON(&rep)
	got := map[int64][3]int{}
	for _, r := range rep.Students {
		got[r.StudentID] = [3]int{r.Points, r.YearGross, r.YearTotal}
	}
	if got[a] != [3]int{95, 95, 55} || got[b] != [3]int{105, 105, 65} {
		t.Fatalf("report rows %v", got)
	}
	pdf := s.bk.Do("GET", "/api/v1/reports/violation-recap.pdf?from="+now.In(jakarta).AddDate(0, 0, -1).Format(time.DateOnly)+"&to="+day, nil).Want(200).Body
	if text := strings.Join(strings.Fields(pdfText(t, pdf)), " "); !strings.Contains(text, "Poin TA (kotor)") ||
		!strings.Contains(text, "Total TA (bersih)") || !strings.Contains(text, "95 95 55") || !strings.Contains(text, "105 105 65") {
		t.Fatalf("the report PDF lacks the year's gross and net totals:\n%s", text)
	}
}

// The draft policy carries its own numbers: an offset capped at 50 % sends
// students at 60 with a verified 40-point achievement below SP 1 (60 → 30),
// one capped at 10 % does not (60 → 54); bad numbers are field errors under
// "policy."; nothing is saved.
func TestSimulateDraftNumbers(t *testing.T) {
	s := newSchool(t, 2)
	now := time.Now()
	for _, id := range s.students {
		s.violation(t, id, now.Add(-time.Hour))
	}
	var a api.Achievement
	s.bk.Do("POST", "/api/v1/achievements", map[string]any{"student_ids": s.students, "type_id": s.achType, "level": "provinsi",
		"achieved_on": now.In(jakarta).Format(time.DateOnly)}).Want(201).JSON(&a)
	s.bk.Do("POST", fmt.Sprintf("/api/v1/achievements/%d/verify", a.ID), nil).Want(200)
	var audits int
	must(t, s.env.DB.Get(&audits, `SELECT count(*) FROM audit_log`))

	sim := func(cap int) api.SimulateResponse {
		var res api.SimulateResponse
		s.bk.Do("POST", "/api/v1/points-policy/simulate", map[string]any{"policy": map[string]any{"mode": "offset",
			"offset_cap_percent": cap, "amnesty_clean_school_days": 30, "amnesty_points": 10}}).Want(200).JSON(&res)
		return res
	}
	if res := sim(50); len(res.Changes) != 2 || res.Changes[0].DraftTotal != 30 || res.Levels[0].Draft != 2 {
		t.Fatalf("cap 50: %+v", res)
	}
	if res := sim(10); len(res.Changes) != 0 || res.Levels[1].Draft != 2 {
		t.Fatalf("cap 10: %+v", res)
	}
	e := s.bk.Do("POST", "/api/v1/points-policy/simulate", map[string]any{"policy": map[string]any{"mode": "amnesty",
		"offset_cap_percent": 0, "amnesty_clean_school_days": 30, "amnesty_points": 100000}}).Want(422).Err()
	if e.Error.Fields["policy.offset_cap_percent"] == "" || e.Error.Fields["policy.amnesty_points"] == "" || e.Error.Fields["policy.amnesty_clean_school_days"] != "" {
		t.Fatalf("fields %v", e.Error.Fields)
	}

	var after, saved int
	must(t, s.env.DB.Get(&after, `SELECT count(*) FROM audit_log`))
	must(t, s.env.DB.Get(&saved, `SELECT count(*) FROM settings WHERE key = $1`, pointspolicy.SettingsKey))
	if after != audits || saved != 0 || s.total(t, s.students[0]) != 60 {
		t.Fatalf("the simulator wrote: audit %d → %d, policy rows %d", audits, after, saved)
	}
}
