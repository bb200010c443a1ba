package portal_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/portal"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// A guardian chooses per kind; a warning letter cannot be off and "belum
// hadir" has no digest; a student cannot choose; staff reach no portal route.
func TestPreferences(t *testing.T) {
	f := newFamily(t, true)
	g := f.guardian(t, parentPhone)
	var p api.NotificationPrefs
	g.Do("GET", "/api/v1/portal/preferences", nil).Want(200).JSON(&p)
	mode := func(p api.NotificationPrefs, kind string) string {
		for _, k := range p.Preferences {
			if k.Kind == kind {
				return k.Mode
			}
		}
		return ""
	}
	if len(p.Preferences) != 7 || mode(p, "violation") != "immediate" || mode(p, "absent_notice") != "off" || p.DigestAt != "18:00" {
		t.Fatalf("defaults %+v", p)
	}
	put := func(m map[string]string) *api.NotificationPrefs {
		var out api.NotificationPrefs
		g.Do("PUT", "/api/v1/portal/preferences", api.NotificationPrefsInput{Preferences: m}).Want(200).JSON(&out)
		return &out
	}
	if out := put(map[string]string{"violation": "digest", "achievement": "off", "warning_letter": "digest"}); mode(*out, "violation") != "digest" ||
		mode(*out, "achievement") != "off" || mode(*out, "warning_letter") != "digest" || mode(*out, "excuse") != "immediate" {
		t.Fatalf("%+v", out)
	}
	for field, m := range map[string]map[string]string{
		"preferences.warning_letter": {"warning_letter": "off"},
		"preferences.summons":        {"summons": "off"},
		"preferences.absent_notice":  {"absent_notice": "digest"},
		"preferences.violation":      {"violation": "loud"},
		"preferences":                {"portal_code": "off"},
	} {
		e := g.Do("PUT", "/api/v1/portal/preferences", api.NotificationPrefsInput{Preferences: m}).Want(422).Err()
		if _, ok := e.Error.Fields[field]; !ok {
			t.Fatalf("%v: %+v", m, e.Error.Fields)
		}
	}
	g.Do("PUT", "/api/v1/portal/preferences", map[string]any{}).Want(422)
	if n := f.count(t, `SELECT count(*) FROM guardian_notification_prefs WHERE kind = 'warning_letter' AND mode = 'digest'`); n != 1 {
		t.Fatalf("a refused change moved something: %d", n)
	}
	if n := f.count(t, `SELECT count(*) FROM audit_log WHERE action = 'portal.preferences'`); n != 1 {
		t.Fatalf("audit %d", n)
	}
	f.env.As(perm.Admin).Do("GET", "/api/v1/portal/preferences", nil).Want(401)
	f.env.As(perm.Admin).Do("PUT", "/api/v1/settings/portal", api.PortalSettings{DigestAt: "25:00"}).Want(422)
	f.env.As(perm.Admin).Do("PUT", "/api/v1/settings/portal", api.PortalSettings{Students: true}).Want(200)
	var nisn string
	if err := f.env.DB.Get(&nisn, `SELECT nisn FROM students WHERE id = $1`, f.student); err != nil {
		t.Fatal(err)
	}
	var ac api.ActivationCode
	f.env.As(perm.BK).Do("POST", "/api/v1/students/"+itoa(f.student)+"/portal-code", nil).Want(201).JSON(&ac)
	var out api.PortalVerifyAnswer
	f.env.Anonymous().Do("POST", "/api/v1/portal/auth/student", api.PortalStudentSignIn{NISN: nisn, Code: ac.Code}).Want(200).JSON(&out)
	s := f.env.Anonymous()
	s.Token = out.Token
	s.Do("GET", "/api/v1/portal/preferences", nil).Want(403)
	s.Do("PUT", "/api/v1/portal/preferences", api.NotificationPrefsInput{Preferences: map[string]string{"violation": "off"}}).Want(403)
}

// The digest: messages held for a guardian become one message per guardian
// and Jakarta day at the school's hour, however many replicas build it.
func TestDigest(t *testing.T) {
	f := newFamily(t, true)
	other := f.school.Student(t, "Sari Lestari", "Bu Lestari", "0812-9999-8888")
	ctx := context.Background()
	day := schoolday.Today().Start()
	evening := day.Add(18*time.Hour + time.Minute)
	// held at: the worker held the message then (the test's clock, not the host's)
	held := day.Add(9 * time.Hour)
	hold := func(student int64, phone, body string) {
		t.Helper()
		if _, err := f.env.DB.Exec(`INSERT INTO parent_messages (student_id, event, phone_raw, phone, body, status, skip_reason, created_at)
			VALUES ($1, 'violation', $2, $2, $3, 'skipped', 'digest', $4)`, student, phone, body, held); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range []struct {
		name, phone string
		student     int64
	}{{"Pak Santoso", parentPhone, f.student}, {"Bu Lestari", "6281299998888", other}} {
		if _, err := f.env.DB.Exec(`INSERT INTO guardians (name, phone) VALUES ($1, $2) ON CONFLICT DO NOTHING`, s.name, s.phone); err != nil {
			t.Fatal(err)
		}
	}
	hold(f.student, parentPhone, "Budi terlambat.")
	hold(f.student, parentPhone, "Budi tidak memakai atribut.")
	hold(other, "6281299998888", "Sari terlambat.")
	if n, err := portal.Digests(ctx, f.env.DB, day.Add(17*time.Hour)); err != nil || n != 0 {
		t.Fatalf("before the hour: %d %v", n, err)
	}
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := portal.Digests(ctx, f.env.DB, evening); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	var body string
	if err := f.env.DB.Get(&body, `SELECT body FROM parent_messages WHERE event = 'digest' AND phone = $1`, parentPhone); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(body, "Budi terlambat.") || !strings.Contains(body, "atribut") || strings.Contains(body, "Sari") || !strings.Contains(body, "(2 pesan)") {
		t.Fatalf("digest %q", body)
	}
	if n := f.count(t, `SELECT count(*) FROM parent_messages WHERE event = 'digest' AND status = 'queued' AND notice_day = $1`, schoolday.Of(evening)); n != 2 {
		t.Fatalf("%d digests, want one per guardian", n)
	}
	if n := f.count(t, `SELECT count(*) FROM parent_messages WHERE skip_reason = 'digest' AND digest_id IS NULL`); n != 0 {
		t.Fatalf("%d held messages not carried", n)
	}
	// Held later the same day: tomorrow's digest, never a second today.
	held = evening.Add(30 * time.Minute)
	hold(f.student, parentPhone, "Budi lagi.")
	if n, err := portal.Digests(ctx, f.env.DB, evening.Add(time.Hour)); err != nil || n != 0 {
		t.Fatalf("second digest the same day: %d %v", n, err)
	}
	if n, err := portal.Digests(ctx, f.env.DB, evening.Add(24*time.Hour)); err != nil || n != 1 {
		t.Fatalf("next day: %d %v", n, err)
	}
	// A withdrawn guardian gets no digest.
	hold(other, "6281299998888", "Sari lagi.")
	if _, err := f.env.DB.Exec(`UPDATE guardians SET withdrawn_at = now() WHERE phone = '6281299998888'`); err != nil {
		t.Fatal(err)
	}
	if n, err := portal.Digests(ctx, f.env.DB, evening.Add(48*time.Hour)); err != nil || n != 0 {
		t.Fatalf("withdrawn: %d %v", n, err)
	}
}
