package portal_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// Two families: the guardian of Budi sees Budi only; Sari's ids answer 404
// on every portal route that takes an id.
func TestWhatGuardiansSee(t *testing.T) {
	f := newFamily(t, true)
	other := f.school.Student(t, "Sari Lestari", "Bu Lestari", "0812-9999-8888")
	now := time.Now()
	f.school.Record(t, f.student, now.Add(-time.Hour), false, f.school.T10)
	f.school.Record(t, other, now.Add(-time.Hour), false, f.school.T40)
	var letters [2]int64
	for i, s := range []int64{f.student, other} {
		if err := f.env.DB.Get(&letters[i], `INSERT INTO warning_letters (student_id, level, name, min_points, academic_year_start, points, status, sent_to_parent_at)
			VALUES ($1, 1, 'SP 1', 10, date_trunc('year', now())::date, 10, 'printed', now()) RETURNING id`, s); err != nil {
			t.Fatal(err)
		}
	}
	today := now.In(time.FixedZone("WIB", 7*3600)).Format(time.DateOnly)
	for _, s := range []int64{f.student, other} {
		if _, err := f.env.DB.Exec(`INSERT INTO attendance (student_id, date, lesson_hour, status, from_journal, set_by) VALUES ($1, $2, 1, 'H', false, 'user'), ($1, $2, 2, 'S', false, 'user')`, s, today); err != nil {
			t.Fatal(err)
		}
	}
	g := f.guardian(t, parentPhone)

	var list struct{ Data []api.PortalChild }
	g.Do("GET", "/api/v1/portal/children", nil).Want(200).JSON(&list)
	if len(list.Data) != 1 || list.Data[0].ID != f.student || list.Data[0].Points != 10 {
		t.Fatalf("%+v", list.Data)
	}
	var d api.PortalChildDetail
	g.Do("GET", "/api/v1/portal/children/"+itoa(f.student), nil).Want(200).JSON(&d)
	if d.Standing.Total != 10 || len(d.Violations) != 1 || d.Violations[0].Type != "Terlambat masuk kelas" || len(d.Letters) != 1 {
		t.Fatalf("%+v", d)
	}
	// No recorder, no internal notes on the wire.
	raw := string(g.Do("GET", "/api/v1/portal/children/"+itoa(f.student), nil).Body)
	if strings.Contains(raw, "recorded_by") || strings.Contains(raw, "description") || strings.Contains(raw, "Bu Guru BK") {
		t.Fatalf("internal fields leak: %s", raw)
	}
	var days struct{ Data []api.PortalAttendanceDay }
	g.Do("GET", "/api/v1/portal/children/"+itoa(f.student)+"/attendance?month="+today[:7], nil).Want(200).JSON(&days)
	if len(days.Data) != 1 || len(days.Data[0].Hours) != 2 || days.Data[0].Counts.S != 1 {
		t.Fatalf("%+v", days.Data)
	}
	g.Do("GET", "/api/v1/portal/children/"+itoa(f.student)+"/attendance?month=2026-13", nil).Want(422)

	res := g.Do("GET", "/api/v1/portal/letters/"+itoa(letters[0])+"/pdf", nil).Want(200)
	if res.Header.Get("Content-Type") != "application/pdf" || !strings.HasPrefix(string(res.Body), "%PDF") {
		t.Fatalf("%s", res.Header)
	}
	var printed *time.Time
	if err := f.env.DB.Get(&printed, `SELECT numbered_at FROM warning_letters WHERE id = $1`, letters[0]); err != nil || printed != nil {
		t.Fatalf("the guardian's download numbered the letter: %v %v", printed, err)
	}
	g.Do("POST", "/api/v1/portal/letters/"+itoa(letters[0])+"/acknowledge", nil).Want(200)
	g.Do("POST", "/api/v1/portal/letters/"+itoa(letters[0])+"/acknowledge", nil).Want(200)
	var seen struct {
		AcknowledgedAt *time.Time `json:"acknowledged_at"`
		AcknowledgedBy string     `json:"acknowledged_by"`
		Status         string     `json:"status"`
	}
	f.env.As(perm.BK).Do("GET", "/api/v1/warning-letters/"+itoa(letters[0]), nil).Want(200).JSON(&seen)
	if seen.AcknowledgedAt == nil || seen.AcknowledgedBy != "Pak Santoso" || seen.Status != "printed" {
		t.Fatalf("staff see %+v", seen)
	}

	t.Run("ErrOtherFamily404", func(t *testing.T) {
		for _, c := range []struct{ method, path string }{
			{"GET", "/api/v1/portal/children/" + itoa(other)},
			{"GET", "/api/v1/portal/children/" + itoa(other) + "/attendance"},
			{"GET", "/api/v1/portal/letters/" + itoa(letters[1]) + "/pdf"},
			{"POST", "/api/v1/portal/letters/" + itoa(letters[1]) + "/acknowledge"},
		} {
			g.Do(c.method, c.path, nil).Want(http.StatusNotFound)
		}
		// Both families' violation messages went out; the guardian reads their own.
		if _, err := f.env.DB.Exec(`UPDATE parent_messages SET status = 'sent', sent_at = now()`); err != nil {
			t.Fatal(err)
		}
		var msgs struct{ Data []api.PortalMessage }
		g.Do("GET", "/api/v1/portal/messages", nil).Want(200).JSON(&msgs)
		if len(msgs.Data) != 1 || msgs.Data[0].StudentName != "Budi Santoso" || msgs.Data[0].Event != "violation" {
			t.Fatalf("messages %+v", msgs.Data)
		}
	})
	t.Run("SchoolChoosesParts", func(t *testing.T) {
		admin := f.env.As(perm.Admin)
		admin.Do("PUT", "/api/v1/settings/portal", api.PortalSettings{HideLetters: true, HideAttendance: true, ShowRecorder: true}).Want(200)
		defer func() { admin.Do("PUT", "/api/v1/settings/portal", api.PortalSettings{}).Want(200) }()
		var d api.PortalChildDetail
		g.Do("GET", "/api/v1/portal/children/"+itoa(f.student), nil).Want(200).JSON(&d)
		if d.Shown.Letters || d.Shown.Attendance || !d.Shown.Violations || len(d.Letters) != 0 || d.Attendance.S != 0 ||
			len(d.Violations) != 1 || d.Violations[0].Recorder != "Bu Guru BK" {
			t.Fatalf("%+v", d)
		}
		g.Do("GET", "/api/v1/portal/letters/"+itoa(letters[0])+"/pdf", nil).Want(404)
		g.Do("GET", "/api/v1/portal/children/"+itoa(f.student)+"/attendance", nil).Want(404)
	})
	t.Run("ErrUnsentLetter404", func(t *testing.T) {
		if _, err := f.env.DB.Exec(`UPDATE warning_letters SET sent_to_parent_at = NULL WHERE id = $1`, letters[0]); err != nil {
			t.Fatal(err)
		}
		g.Do("GET", "/api/v1/portal/letters/"+itoa(letters[0])+"/pdf", nil).Want(404)
	})
}
