package portal_test

import (
	"testing"

	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// Students sign in with NISN and a printed code only while the school
// allows it, and see their own record only.
func TestStudentSignIn(t *testing.T) {
	f := newFamily(t, false)
	sari := f.school.Student(t, "Sari Lestari", "Bu Lestari", "0812-9999-8888")
	var nisn string
	if err := f.env.DB.Get(&nisn, `SELECT nisn FROM students WHERE id = $1`, f.student); err != nil {
		t.Fatal(err)
	}
	bk := f.env.As(perm.BK)
	code := "/api/v1/students/" + itoa(f.student) + "/portal-code"
	bk.Do("POST", code, nil).Want(409) // off by default
	f.env.Anonymous().Do("POST", "/api/v1/portal/auth/student", api.PortalStudentSignIn{NISN: nisn, Code: "12345678"}).Want(409)

	f.env.As(perm.Admin).Do("PUT", "/api/v1/settings/portal", api.PortalSettings{Students: true}).Want(200)
	var ac api.ActivationCode
	bk.Do("POST", code, nil).Want(201).JSON(&ac)
	f.env.Anonymous().Do("POST", "/api/v1/portal/auth/student", api.PortalStudentSignIn{NISN: nisn, Code: "00000000"}).Want(401)
	var out api.PortalVerifyAnswer
	f.env.Anonymous().Do("POST", "/api/v1/portal/auth/student", api.PortalStudentSignIn{NISN: nisn, Code: ac.Code}).Want(200).JSON(&out)
	s := f.env.Anonymous()
	s.Token = out.Token

	var list struct{ Data []api.PortalChild }
	s.Do("GET", "/api/v1/portal/children", nil).Want(200).JSON(&list)
	if len(list.Data) != 1 || list.Data[0].ID != f.student {
		t.Fatalf("%+v", list.Data)
	}
	s.Do("GET", "/api/v1/portal/children/"+itoa(f.student), nil).Want(200)
	s.Do("GET", "/api/v1/portal/children/"+itoa(sari), nil).Want(404)
	s.Do("POST", "/api/v1/portal/children/"+itoa(f.student)+"/excuses", api.ExcuseInput{Kind: "sakit", From: "2026-01-01", Reason: "x"}).Want(403)
	s.Do("POST", "/api/v1/portal/consent/withdraw", nil).Want(403)
	s.Do("GET", "/api/v1/auth/me", nil).Want(401)

	// Switching students off ends their sessions.
	f.env.As(perm.Admin).Do("PUT", "/api/v1/settings/portal", api.PortalSettings{Students: false}).Want(200)
	s.Do("GET", "/api/v1/portal/me", nil).Want(401)
}
