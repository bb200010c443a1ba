package face_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// Consent: field errors, record, correct, withdraw (embeddings gone in the
// same transaction), audited.
func TestConsent(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	id, name := s.student(t, s.classA)
	path := fmt.Sprintf("/api/v1/students/%d/face-consent", id)

	r := s.bk.Do("PUT", path, api.FaceConsentInput{}).Want(422)
	for field, code := range map[string]string{"guardian_name": "face.consent.guardian_required", "relationship": "face.consent.relationship",
		"method": "face.consent.method", "given_on": "face.consent.given_on_format"} {
		if got := fieldCode(t, r, field); got != code {
			t.Errorf("%s: %q, want %q", field, got, code)
		}
	}
	in := consentInput()
	in.GivenOn, in.Reference = "2999-01-01", strings.Repeat("x", 201)
	r = s.bk.Do("PUT", path, in).Want(422)
	if fieldCode(t, r, "given_on") != "face.consent.given_on_future" || fieldCode(t, r, "reference") != "face.field.too_long" {
		t.Fatalf("future/too long: %s", r.Body)
	}
	in = consentInput()
	in.GivenOn = "2026-02-30"
	if fieldCode(t, s.bk.Do("PUT", path, in).Want(422), "given_on") != "face.consent.given_on_format" {
		t.Fatal("30 February accepted")
	}

	// Withdrawing what was never given.
	if e := s.bk.Do("DELETE", path, nil).Want(404).Err(); e.Error.MessageCode != "face.no_consent" {
		t.Fatalf("withdraw none: %+v", e)
	}

	var st api.FaceStatus
	s.bk.Do("PUT", path, consentInput()).Want(200).JSON(&st)
	if st.Consent == nil || st.Consent.GuardianName != "Ibu Sari" || st.StudentName != name || len(st.History) != 1 || st.Samples != 0 {
		t.Fatalf("recorded: %+v", st)
	}
	first := st.Consent.ID
	s.enrol(t, id, s.unit())
	// A second PUT corrects the active consent; the samples stay.
	in = consentInput()
	in.GuardianName, in.Relationship = "Bapak Budi", api.FaceRelFather
	s.bk.Do("PUT", path, in).Want(200).JSON(&st)
	if st.Consent == nil || st.Consent.ID != first || st.Consent.GuardianName != "Bapak Budi" || len(st.History) != 1 || st.Samples != 3 {
		t.Fatalf("corrected: %+v", st)
	}

	s.bk.Do("DELETE", path, map[string]string{"reason": "orang tua meminta"}).Want(200).JSON(&st)
	if st.Consent != nil || len(st.History) != 1 || st.History[0].WithdrawnAt == nil || st.History[0].WithdrawalReason != "orang tua meminta" || st.Samples != 0 {
		t.Fatalf("withdrawn: %+v", st)
	}
	var n int
	must(t, s.env.DB.Get(&n, `SELECT count(*) FROM face_embeddings WHERE student_id = $1`, id))
	if n != 0 {
		t.Fatalf("%d embeddings after withdrawal", n)
	}
	// A new consent after a withdrawal is a second record.
	s.bk.Do("PUT", path, consentInput()).Want(200).JSON(&st)
	if st.Consent == nil || st.Consent.ID == first || len(st.History) != 2 {
		t.Fatalf("again: %+v", st)
	}
	// Withdrawing without a body works too.
	s.bk.Do("DELETE", path, nil).Want(200)
	var actions []string
	must(t, s.env.DB.Select(&actions, `SELECT action FROM audit_log WHERE entity = 'student' AND entity_id = $1 ORDER BY id`, fmt.Sprint(id)))
	want := "face.consent_record face.enrol face.consent_record face.consent_withdraw face.consent_record face.consent_withdraw"
	if strings.Join(actions, " ") != want {
		t.Fatalf("audit: %v", actions)
	}
	s.bk.Do("GET", fmt.Sprintf("/api/v1/students/%d/face", id), nil).Want(200).JSON(&st)
	if st.Consent != nil || len(st.History) != 2 || st.History[0].WithdrawnAt == nil {
		t.Fatalf("status: %+v", st)
	}
	s.bk.Do("GET", "/api/v1/students/999999/face", nil).Want(404)
	s.bk.Do("PUT", "/api/v1/students/999999/face-consent", consentInput()).Want(404)
}

// Enrolment: consent first, 3–5 samples of one length of finite numbers,
// replaces earlier samples, refuses a face that matches another student,
// also when two enrolments race.
func TestEnrol(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	a, aName := s.student(t, s.classA)
	b, bName := s.student(t, s.classB)
	path := func(id int64) string { return fmt.Sprintf("/api/v1/students/%d/face-enrolments", id) }
	face := s.unit()

	if e := s.bk.Do("POST", path(a), api.FaceEnrolmentInput{Model: model, Embeddings: s.samples(face, 3)}).Want(409).Err(); e.Error.MessageCode != "face.no_consent" {
		t.Fatalf("no consent: %+v", e)
	}
	s.consent(t, a)
	for _, n := range []int{2, 6} {
		r := s.bk.Do("POST", path(a), api.FaceEnrolmentInput{Model: model, Embeddings: s.samples(face, n)}).Want(422)
		if fieldCode(t, r, "embeddings") != "face.embeddings.count" {
			t.Fatalf("%d samples: %s", n, r.Body)
		}
	}
	if fieldCode(t, s.bk.Do("POST", path(a), api.FaceEnrolmentInput{Model: " ", Embeddings: s.samples(face, 3)}).Want(422), "model") != "face.model.required" {
		t.Fatal("empty model accepted")
	}
	short := s.samples(face, 3)
	short[1] = short[1][:8]
	if fieldCode(t, s.bk.Do("POST", path(a), api.FaceEnrolmentInput{Model: model, Embeddings: short}).Want(422), "embeddings.1") != "face.embedding.dims" {
		t.Fatal("8 numbers accepted")
	}
	uneven := s.samples(face, 3)
	uneven[2] = uneven[2][:64]
	if fieldCode(t, s.bk.Do("POST", path(a), api.FaceEnrolmentInput{Model: model, Embeddings: uneven}).Want(422), "embeddings.2") != "face.embeddings.lengths" {
		t.Fatal("unequal lengths accepted")
	}
	zero := s.samples(face, 3)
	zero[0] = make([]float32, 128)
	if fieldCode(t, s.bk.Do("POST", path(a), api.FaceEnrolmentInput{Model: model, Embeddings: zero}).Want(422), "embeddings.0") != "face.embedding.zero" {
		t.Fatal("zero vector accepted")
	}
	// Values JSON can carry but float32 cannot, and "NaN" as a string.
	raw := func(bad string) []byte {
		nums := strings.TrimSuffix(strings.Repeat("0.1,", 127), ",")
		ok := "[" + nums + ",0.2]"
		return []byte(`{"model":"` + model + `","embeddings":[` + ok + `,` + ok + `,[` + nums + `,` + bad + `]]}`)
	}
	for bad, code := range map[string]string{"1e39": "face.embedding.not_finite", "-1e400": "face.embedding.not_finite",
		`"NaN"`: "face.embedding.not_number", "null": "face.embedding.not_number"} {
		r := s.bk.Do("POST", path(a), raw(bad)).Want(422)
		if fieldCode(t, r, "embeddings.2") != code {
			t.Errorf("%s: %s", bad, r.Body)
		}
	}

	var st api.FaceStatus
	s.bk.Do("POST", path(a), api.FaceEnrolmentInput{Model: model, Embeddings: s.samples(face, 3)}).Want(201).JSON(&st)
	if st.Samples != 3 || st.Model != model || st.EnrolledAt == nil {
		t.Fatalf("enrolled: %+v", st)
	}
	// Again with 5: replaces (its own old samples do not count as a duplicate).
	s.bk.Do("POST", path(a), api.FaceEnrolmentInput{Model: model, Embeddings: s.samples(face, 5)}).Want(201).JSON(&st)
	if st.Samples != 5 {
		t.Fatalf("replaced: %+v", st)
	}

	// The same face for another student: refused naming both.
	s.consent(t, b)
	e := s.bk.Do("POST", path(b), api.FaceEnrolmentInput{Model: model, Embeddings: s.samples(face, 3)}, "Accept-Language", "en").Want(409).Err()
	if e.Error.MessageCode != "face.duplicate" || !contains(e.Error.Message, aName) || !contains(e.Error.Message, bName) ||
		!contains(e.Error.Message, "X IPA 1") || e.Error.Params["other_id"] != float64(a) || e.Error.Params["score"].(float64) < 0.9 {
		t.Fatalf("duplicate: %+v", e)
	}
	var n int
	must(t, s.env.DB.Get(&n, `SELECT count(*) FROM face_embeddings WHERE student_id = $1`, b))
	if n != 0 {
		t.Fatalf("%d embeddings stored for the duplicate", n)
	}
	// Another face for b is fine.
	s.bk.Do("POST", path(b), api.FaceEnrolmentInput{Model: model, Embeddings: s.samples(s.unit(), 3)}).Want(201)

	// Two enrolments of one new face for two students at once: one wins.
	c, _ := s.student(t, s.classB)
	d, _ := s.student(t, s.classB)
	s.consent(t, c)
	s.consent(t, d)
	twin := s.unit()
	inC := api.FaceEnrolmentInput{Model: model, Embeddings: s.samples(twin, 3)}
	inD := api.FaceEnrolmentInput{Model: model, Embeddings: s.samples(twin, 3)}
	for round := 0; round < 3; round++ {
		var wg sync.WaitGroup
		codes := make([]int, 2)
		for i, x := range []struct {
			id int64
			in api.FaceEnrolmentInput
		}{{c, inC}, {d, inD}} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				codes[i] = s.bk.Do("POST", path(x.id), x.in).Status
			}()
		}
		wg.Wait()
		if !(codes[0] == 201 && codes[1] == 409 || codes[0] == 409 && codes[1] == 201) {
			t.Fatalf("race %d: %v", round, codes)
		}
		s.bk.Do("DELETE", path(c), nil).Want(200)
		s.bk.Do("DELETE", path(d), nil).Want(200)
	}

	// Deleting samples keeps the consent.
	s.bk.Do("DELETE", path(a), nil).Want(200).JSON(&st)
	if st.Samples != 0 || st.Consent == nil {
		t.Fatalf("deleted: %+v", st)
	}
}

// Permissions and the homeroom teacher's scope.
func TestPermissionsAndScope(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	own, _ := s.student(t, s.classA)
	other, _ := s.student(t, s.classB)
	staff := s.env.As(perm.Staff)
	for _, c := range []struct{ method, path string }{
		{"PUT", fmt.Sprintf("/api/v1/students/%d/face-consent", own)},
		{"DELETE", fmt.Sprintf("/api/v1/students/%d/face-consent", own)},
		{"POST", fmt.Sprintf("/api/v1/students/%d/face-enrolments", own)},
		{"DELETE", fmt.Sprintf("/api/v1/students/%d/face-enrolments", own)},
		{"GET", "/api/v1/face/scans"},
		{"GET", "/api/v1/face/confirmations"},
		{"POST", "/api/v1/face/scans/1/resolve"},
		{"GET", "/api/v1/settings/kiosks"},
		{"POST", "/api/v1/settings/kiosks"},
		{"DELETE", "/api/v1/settings/kiosks/1"},
		{"GET", "/api/v1/settings/face"},
		{"PUT", "/api/v1/settings/face"},
	} {
		staff.Do(c.method, c.path, map[string]any{}).Want(403)
		s.wali.Do(c.method, c.path, map[string]any{}).Want(403)
	}
	// BK has everything but face.manage by default.
	s.bk.Do("GET", "/api/v1/settings/kiosks", nil).Want(403)
	s.bk.Do("GET", "/api/v1/face/scans", nil).Want(200)
	// A role without students.view does not see the status.
	other2 := s.env.As(perm.Other)
	if !hasPerm(perm.Defaults(perm.Other), perm.StudentsView) {
		other2.Do("GET", fmt.Sprintf("/api/v1/students/%d/face", own), nil).Want(403)
	}

	// The homeroom teacher granted face.consent and face.enrol acts on
	// their own class only; another class's student is 404.
	grants := append(perm.Defaults(perm.WaliKelas), perm.FaceConsent, perm.FaceEnrol)
	s.admin.Do("PUT", "/api/v1/roles/wali_kelas/permissions", map[string]any{"permissions": grants}).Want(200)
	s.wali.Do("PUT", fmt.Sprintf("/api/v1/students/%d/face-consent", own), consentInput()).Want(200)
	s.wali.Do("GET", fmt.Sprintf("/api/v1/students/%d/face", own), nil).Want(200)
	s.wali.Do("POST", fmt.Sprintf("/api/v1/students/%d/face-enrolments", own), api.FaceEnrolmentInput{Model: model, Embeddings: s.samples(s.unit(), 3)}).Want(201)
	s.bk.Do("PUT", fmt.Sprintf("/api/v1/students/%d/face-consent", other), consentInput()).Want(200)
	for _, c := range []struct {
		method, path string
		body         any
	}{
		{"GET", fmt.Sprintf("/api/v1/students/%d/face", other), nil},
		{"PUT", fmt.Sprintf("/api/v1/students/%d/face-consent", other), consentInput()},
		{"DELETE", fmt.Sprintf("/api/v1/students/%d/face-consent", other), nil},
		{"POST", fmt.Sprintf("/api/v1/students/%d/face-enrolments", other), api.FaceEnrolmentInput{Model: model, Embeddings: s.samples(s.unit(), 3)}},
		{"DELETE", fmt.Sprintf("/api/v1/students/%d/face-enrolments", other), nil},
	} {
		s.wali.Do(c.method, c.path, c.body).Want(404)
	}
	var active int
	must(t, s.env.DB.Get(&active, `SELECT count(*) FROM face_consents WHERE student_id = $1 AND withdrawn_at IS NULL`, other))
	if active != 1 {
		t.Fatal("the out-of-scope consent changed")
	}

	// A kiosk token opens nothing but the kiosk routes; a session cannot
	// scan or ask for a challenge.
	k, _ := s.kiosk(t, "Gerbang")
	k.Do("GET", "/api/v1/students", nil).Want(401)
	k.Do("GET", "/api/v1/face/scans", nil).Want(401)
	k.Do("GET", "/api/v1/auth/me", nil).Want(401)
	k.Do("GET", "/api/v1/face/kiosk", nil).Want(200)
	for _, c := range []struct{ method, path string }{{"POST", "/api/v1/face/scan"}, {"POST", "/api/v1/face/challenge"}, {"GET", "/api/v1/face/kiosk"}} {
		if e := s.admin.Do(c.method, c.path, map[string]any{}).Want(401).Err(); e.Error.MessageCode != "face.kiosk_token_invalid" {
			t.Fatalf("session on %s: %+v", c.path, e)
		}
		s.env.Anonymous().Do(c.method, c.path, map[string]any{}).Want(401)
	}
}

func hasPerm(list []perm.Name, p perm.Name) bool {
	for _, x := range list {
		if x == p {
			return true
		}
	}
	return false
}
