package portal_test

import (
	"fmt"
	"testing"

	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

func TestRegister(t *testing.T) {
	f := newFamily(t, true)
	if _, err := f.env.DB.Exec(`UPDATE students SET date_of_birth = '2010-05-17' WHERE id = $1`, f.student); err != nil {
		t.Fatal(err)
	}
	var nisn string
	if err := f.env.DB.Get(&nisn, `SELECT nisn FROM students WHERE id = $1`, f.student); err != nil {
		t.Fatal(err)
	}
	anon := f.env.Anonymous()
	reg := func(phone, dob string) string {
		var out api.PortalRegistrationAnswer
		anon.Do("POST", "/api/v1/portal/register", api.PortalRegistration{NISN: nisn, DateOfBirth: dob, Phone: phone, Name: "Ibu Budi", Relationship: "ibu"}).
			Want(202).JSON(&out)
		return out.Status
	}
	t.Run("PhoneMatchVerified", func(t *testing.T) {
		if s := reg("+62 812 3456 7890", "2010-05-17"); s != api.GuardianLinkVerified {
			t.Fatalf("status %s", s)
		}
	})
	t.Run("NoMatchLooksPending", func(t *testing.T) {
		if s := reg("081377776666", "2011-01-01"); s != api.GuardianLinkPending {
			t.Fatalf("status %s", s)
		}
		var n int
		if err := f.env.DB.Get(&n, `SELECT count(*) FROM guardians WHERE phone = '6281377776666'`); err != nil || n != 0 {
			t.Fatalf("a guardian for a wrong date of birth: %d %v", n, err)
		}
	})
	t.Run("OtherPhoneQueuedThenVerified", func(t *testing.T) {
		if s := reg("081355554444", "2010-05-17"); s != api.GuardianLinkPending {
			t.Fatalf("status %s", s)
		}
		bk := f.env.As(perm.BK)
		var list struct{ Data []api.Guardian }
		bk.Do("GET", "/api/v1/guardians?status=pending", nil).Want(200).JSON(&list)
		if len(list.Data) != 1 || list.Data[0].Phone != "6281355554444" {
			t.Fatalf("%+v", list.Data)
		}
		gid := itoa(list.Data[0].ID)
		// Not a child of theirs yet: no code goes to a pending guardian.
		anon.Do("POST", "/api/v1/portal/auth/request-code", map[string]string{"phone": "081355554444"}).Want(202)
		var queued int
		if err := f.env.DB.Get(&queued, `SELECT count(*) FROM parent_messages WHERE phone = '6281355554444'`); err != nil || queued != 0 {
			t.Fatalf("%d codes to a pending guardian (%v)", queued, err)
		}
		bk.Do("POST", "/api/v1/guardians/"+gid+"/verify", api.GuardianVerification{StudentID: f.student}).Want(422)
		bk.Do("POST", "/api/v1/guardians/"+gid+"/verify", api.GuardianVerification{StudentID: f.student, Approve: true}).Want(204)
		bk.Do("POST", "/api/v1/guardians/"+gid+"/verify", api.GuardianVerification{StudentID: f.student, Approve: true}).Want(409)
		f.guardian(t, "081355554444").Do("GET", "/api/v1/portal/children/"+itoa(f.student), nil).Want(200)
		var regs struct{ Data []api.PortalRegistrationRow }
		bk.Do("GET", "/api/v1/guardians/registrations", nil).Want(200).JSON(&regs)
		if len(regs.Data) != 3 || regs.Data[0].Outcome != "approved" {
			t.Fatalf("%+v", regs.Data)
		}
		var codes, sessions struct{ Data []map[string]any }
		bk.Do("GET", "/api/v1/guardians/code-requests", nil).Want(200).JSON(&codes)
		bk.Do("GET", "/api/v1/guardians/sessions", nil).Want(200).JSON(&sessions)
		if len(codes.Data) == 0 || len(sessions.Data) != 1 {
			t.Fatalf("codes %d sessions %d", len(codes.Data), len(sessions.Data))
		}
	})
	t.Run("Refused", func(t *testing.T) {
		reg("081322223333", "2010-05-17")
		var gid int64
		if err := f.env.DB.Get(&gid, `SELECT id FROM guardians WHERE phone = '6281322223333'`); err != nil {
			t.Fatal(err)
		}
		f.env.As(perm.BK).Do("POST", "/api/v1/guardians/"+itoa(gid)+"/verify", api.GuardianVerification{StudentID: f.student, Reason: "Bukan wali"}).Want(204)
		var n int
		if err := f.env.DB.Get(&n, `SELECT count(*) FROM guardian_students WHERE guardian_id = $1`, gid); err != nil || n != 0 {
			t.Fatalf("%d links after refusal (%v)", n, err)
		}
	})
	t.Run("ErrThrottledAndInvalid", func(t *testing.T) {
		anon.Do("POST", "/api/v1/portal/register", api.PortalRegistration{NISN: "12", DateOfBirth: "x", Phone: "y"}).Want(422)
		// Four registrations above came from this address; six more reach the limit of ten.
		for i := range 6 {
			anon.Do("POST", "/api/v1/portal/register", api.PortalRegistration{NISN: "0000000000", DateOfBirth: "2010-01-01", Phone: fmt.Sprintf("0813000000%02d", i), Name: "X"}).Want(202)
		}
		anon.Do("POST", "/api/v1/portal/register", api.PortalRegistration{NISN: "0000000000", DateOfBirth: "2010-01-01", Phone: "081300000099", Name: "X"}).Want(429)
	})
}
