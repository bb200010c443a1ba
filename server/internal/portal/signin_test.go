package portal_test

import (
	"net/http"
	"regexp"
	"sync"
	"testing"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/parentmsg/worker/outboxtest"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// family is a school with one student whose parent phone student affairs
// gave, and the messaging gateway configured (nothing is sent: the
// tests read the outbox).
type family struct {
	env     *apitest.Env
	school  *outboxtest.School
	student int64
}

const parentPhone = "6281234567890"

func newFamily(t *testing.T, gateway bool) *family {
	t.Helper()
	env := apitest.New(t)
	s := outboxtest.New(t, env.DB)
	if gateway {
		outboxtest.Configure(t, env.DB, "http://127.0.0.1:9", nil)
	}
	return &family{env: env, school: s, student: s.Student(t, "Budi Santoso", "Pak Santoso", "0812-3456-7890")}
}

var sixDigits = regexp.MustCompile(`\b[0-9]{6}\b`)

// code requests a code for phone and reads it from the outbox.
func (f *family) code(t *testing.T, phone string) string {
	t.Helper()
	f.env.Anonymous().Do("POST", "/api/v1/portal/auth/request-code", map[string]string{"phone": phone}).Want(http.StatusAccepted)
	var body string
	if err := f.env.DB.Get(&body, `SELECT body FROM parent_messages WHERE event = 'portal_code' ORDER BY id DESC LIMIT 1`); err != nil {
		t.Fatal(err)
	}
	return sixDigits.FindString(body)
}

// guardian signs the phone in and returns a portal client.
func (f *family) guardian(t *testing.T, phone string) *apitest.Client {
	t.Helper()
	var out api.PortalVerifyAnswer
	f.env.Anonymous().Do("POST", "/api/v1/portal/auth/verify", map[string]string{"phone": phone, "code": f.code(t, phone)}).
		Want(http.StatusOK).JSON(&out)
	c := f.env.Anonymous()
	c.Token = out.Token
	return c
}

func TestSignIn(t *testing.T) {
	f := newFamily(t, true)
	anon := f.env.Anonymous()

	t.Run("OK", func(t *testing.T) {
		g := f.guardian(t, "0812 3456 7890")
		var me api.PortalGuardian
		g.Do("GET", "/api/v1/portal/me", nil).Want(200).JSON(&me)
		if me.Phone != parentPhone || me.Name != "Pak Santoso" || me.ConsentAt == nil || me.ConsentChannel != "whatsapp_code" {
			t.Fatalf("%+v", me)
		}
		// A portal session never reaches a staff route, nor a staff one the portal.
		g.Do("GET", "/api/v1/auth/me", nil).Want(401)
		g.Do("GET", "/api/v1/guardians", nil).Want(401)
		f.env.As(perm.BK).Do("GET", "/api/v1/portal/me", nil).Want(401)
		var n int
		if err := f.env.DB.Get(&n, `SELECT count(*) FROM audit_log WHERE action = 'portal.consent'`); err != nil || n != 1 {
			t.Fatalf("consent audited %d times (%v)", n, err)
		}
		g.Do("POST", "/api/v1/portal/auth/logout-all", nil).Want(204)
		g.Do("GET", "/api/v1/portal/me", nil).Want(401)
	})
	t.Run("UnknownPhoneSameAnswer", func(t *testing.T) {
		var known, unknown map[string]any
		anon.Do("POST", "/api/v1/portal/auth/request-code", map[string]string{"phone": "0813-0000-1111"}).Want(202).JSON(&unknown)
		anon.Do("POST", "/api/v1/portal/auth/request-code", map[string]string{"phone": parentPhone}).Want(202).JSON(&known)
		if len(known) != len(unknown) || known["sent"] != unknown["sent"] {
			t.Fatalf("%v vs %v", known, unknown)
		}
		var n int
		if err := f.env.DB.Get(&n, `SELECT count(*) FROM parent_messages WHERE phone = '6281300001111'`); err != nil || n != 0 {
			t.Fatalf("%d messages to an unknown phone (%v)", n, err)
		}
	})
	t.Run("ErrFiveTries", func(t *testing.T) {
		other := f.school.Student(t, "Sari", "Bu Sari", "0812-1111-2222")
		_ = other
		code := f.code(t, "081211112222")
		wrong := "000000"
		if code == wrong {
			wrong = "111111"
		}
		for range 5 {
			anon.Do("POST", "/api/v1/portal/auth/verify", map[string]string{"phone": "081211112222", "code": wrong}).Want(401)
		}
		anon.Do("POST", "/api/v1/portal/auth/verify", map[string]string{"phone": "081211112222", "code": code}).Want(401)
	})
	t.Run("ErrThrottled", func(t *testing.T) {
		for i := range 4 {
			res := anon.Do("POST", "/api/v1/portal/auth/request-code", map[string]string{"phone": "0857-9999-0000"})
			if want := map[bool]int{true: 429, false: 202}[i == 3]; res.Status != want {
				t.Fatalf("request %d: %d, want %d", i+1, res.Status, want)
			}
		}
	})
	t.Run("ErrInvalid", func(t *testing.T) {
		if e := anon.Do("POST", "/api/v1/portal/auth/request-code", map[string]string{"phone": "abc"}).Want(422).Err(); e.Error.Fields["phone"] == "" {
			t.Fatalf("%+v", e)
		}
		anon.Do("POST", "/api/v1/portal/auth/verify", map[string]string{"phone": parentPhone, "code": "12"}).Want(422)
	})
	t.Run("Withdraw", func(t *testing.T) {
		g := f.guardian(t, parentPhone)
		g.Do("POST", "/api/v1/portal/consent/withdraw", nil).Want(204)
		g.Do("GET", "/api/v1/portal/me", nil).Want(401)
		var withdrawn bool
		if err := f.env.DB.Get(&withdrawn, `SELECT withdrawn_at IS NOT NULL FROM guardians WHERE phone = $1`, parentPhone); err != nil || !withdrawn {
			t.Fatalf("withdrawn %v %v", withdrawn, err)
		}
	})
}

func TestActivationCode(t *testing.T) {
	f := newFamily(t, false)
	bk := f.env.As(perm.BK)
	// Without a gateway nothing is queued; staff print a code instead.
	f.env.Anonymous().Do("POST", "/api/v1/portal/auth/request-code", map[string]string{"phone": parentPhone}).Want(202)
	var list struct{ Data []api.Guardian }
	bk.Do("GET", "/api/v1/guardians?student_id="+itoa(f.student), nil).Want(200).JSON(&list)
	if len(list.Data) != 1 || list.Data[0].Phone != parentPhone {
		t.Fatalf("%+v", list)
	}
	gid := itoa(list.Data[0].ID)

	// A homeroom teacher of another class reaches neither the guardian nor the student.
	wk := f.env.As(perm.WaliKelas)
	if _, err := f.env.DB.Exec(`INSERT INTO classes (name, grade, homeroom_teacher_id) VALUES ('X-9', 10, $1)`, wk.UserID); err != nil {
		t.Fatal(err)
	}
	wk.Do("POST", "/api/v1/guardians/"+gid+"/activation-code", nil).Want(404)
	wk.Do("POST", "/api/v1/guardians/"+gid+"/revoke-sessions", nil).Want(404)
	wk.Do("GET", "/api/v1/guardians", nil).Want(200).JSON(&list)
	if len(list.Data) != 0 {
		t.Fatalf("homeroom teacher of another class sees %+v", list.Data)
	}
	f.env.As(perm.Staff).Do("POST", "/api/v1/guardians/"+gid+"/activation-code", nil).Want(403)

	var ac api.ActivationCode
	bk.Do("POST", "/api/v1/guardians/"+gid+"/activation-code", nil).Want(201).JSON(&ac)
	var out api.PortalVerifyAnswer
	f.env.Anonymous().Do("POST", "/api/v1/portal/auth/verify", map[string]string{"phone": parentPhone, "code": ac.Code}).Want(200).JSON(&out)
	if out.Guardian.ConsentChannel != "activation_code" {
		t.Fatalf("%+v", out.Guardian)
	}
	// Used once only.
	f.env.Anonymous().Do("POST", "/api/v1/portal/auth/verify", map[string]string{"phone": parentPhone, "code": ac.Code}).Want(401)
	g := f.env.Anonymous()
	g.Token = out.Token
	g.Do("GET", "/api/v1/portal/me", nil).Want(200)
	bk.Do("POST", "/api/v1/guardians/"+gid+"/revoke-sessions", nil).Want(204)
	g.Do("GET", "/api/v1/portal/me", nil).Want(401)
}

func TestThreeGuardians(t *testing.T) {
	f := newFamily(t, false)
	bk := f.env.As(perm.BK)
	add := func(phone string) *apitest.Response {
		return bk.Do("POST", "/api/v1/guardians", api.GuardianInput{StudentID: f.student, Name: "Wali " + phone, Phone: phone, Relation: "ibu"})
	}
	add("081300000001").Want(201)
	add("081300000001").Want(409)
	add("081300000002").Want(201)
	// Two racing requests for the one slot left: exactly one wins.
	var wg sync.WaitGroup
	status := make([]int, 2)
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			status[i] = add("08130000001" + itoa(int64(i+3))).Status
		}()
	}
	wg.Wait()
	if status[0]+status[1] != 201+409 {
		t.Fatalf("racing adds: %v", status)
	}
	var n int
	if err := f.env.DB.Get(&n, `SELECT count(*) FROM guardian_students WHERE student_id = $1`, f.student); err != nil || n != 3 {
		t.Fatalf("%d guardians (%v)", n, err)
	}
	e := add("081300000009").Want(409).Err()
	if e.Error.MessageCode != "portal.guardians_full" {
		t.Fatalf("%+v", e)
	}
	bk.Do("POST", "/api/v1/guardians", api.GuardianInput{StudentID: f.student, Phone: "x", Relation: "paman"}).Want(422)
}
