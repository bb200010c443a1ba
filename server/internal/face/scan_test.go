package face_test

import (
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/face"
	"github.com/tatib/tatib/shared/api"
)

// The scan from challenge to attendance. The package clock is set per step
// (face.SetNow), so this test does not run in parallel.
func TestScan(t *testing.T) {
	s := newSchool(t)
	s.blinkOnly(t, "07:00")
	clock := jakarta(t, "2026-11-23 06:30:00")
	face.SetNow(t, func() time.Time { return clock })
	a, aName := s.student(t, s.classA)
	b, _ := s.student(t, s.classB)
	c, _ := s.student(t, s.classB)
	fa, fb, fc := s.unit(), s.unit(), s.unit()
	for id, v := range map[int64][]float32{a: fa, b: fb, c: fc} {
		s.consent(t, id)
		s.enrol(t, id, v)
	}
	k, _ := s.kiosk(t, "Gerbang Utama")

	// Before the start time: H, with the greeting in the request's language.
	r := scan(t, k, s.near(fa))
	if r.Outcome != api.ScanMatched || r.Attendance != api.ScanAttendancePresent || r.Student == nil || r.Student.ID != a ||
		r.Student.ClassName != "X IPA 1" || r.Greeting != "Selamat pagi, "+aName+"! Kehadiranmu tercatat." || r.ScanID == 0 {
		t.Fatalf("first scan: %+v", r)
	}
	status := func(id int64, day string) string {
		var st string
		if err := s.env.DB.Get(&st, `SELECT status FROM attendance WHERE student_id = $1 AND date = $2 AND lesson_hour = 1`, id, day); err != nil {
			return "none"
		}
		return st
	}
	if st := status(a, "2026-11-23"); st != "H" {
		t.Fatalf("attendance %q", st)
	}
	var n int
	must(t, s.env.DB.Get(&n, `SELECT count(*) FROM audit_log WHERE action = 'attendance.face'`))
	if n != 1 {
		t.Fatalf("%d attendance.face entries", n)
	}
	must(t, s.env.DB.Get(&n, `SELECT count(*) FROM audit_log WHERE action = 'face.scan_match' AND entity_id = $1`, fmt.Sprint(r.ScanID)))
	if n != 1 {
		t.Fatal("no face.scan_match entry")
	}
	// A second scan the same day changes nothing.
	clock = jakarta(t, "2026-11-23 07:40:00")
	r = scan(t, k, s.near(fa))
	if r.Outcome != api.ScanMatched || r.Attendance != api.ScanAttendanceKept || status(a, "2026-11-23") != "H" {
		t.Fatalf("second scan: %+v", r)
	}

	// After the start time: T and the automatic late violation.
	var en api.FaceScanResult
	var ch api.FaceChallenge
	k.Do("POST", "/api/v1/face/challenge", nil).Want(201).JSON(&ch)
	k.Do("POST", "/api/v1/face/scan", api.FaceScanInput{Model: model, Embedding: s.near(fb), Challenge: blink(ch.ID)}, "Accept-Language", "en").Want(200).JSON(&en)
	if en.Attendance != api.ScanAttendanceLate || en.Student.ID != b || !contains(en.Greeting, "late") {
		t.Fatalf("late scan: %+v", en)
	}
	must(t, s.env.DB.Get(&n, `SELECT count(*) FROM violations WHERE student_id = $1 AND auto_kind = 'late' AND occurred_on = '2026-11-23'`, b))
	if n != 1 || status(b, "2026-11-23") != "T" {
		t.Fatalf("late violation %d, status %s", n, status(b, "2026-11-23"))
	}

	// Grace: 07:10 with 15 minutes' grace is still H.
	s.admin.Do("PUT", "/api/v1/settings/face", api.FaceSettings{SchoolStart: "07:00", LateGraceMinutes: 15, Threshold: 0.5, Margin: 0.08,
		RetentionDays: 30, Challenges: []string{api.ChallengeBlink}}).Want(200)
	clock = jakarta(t, "2026-11-24 07:10:00")
	if r = scan(t, k, s.near(fc)); r.Attendance != api.ScanAttendancePresent || status(c, "2026-11-24") != "H" {
		t.Fatalf("within grace: %+v", r)
	}

	// Somebody else, another model: not recognised.
	if r = scan(t, k, s.unit()); r.Outcome != api.ScanUnknown || r.Student != nil || r.Attendance != api.ScanAttendanceNone ||
		r.Greeting != "Wajah tidak dikenali — silakan lapor ke guru piket." {
		t.Fatalf("unknown: %+v", r)
	}
	k.Do("POST", "/api/v1/face/challenge", nil).Want(201).JSON(&ch)
	k.Do("POST", "/api/v1/face/scan", api.FaceScanInput{Model: "other-model", Embedding: s.near(fa), Challenge: blink(ch.ID)}).Want(200).JSON(&r)
	if r.Outcome != api.ScanModelMismatch {
		t.Fatalf("other model: %+v", r)
	}

	// Uncertain: to the queue; confirming records the attendance as of
	// the scan's time (07:30 on the 25th: late with no grace).
	s.blinkOnly(t, "07:00")
	clock = jakarta(t, "2026-11-25 07:30:00")
	u1 := scan(t, k, s.mix(fa, 0.47, fb, 0.35))
	u2 := scan(t, k, s.mix(fc, 0.47, nil, 0))
	u3 := scan(t, k, s.mix(fb, 0.47, nil, 0))
	if u1.Outcome != api.ScanUncertain || u1.Student != nil || u1.Greeting != "Tunggu sebentar, guru piket akan memastikan." || u2.Outcome != api.ScanUncertain {
		t.Fatalf("uncertain: %+v %+v", u1, u2)
	}
	var queue struct{ Data []api.FaceScan }
	s.bk.Do("GET", "/api/v1/face/confirmations", nil).Want(200).JSON(&queue)
	if len(queue.Data) != 3 || queue.Data[0].ID != u1.ScanID || queue.Data[0].StudentName != aName || queue.Data[0].RunnerUpID == nil ||
		*queue.Data[0].RunnerUpID != b || queue.Data[0].Score == nil || *queue.Data[0].Score > 0.5 {
		t.Fatalf("queue: %+v", queue.Data)
	}
	clock = jakarta(t, "2026-11-25 12:00:00") // resolved later; the scan's time counts
	resolvePath := func(id int64) string { return fmt.Sprintf("/api/v1/face/scans/%d/resolve", id) }
	if fieldCode(t, s.bk.Do("POST", resolvePath(u1.ScanID), api.FaceScanResolution{Action: "confirm", StudentID: c}).Want(422), "student_id") != "face.resolve.not_candidate" {
		t.Fatal("a student who was neither candidate confirmed")
	}
	var fs api.FaceScan
	s.bk.Do("POST", resolvePath(u1.ScanID), api.FaceScanResolution{Action: "confirm", StudentID: b}).Want(200).JSON(&fs)
	if fs.Resolution == nil || *fs.Resolution != "confirmed" || fs.ResolvedStudentID == nil || *fs.ResolvedStudentID != b || fs.Attendance != "T" {
		t.Fatalf("confirmed: %+v", fs)
	}
	if status(b, "2026-11-25") != "T" {
		t.Fatal("confirmation recorded no attendance")
	}
	must(t, s.env.DB.Get(&n, `SELECT count(*) FROM violations WHERE student_id = $1 AND auto_kind = 'late' AND occurred_on = '2026-11-25'`, b))
	if n != 1 {
		t.Fatal("no late violation from the confirmation")
	}
	if e := s.bk.Do("POST", resolvePath(u1.ScanID), api.FaceScanResolution{Action: "reject"}).Want(409).Err(); e.Error.MessageCode != "face.already_resolved" {
		t.Fatalf("second resolve: %+v", e)
	}
	// Two teachers at once: exactly one wins.
	codes := make([]int, 4)
	var wg sync.WaitGroup
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i] = s.bk.Do("POST", resolvePath(u2.ScanID), api.FaceScanResolution{Action: "confirm", StudentID: c}).Status
		}()
	}
	wg.Wait()
	won := 0
	for _, code := range codes {
		switch code {
		case 200:
			won++
		case 409:
		default:
			t.Fatalf("race: %v", codes)
		}
	}
	if won != 1 {
		t.Fatalf("race: %v", codes)
	}
	must(t, s.env.DB.Get(&n, `SELECT count(*) FROM audit_log WHERE action = 'face.scan_resolve' AND entity_id = $1`, fmt.Sprint(u2.ScanID)))
	if n != 1 {
		t.Fatalf("%d resolve entries", n)
	}
	s.bk.Do("POST", resolvePath(u3.ScanID), api.FaceScanResolution{Action: "reject"}).Want(200).JSON(&fs)
	if *fs.Resolution != "rejected" || fs.Attendance != "none" {
		t.Fatalf("rejected: %+v", fs)
	}
	s.bk.Do("GET", "/api/v1/face/confirmations", nil).Want(200).JSON(&queue)
	if len(queue.Data) != 0 {
		t.Fatalf("queue after: %+v", queue.Data)
	}
	s.bk.Do("POST", resolvePath(r.ScanID), api.FaceScanResolution{Action: "reject"}).Want(409) // not uncertain

	// The log: newest first, filtered.
	var log struct {
		Data  []api.FaceScan
		Total int
	}
	s.bk.Do("GET", "/api/v1/face/scans?per_page=2", nil).Want(200).JSON(&log)
	if log.Total != 9 || len(log.Data) != 2 || log.Data[0].ID != u3.ScanID {
		t.Fatalf("log: %d %+v", log.Total, log.Data)
	}
	s.bk.Do("GET", "/api/v1/face/scans?outcome=matched&from=2026-11-23&to=2026-11-23", nil).Want(200).JSON(&log)
	if log.Total != 3 {
		t.Fatalf("matched on the 23rd: %d", log.Total)
	}
	s.bk.Do("GET", "/api/v1/face/scans?outcome=maybe&from=23-11-2026", nil).Want(422)
}

// The challenge: one use, this kiosk's own, within its minute, of its
// kind, with observations that show it; the kiosk token itself.
func TestChallenge(t *testing.T) {
	s := newSchool(t)
	s.blinkOnly(t, "07:00")
	clock := jakarta(t, "2026-11-23 06:30:00")
	face.SetNow(t, func() time.Time { return clock })
	a, _ := s.student(t, s.classA)
	fa := s.unit()
	s.consent(t, a)
	s.enrol(t, a, fa)
	k, created := s.kiosk(t, "Gerbang")
	k2, _ := s.kiosk(t, "Samping")
	if len(created.Token) != 49 || created.Token[:6] != "kiosk_" || created.TokenHint != created.Token[:10] {
		t.Fatalf("token %q hint %q", created.Token, created.TokenHint)
	}
	var stored int
	must(t, s.env.DB.Get(&stored, `SELECT count(*) FROM kiosks WHERE token_hash = sha256($1::bytea)`, []byte(created.Token)))
	if stored != 1 {
		t.Fatal("the token's hash is not what is stored")
	}

	var info api.KioskInfo
	k.Do("GET", "/api/v1/face/kiosk", nil).Want(200).JSON(&info)
	if info.Name != "Gerbang" || len(info.Challenges) != 1 || info.Challenges[0] != api.ChallengeBlink {
		t.Fatalf("info: %+v", info)
	}
	newCh := func() api.FaceChallenge {
		var ch api.FaceChallenge
		k.Do("POST", "/api/v1/face/challenge", nil).Want(201).JSON(&ch)
		if len(ch.ID) < 16 || ch.Kind != api.ChallengeBlink || !ch.ExpiresAt.Equal(clock.Add(60*time.Second)) {
			t.Fatalf("challenge: %+v", ch)
		}
		return ch
	}
	send := func(in api.FaceScanInput) (int, api.FaceScanResult, string) {
		var out api.FaceScanResult
		res := k.Do("POST", "/api/v1/face/scan", in)
		if res.Status == 200 {
			res.JSON(&out)
			return 200, out, ""
		}
		return res.Status, out, res.Err().Error.MessageCode
	}

	ch := newCh()
	in := api.FaceScanInput{Model: model, Embedding: s.near(fa), Challenge: blink(ch.ID)}
	if code, r, _ := send(in); code != 200 || r.Outcome != api.ScanMatched {
		t.Fatalf("scan: %d %+v", code, r)
	}
	if code, _, msg := send(in); code != 409 || msg != "face.challenge_used" {
		t.Fatalf("reuse: %d %s", code, msg)
	}
	// Another kiosk's challenge.
	var other api.FaceChallenge
	k2.Do("POST", "/api/v1/face/challenge", nil).Want(201).JSON(&other)
	in.Challenge = blink(other.ID)
	if code, _, msg := send(in); code != 409 || msg != "face.challenge_unknown" {
		t.Fatalf("other kiosk's: %d %s", code, msg)
	}
	in.Challenge = blink("no-such-challenge-id")
	if code, _, msg := send(in); code != 409 || msg != "face.challenge_unknown" {
		t.Fatalf("unknown: %d %s", code, msg)
	}
	// Expired.
	ch = newCh()
	clock = clock.Add(61 * time.Second)
	in.Challenge = blink(ch.ID)
	if code, _, msg := send(in); code != 409 || msg != "face.challenge_expired" {
		t.Fatalf("expired: %d %s", code, msg)
	}
	// Passed, but the observations show no blink (the eyes never closed):
	// a photo held up.
	for name, mod := range map[string]func(*api.FaceChallengeResult){
		"eyes open":  func(c *api.FaceChallengeResult) { c.OpenMin = f64(1.0) },
		"small drop": func(c *api.FaceChallengeResult) { c.OpenMin, c.OpenMax = f64(0.85), f64(1.0) },
		"never open": func(c *api.FaceChallengeResult) { c.OpenMin, c.OpenMax = f64(0.1), f64(0.4) },
		"negative":   func(c *api.FaceChallengeResult) { c.OpenMin, c.OpenMax = f64(-1), f64(1.0) },
		"no figures": func(c *api.FaceChallengeResult) { c.OpenMin, c.OpenMax = nil, nil },
		"two frames": func(c *api.FaceChallengeResult) { c.Frames = 2 },
		"not passed": func(c *api.FaceChallengeResult) { c.Passed = false },
		"another kind": func(c *api.FaceChallengeResult) {
			c.Kind = api.ChallengeTurnLeft
			c.YawStart, c.YawPeak = f64(0), f64(-30)
		},
	} {
		ch = newCh()
		cr := blink(ch.ID)
		mod(&cr)
		code, r, msg := send(api.FaceScanInput{Model: model, Embedding: s.near(fa), Challenge: cr})
		if code != 200 || r.Outcome != api.ScanLivenessFailed || r.Student != nil || r.Greeting != "Pemeriksaan gagal. Coba lagi dan ikuti petunjuknya." {
			t.Errorf("%s: %d %s %+v", name, code, msg, r)
		}
	}
	// A failed challenge may come without an embedding; it is logged.
	ch = newCh()
	cr := blink(ch.ID)
	cr.Passed = false
	if code, r, _ := send(api.FaceScanInput{Model: model, Challenge: cr}); code != 200 || r.Outcome != api.ScanLivenessFailed {
		t.Fatalf("failed without embedding: %d %+v", code, r)
	}
	// A passed one needs it (422, the challenge not spent).
	ch = newCh()
	res := k.Do("POST", "/api/v1/face/scan", api.FaceScanInput{Model: model, Challenge: blink(ch.ID)}).Want(422)
	if fieldCode(t, res, "embedding") != "face.embedding.dims" {
		t.Fatalf("no embedding: %s", res.Body)
	}
	res = k.Do("POST", "/api/v1/face/scan", []byte(`{"model":"","embedding":[1,2],"challenge":{"id":"","kind":"smile","passed":true}}`)).Want(422)
	for _, f := range []string{"model", "embedding", "challenge.id", "challenge.kind"} {
		if fieldCode(t, res, f) == "" {
			t.Errorf("no field error for %s: %s", f, res.Body)
		}
	}
	var logged int
	must(t, s.env.DB.Get(&logged, `SELECT count(*) FROM face_scans WHERE outcome = 'liveness_failed' AND NOT challenge_passed`))
	if logged != 9 {
		t.Fatalf("%d liveness failures logged", logged)
	}
	// Turns: the server checks the yaw.
	s.admin.Do("PUT", "/api/v1/settings/face", api.FaceSettings{SchoolStart: "07:00", Threshold: 0.5, Margin: 0.08, RetentionDays: 30,
		Challenges: []string{api.ChallengeTurnLeft}}).Want(200)
	turn := func(start, peak float64) string {
		var ch api.FaceChallenge
		k.Do("POST", "/api/v1/face/challenge", nil).Want(201).JSON(&ch)
		var r api.FaceScanResult
		k.Do("POST", "/api/v1/face/scan", api.FaceScanInput{Model: model, Embedding: s.near(fa), Challenge: api.FaceChallengeResult{
			ID: ch.ID, Kind: ch.Kind, Passed: true, YawStart: f64(start), YawPeak: f64(peak), Frames: 6}}).Want(200).JSON(&r)
		return r.Outcome
	}
	if turn(2, -25) != api.ScanMatched || turn(2, 25) != api.ScanLivenessFailed || turn(20, -25) != api.ScanLivenessFailed || turn(0, -10) != api.ScanLivenessFailed {
		t.Fatal("turn_left rules")
	}

	// X-Kiosk-Token works as well as the bearer token.
	anon := s.env.Anonymous()
	anon.Do("GET", "/api/v1/face/kiosk", nil, "X-Kiosk-Token", created.Token).Want(200)
	// Revoked: 401 at once; the list shows it revoked, never the token.
	s.admin.Do("DELETE", fmt.Sprintf("/api/v1/settings/kiosks/%d", created.ID), nil).Want(http.StatusNoContent)
	s.admin.Do("DELETE", fmt.Sprintf("/api/v1/settings/kiosks/%d", created.ID), nil).Want(http.StatusNoContent)
	s.admin.Do("DELETE", "/api/v1/settings/kiosks/99999", nil).Want(404)
	if e := k.Do("POST", "/api/v1/face/challenge", nil).Want(401).Err(); e.Error.MessageCode != "face.kiosk_token_invalid" {
		t.Fatalf("revoked: %+v", e)
	}
	anon.Do("GET", "/api/v1/face/kiosk", nil, "X-Kiosk-Token", created.Token).Want(401)
	anon.Do("GET", "/api/v1/face/kiosk", nil, "X-Kiosk-Token", "kiosk_nonsense").Want(401)
	var list struct{ Data []api.Kiosk }
	lr := s.admin.Do("GET", "/api/v1/settings/kiosks", nil).Want(200)
	lr.JSON(&list)
	if len(list.Data) != 2 || list.Data[1].ID != created.ID || list.Data[1].RevokedAt == nil || list.Data[1].LastSeenAt == nil || contains(string(lr.Body), created.Token) {
		t.Fatalf("kiosks: %s", lr.Body)
	}
	var actions []string
	must(t, s.env.DB.Select(&actions, `SELECT action FROM audit_log WHERE entity = 'kiosk' ORDER BY id`))
	if len(actions) != 3 || actions[2] != "kiosk.revoke" {
		t.Fatalf("kiosk audit: %v", actions)
	}
	if fieldCode(t, s.admin.Do("POST", "/api/v1/settings/kiosks", api.KioskInput{Name: " "}).Want(422), "name") != "face.kiosk.name_required" {
		t.Fatal("empty kiosk name")
	}
}

// Withdrawing the consent deletes the embeddings: the next scan matches
// nobody.
func TestWithdrawnFaceIsNotRecognised(t *testing.T) {
	s := newSchool(t)
	s.blinkOnly(t, "07:00")
	a, _ := s.student(t, s.classA)
	fa := s.unit()
	s.consent(t, a)
	s.enrol(t, a, fa)
	k, _ := s.kiosk(t, "Gerbang")
	if r := scan(t, k, s.near(fa)); r.Outcome != api.ScanMatched {
		t.Fatalf("before: %+v", r)
	}
	s.bk.Do("DELETE", fmt.Sprintf("/api/v1/students/%d/face-consent", a), nil).Want(200)
	if r := scan(t, k, s.near(fa)); r.Outcome != api.ScanModelMismatch && r.Outcome != api.ScanUnknown || r.Student != nil {
		t.Fatalf("after: %+v", r)
	}
}

// Probe finding of issue 25: liveness relies on what the kiosk reports, so
// a stolen kiosk token could scan at machine speed. One kiosk gets at most
// KioskChallengesPerMinute challenges a minute (429 beyond, another kiosk
// unaffected), and two different students matched less than 1.5 s apart
// raise the kiosk's alarm, shown on the kiosk list and in the audit log.
func TestKioskGuard(t *testing.T) {
	s := newSchool(t)
	clock := jakarta(t, "2026-11-23 06:30:00")
	face.SetNow(t, func() time.Time { return clock })
	a, _ := s.student(t, s.classA)
	b, _ := s.student(t, s.classA)
	fa, fb := s.unit(), s.unit()
	for id, v := range map[int64][]float32{a: fa, b: fb} {
		s.consent(t, id)
		s.enrol(t, id, v)
	}
	s.blinkOnly(t, "07:00")
	k, created := s.kiosk(t, "Gerbang Utama")
	other, _ := s.kiosk(t, "Gerbang Belakang")

	// A then B 4 s apart: people can do that. B then A 0.8 s later: no.
	if r := scan(t, k, s.near(fa)); r.Outcome != api.ScanMatched {
		t.Fatalf("a: %+v", r)
	}
	clock = clock.Add(4 * time.Second)
	scan(t, k, s.near(fb))
	var kiosks struct{ Data []api.Kiosk }
	s.admin.Do("GET", "/api/v1/settings/kiosks", nil).Want(200).JSON(&kiosks)
	for _, ks := range kiosks.Data {
		if ks.AlarmCount != 0 {
			t.Fatalf("alarm after a 4 s gap: %+v", ks)
		}
	}
	clock = clock.Add(800 * time.Millisecond)
	if r := scan(t, k, s.near(fa)); r.Outcome != api.ScanMatched {
		t.Fatalf("fast match still records the arrival: %+v", r)
	}
	s.admin.Do("GET", "/api/v1/settings/kiosks", nil).Want(200).JSON(&kiosks)
	for _, ks := range kiosks.Data {
		if want := map[bool]int{true: 1, false: 0}[ks.ID == created.ID]; ks.AlarmCount != want || (want == 1) != (ks.AlarmAt != nil) {
			t.Fatalf("kiosk %s: alarm %d at %v", ks.Name, ks.AlarmCount, ks.AlarmAt)
		}
	}
	var n int
	must(t, s.env.DB.Get(&n, `SELECT count(*) FROM audit_log WHERE action = 'face.kiosk_alarm' AND details->>'gap_ms' = '800'`))
	if n != 1 {
		t.Fatalf("%d alarm audit entries", n)
	}

	// The rate limit: 3 challenges used above; up to the limit, then 429.
	old := face.KioskChallengesPerMinute
	face.KioskChallengesPerMinute = 5
	t.Cleanup(func() { face.KioskChallengesPerMinute = old })
	k.Do("POST", "/api/v1/face/challenge", nil).Want(201)
	k.Do("POST", "/api/v1/face/challenge", nil).Want(201)
	res := k.Do("POST", "/api/v1/face/challenge", nil, "Accept-Language", "en").Want(429)
	if res.Header.Get("Retry-After") == "" || !contains(string(res.Body), "challenges in the last minute") {
		t.Fatalf("429 without Retry-After or message: %s", res.Body)
	}
	other.Do("POST", "/api/v1/face/challenge", nil).Want(201)
	// A minute later the kiosk may ask again.
	clock = clock.Add(61 * time.Second)
	k.Do("POST", "/api/v1/face/challenge", nil).Want(201)
}
