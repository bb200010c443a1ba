package face_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/face"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

func TestSettings(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	var got api.FaceSettings
	s.admin.Do("GET", "/api/v1/settings/face", nil).Want(200).JSON(&got)
	if got.SchoolStart != "07:00" || got.Threshold != 0.5 || got.Margin != 0.08 || got.RetentionDays != 30 || len(got.Challenges) != 3 {
		t.Fatalf("defaults: %+v", got)
	}
	good := api.FaceSettings{SchoolStart: "06:45", LateGraceMinutes: 10, Threshold: 0.62, Margin: 0.1, RetentionDays: 0,
		Challenges: []string{api.ChallengeBlink, api.ChallengeTurnRight}}
	cases := map[string]struct {
		mod   func(*api.FaceSettings)
		field string
		code  string
	}{
		"start":        {func(x *api.FaceSettings) { x.SchoolStart = "7:00" }, "school_start", "face.settings.time"},
		"start 24":     {func(x *api.FaceSettings) { x.SchoolStart = "24:00" }, "school_start", "face.settings.time"},
		"grace":        {func(x *api.FaceSettings) { x.LateGraceMinutes = 121 }, "late_grace_minutes", "request.field_range"},
		"grace <0":     {func(x *api.FaceSettings) { x.LateGraceMinutes = -1 }, "late_grace_minutes", "request.field_range"},
		"threshold 0":  {func(x *api.FaceSettings) { x.Threshold = 0 }, "threshold", "face.settings.threshold"},
		"threshold 1":  {func(x *api.FaceSettings) { x.Threshold = 1 }, "threshold", "face.settings.threshold"},
		"margin 1":     {func(x *api.FaceSettings) { x.Margin = 1 }, "margin", "face.settings.margin"},
		"margin <0":    {func(x *api.FaceSettings) { x.Margin = -0.1 }, "margin", "face.settings.margin"},
		"retention":    {func(x *api.FaceSettings) { x.RetentionDays = 366 }, "retention_days", "request.field_range"},
		"no challenge": {func(x *api.FaceSettings) { x.Challenges = nil }, "challenges", "face.settings.challenges_empty"},
		"unknown":      {func(x *api.FaceSettings) { x.Challenges = []string{"smile"} }, "challenges", "face.settings.challenge_unknown"},
		"twice":        {func(x *api.FaceSettings) { x.Challenges = []string{"blink", "blink"} }, "challenges", "face.settings.challenge_twice"},
	}
	for name, c := range cases {
		in := good
		c.mod(&in)
		r := s.admin.Do("PUT", "/api/v1/settings/face", in).Want(422)
		if e := r.Err(); len(e.Error.FieldCodes) != 1 || e.Error.FieldCodes[c.field].Code != c.code {
			t.Errorf("%s: %s", name, r.Body)
		}
	}
	s.admin.Do("PUT", "/api/v1/settings/face", good).Want(200).JSON(&got)
	if got.SchoolStart != "06:45" || got.Threshold != 0.62 || got.Margin != 0.1 || got.RetentionDays != 0 || len(got.Challenges) != 2 || got.UpdatedAt == nil {
		t.Fatalf("saved: %+v", got)
	}
	var details json.RawMessage
	must(t, s.env.DB.Get(&details, `SELECT details FROM audit_log WHERE action = 'face.settings_update'`))
	if !contains(string(details), `"school_start": "06:45"`) || !contains(string(details), `"school_start": "07:00"`) {
		t.Fatalf("audit: %s", details)
	}
	s.bk.Do("PUT", "/api/v1/settings/face", good).Want(403)
	s.env.As(perm.Staff).Do("GET", "/api/v1/settings/face", nil).Want(403)
}

// The retention sweep deletes an inactive student's embeddings once the
// retention period has passed, not before, and old challenges.
func TestSweep(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	ctx := context.Background()
	a, _ := s.student(t, s.classA)
	b, _ := s.student(t, s.classA)
	for _, id := range []int64{a, b} {
		s.consent(t, id)
		s.enrol(t, id, s.unit())
	}
	count := func(id int64) int {
		var n int
		must(t, s.env.DB.Get(&n, `SELECT count(*) FROM face_embeddings WHERE student_id = $1`, id))
		return n
	}
	now := time.Now()
	// a left ten days ago; b is still active.
	must(t, exec(s, `UPDATE students SET active = false WHERE id = $1`, a))
	must(t, exec(s, `UPDATE students SET inactive_since = $2 WHERE id = $1`, a, now.Add(-10*24*time.Hour)))
	must(t, exec(s, `WITH k AS (INSERT INTO kiosks (name, token_hash) VALUES ('K', '\x01') RETURNING id)
		INSERT INTO face_challenges (id, kiosk_id, kind, issued_at, expires_at)
		SELECT 'old-challenge-000001', id, 'blink', $1::timestamptz, $1::timestamptz FROM k UNION ALL SELECT 'new-challenge-000001', id, 'blink', $2::timestamptz, $2::timestamptz FROM k`,
		now.Add(-25*time.Hour), now))

	res, err := face.Sweep(ctx, s.env.DB, now) // retention 30 days
	must(t, err)
	if res.Embeddings != 0 || count(a) != 3 || res.Challenges != 1 {
		t.Fatalf("day 10: %+v, %d left", res, count(a))
	}
	res, err = face.Sweep(ctx, s.env.DB, now.Add(19*24*time.Hour)) // day 29
	must(t, err)
	if res.Embeddings != 0 || count(a) != 3 {
		t.Fatalf("day 29: %+v", res)
	}
	res, err = face.Sweep(ctx, s.env.DB, now.Add(20*24*time.Hour+time.Minute)) // day 30
	must(t, err)
	if res.Embeddings != 3 || res.Students != 1 || count(a) != 0 || count(b) != 3 {
		t.Fatalf("day 30: %+v, a %d, b %d", res, count(a), count(b))
	}
	var details json.RawMessage
	must(t, s.env.DB.Get(&details, `SELECT details FROM audit_log WHERE action = 'face.retention_delete'`))
	if !contains(string(details), `"embeddings": 3`) || !contains(string(details), fmt.Sprintf(`"student_ids": [%d]`, a)) {
		t.Fatalf("audit: %s", details)
	}
	// Retention 0: at once.
	s.admin.Do("PUT", "/api/v1/settings/face", api.FaceSettings{SchoolStart: "07:00", Threshold: 0.5, Margin: 0.08, RetentionDays: 0,
		Challenges: []string{api.ChallengeBlink}}).Want(200)
	must(t, exec(s, `UPDATE students SET active = false WHERE id = $1`, b))
	res, err = face.Sweep(ctx, s.env.DB, time.Now().Add(time.Second))
	must(t, err)
	if res.Embeddings != 3 || count(b) != 0 {
		t.Fatalf("retention 0: %+v", res)
	}
	// The consent record stays; only the face data went.
	var consents int
	must(t, s.env.DB.Get(&consents, `SELECT count(*) FROM face_consents WHERE withdrawn_at IS NULL`))
	if consents != 2 {
		t.Fatalf("%d consents", consents)
	}
}

func exec(s *school, q string, args ...any) error {
	_, err := s.env.DB.Exec(q, args...)
	return err
}
