package portal_test

import (
	"strings"
	"testing"

	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// The child's page carries their verified achievements only: not one
// waiting for a counselor, not another child's; the school may hide them.
// A child with no attendance yet has an all-zero summary (the screen says so).
func TestChildAchievements(t *testing.T) {
	f := newFamily(t, true)
	other := f.school.Student(t, "Sari Lestari", "Bu Lestari", "0812-9999-8888")
	var typ int64
	if err := f.env.DB.Get(&typ, `INSERT INTO achievement_types (category_id, name, points_kabupaten)
		VALUES ((SELECT min(id) FROM achievement_categories), 'Juara 1 Olimpiade Matematika', 20) RETURNING id`); err != nil {
		t.Fatal(err)
	}
	add := func(student int64, verified bool, day string) {
		t.Helper()
		if _, err := f.env.DB.Exec(`WITH a AS (INSERT INTO achievements (achievement_type_id, level, points, achieved_on, description, verified_at)
			VALUES ($1, 'kabupaten', 20, $3, 'catatan internal', CASE WHEN $4 THEN now() END) RETURNING id)
			INSERT INTO achievement_students (achievement_id, student_id) SELECT id, $2 FROM a`, typ, student, day, verified); err != nil {
			t.Fatal(err)
		}
	}
	add(f.student, true, "2026-10-01")
	add(f.student, false, "2026-10-02")
	add(other, true, "2026-10-03")
	g := f.guardian(t, parentPhone)
	var d api.PortalChildDetail
	res := g.Do("GET", "/api/v1/portal/children/"+itoa(f.student), nil).Want(200).JSON(&d)
	if !d.Shown.Achievements || len(d.Achievements) != 1 || d.Achievements[0].Date != "2026-10-01" || d.Achievements[0].Level != "kabupaten" ||
		d.Achievements[0].Type != "Juara 1 Olimpiade Matematika" || d.Achievements[0].Points != 20 {
		t.Fatalf("%+v", d.Achievements)
	}
	if d.Attendance != (api.PortalAttendanceSummary{}) {
		t.Fatalf("attendance %+v", d.Attendance)
	}
	if strings.Contains(string(res.Body), "catatan internal") {
		t.Fatal("an achievement's notes reach the family")
	}
	g.Do("GET", "/api/v1/portal/children/"+itoa(other), nil).Want(404)
	f.env.As(perm.Admin).Do("PUT", "/api/v1/settings/portal", api.PortalSettings{HideAchievements: true}).Want(200)
	g.Do("GET", "/api/v1/portal/children/"+itoa(f.student), nil).Want(200).JSON(&d)
	if d.Shown.Achievements || len(d.Achievements) != 0 {
		t.Fatalf("hidden: %+v", d)
	}
}
