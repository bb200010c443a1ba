package portal_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// A warning letter printed with a guardian's activation code: the code on
// the PDF signs the guardian in; a guardian of another child, a homeroom
// teacher of another class and a role without guardians.manage are refused.
func TestLetterActivationCode(t *testing.T) {
	f := newFamily(t, false)
	f.school.Student(t, "Sari Lestari", "Bu Lestari", "0812-9999-8888")
	bk := f.env.As(perm.BK)
	var list struct{ Data []api.Guardian }
	bk.Do("GET", "/api/v1/guardians", nil).Want(200).JSON(&list)
	ids := map[string]int64{}
	for _, g := range list.Data {
		ids[g.Phone] = g.ID
	}
	var letter int64
	if err := f.env.DB.Get(&letter, `INSERT INTO warning_letters (student_id, level, name, min_points, academic_year_start, points, status)
		VALUES ($1, 1, 'SP 1', 10, date_trunc('year', now())::date, 10, 'draft') RETURNING id`, f.student); err != nil {
		t.Fatal(err)
	}
	path := "/api/v1/warning-letters/" + itoa(letter) + "/activation-pdf"
	bk.Do("POST", path, map[string]int64{"guardian_id": ids["6281299998888"]}).Want(404) // Sari's guardian
	bk.Do("POST", path, map[string]int64{}).Want(422)
	f.env.As(perm.Staff).Do("POST", path, map[string]int64{"guardian_id": ids[parentPhone]}).Want(403)
	wk := f.env.As(perm.WaliKelas)
	if _, err := f.env.DB.Exec(`INSERT INTO classes (name, grade, homeroom_teacher_id) VALUES ('X-9', 10, $1)`, wk.UserID); err != nil {
		t.Fatal(err)
	}
	wk.Do("POST", path, map[string]int64{"guardian_id": ids[parentPhone]}).Want(404)

	res := bk.Do("POST", path, map[string]int64{"guardian_id": ids[parentPhone]}).Want(200)
	if res.Header.Get("Content-Type") != "application/pdf" {
		t.Fatalf("%s", res.Header)
	}
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext not installed")
	}
	file := filepath.Join(t.TempDir(), "sp.pdf")
	if err := os.WriteFile(file, res.Body, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", file, "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	text := string(out)
	code := regexp.MustCompile(`(?m)^\s*([0-9]{8})\s*$`).FindStringSubmatch(text)
	if !strings.Contains(text, "Portal orang tua: kode aktivasi") || !strings.Contains(text, "+"+parentPhone) || !strings.Contains(text, "/ortu/") || code == nil {
		t.Fatalf("no activation code on the letter:\n%s", text)
	}
	var ans api.PortalVerifyAnswer
	f.env.Anonymous().Do("POST", "/api/v1/portal/auth/verify", map[string]string{"phone": parentPhone, "code": code[1]}).Want(200).JSON(&ans)
	if ans.Guardian.ConsentChannel != "activation_code" {
		t.Fatalf("%+v", ans.Guardian)
	}
}
