package letter_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"mime/multipart"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/config"
	"github.com/tatib/tatib/server/internal/letter"
	"github.com/tatib/tatib/server/internal/violationtype"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// fixture is a school with two classes, a homeroom teacher of class A and
// letters inserted directly (the violation package issues them in
// production).
type fixture struct {
	env            *apitest.Env
	bk, admin      *apitest.Client
	wali           *apitest.Client
	classA, classB int64
	// typeID is a violation type of 30 points, typeID2 of 25.
	typeID, typeID2 int64
	// yearStart is the academic year (YYYY-MM-DD) the letter helper stores
	// letters for: the one running today unless a test sets it.
	yearStart string
	// manyOpen: the letter helper leaves a student's open letters open
	// (see allowManyOpen).
	manyOpen bool
}

// allowManyOpen lets this test's own database hold several open letters of
// a student's year, which the ledger's index warning_letters_one_open_key
// forbids, to check the guards that stand behind it.
func (f *fixture) allowManyOpen(t *testing.T) {
	t.Helper()
	f.env.DB.MustExec(`DROP INDEX warning_letters_one_open_key`)
	f.manyOpen = true
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func setup(t *testing.T, opts ...func(*config.Config)) *fixture {
	t.Helper()
	env := apitest.New(t, opts...)
	must(t, violationtype.Boot(context.Background(), env.Deps))
	f := &fixture{env: env, bk: env.As(perm.BK), admin: env.As(perm.Admin), wali: env.As(perm.WaliKelas),
		yearStart: currentYearStart().Format(time.DateOnly)}
	db := env.DB
	must(t, db.Get(&f.classA, `INSERT INTO classes (name, grade, homeroom_teacher_id) VALUES ('XI IPA 1', 11, $1) RETURNING id`, f.wali.UserID))
	must(t, db.Get(&f.classB, `INSERT INTO classes (name, grade) VALUES ('XI IPS 2', 11) RETURNING id`))
	must(t, db.Get(&f.typeID, `INSERT INTO violation_types (name, slug, points, category_id)
		SELECT 'Berkelahi di lingkungan sekolah', 'berkelahi-uji', 30, id FROM violation_categories ORDER BY id LIMIT 1 RETURNING id`))
	must(t, db.Get(&f.typeID2, `INSERT INTO violation_types (name, slug, points, category_id)
		SELECT 'Merokok', 'merokok-uji', 25, id FROM violation_categories ORDER BY id LIMIT 1 RETURNING id`))
	return f
}

// seq numbers the students tests create; parallel tests share it.
var seq atomic.Int64

// currentYearStart is the start of the academic year running today in
// Jakarta by the default setting (1 July).
func currentYearStart() time.Time {
	j, _ := time.LoadLocation("Asia/Jakarta")
	y, m, d := time.Now().In(j).Date()
	day := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	s := time.Date(y, time.July, 1, 0, 0, 0, 0, time.UTC)
	if s.After(day) {
		s = s.AddDate(-1, 0, 0)
	}
	return s
}

// student stores a student in class.
func (f *fixture) student(t *testing.T, name, nisn string, class int64) int64 {
	t.Helper()
	n := 1000 + seq.Add(1)
	var id int64
	must(t, f.env.DB.Get(&id, `INSERT INTO students (source_id, full_name, nisn, class_id, parent_name) VALUES ($1, $2, $3, $4, 'Bapak Hartono') RETURNING id`,
		n, name, nisn, class))
	return id
}

// violation stores a violation of type on day (Jakarta noon), recorded at
// created.
func (f *fixture) violation(t *testing.T, student, typeID, class int64, day string, points int, created time.Time) {
	t.Helper()
	at, err := time.Parse(time.DateTime, day+" 05:00:00")
	must(t, err)
	_, err = f.env.DB.Exec(`INSERT INTO violations (student_id, class_id, class_name, violation_type_id, occurred_at, occurred_on, points, created_at)
		VALUES ($1, $2, (SELECT name FROM classes WHERE id = $2), $3, $4, $5, $6, $7)`, student, class, typeID, at, day, points, created)
	must(t, err)
}

// letter stores a draft letter of level for student, issued at. A letter
// the student still had open that year is delivered first: a student has
// one open letter a year (a later level raises it; the next one starts
// after delivery).
func (f *fixture) letter(t *testing.T, student, class int64, level, points int, issued time.Time) int64 {
	t.Helper()
	if !f.manyOpen {
		f.env.DB.MustExec(`UPDATE warning_letters SET status = 'delivered', delivered_at = $3
			WHERE student_id = $1 AND academic_year_start = $2 AND status IN ('draft', 'printed', 'signed')`, student, f.yearStart, issued)
	}
	var id int64
	must(t, f.env.DB.Get(&id, `INSERT INTO warning_letters (student_id, class_id, class_name, level, name, min_points, academic_year_start, points, issued_at)
		VALUES ($1, $2, (SELECT name FROM classes WHERE id = $2), $3::int, 'SP ' || $3::int, $3::int * 50, $6, $4, $5) RETURNING id`,
		student, class, level, points, issued, f.yearStart))
	_, err := f.env.DB.Exec(`INSERT INTO warning_letter_events (letter_id, status, at, actor_name) VALUES ($1, 'draft', $2, 'sistem')`, id, issued)
	must(t, err)
	return id
}

type page struct {
	Data []letter.Letter `json:"data"`
	Meta api.PageMeta    `json:"meta"`
}

func ids(p page) []int64 {
	out := []int64{}
	for _, l := range p.Data {
		out = append(out, l.ID)
	}
	return out
}

func TestList(t *testing.T) {
	t.Parallel()
	f := setup(t)
	nov := time.Date(2026, 11, 23, 2, 0, 0, 0, time.UTC)
	a := f.student(t, "Ahmad Fauzi", "0011", f.classA)
	b := f.student(t, "Siti Rahmawati", "0022", f.classB)
	// moved from class A to B after the letter: the wali still sees it.
	moved := f.student(t, "Budi Santoso", "0033", f.classB)
	la1 := f.letter(t, a, f.classA, 1, 55, nov)
	la2 := f.letter(t, a, f.classA, 2, 110, nov.Add(time.Hour))
	lb := f.letter(t, b, f.classB, 1, 60, time.Date(2026, 10, 1, 3, 0, 0, 0, time.UTC))
	lm := f.letter(t, moved, f.classA, 1, 50, time.Date(2026, 9, 1, 3, 0, 0, 0, time.UTC))
	// issued 2026-12-01 00:30 Jakarta = 2026-11-30 17:30 UTC: the Jakarta
	// day counts.
	late := f.letter(t, b, f.classB, 2, 100, time.Date(2026, 11, 30, 17, 30, 0, 0, time.UTC))

	var p page
	f.bk.Do("GET", "/api/v1/warning-letters", nil).Want(200).JSON(&p)
	if got := ids(p); fmt.Sprint(got) != fmt.Sprint([]int64{late, la2, la1, lb, lm}) || p.Meta.Total != 5 {
		t.Fatalf("all: %v total %d", got, p.Meta.Total)
	}
	first := p.Data[0]
	// Not printed yet: no number; it covers its own level.
	if first.StudentName != "Siti Rahmawati" || first.StudentNISN != "0022" || first.Number != nil || first.VerifyCode != nil ||
		fmt.Sprint(first.LevelsCovered) != "[2]" {
		t.Errorf("row %+v", first)
	}

	for _, tc := range []struct {
		query string
		want  []int64
	}{
		{"?student_id=" + strconv.FormatInt(a, 10), []int64{la2, la1}},
		{"?level=1", []int64{la1, lb, lm}},
		{"?class_id=" + strconv.FormatInt(f.classB, 10), []int64{late, lb}},
		{"?status=draft&level=2", []int64{late, la2}},
		{"?status=printed", []int64{}},
		{"?from=2026-11-23&to=2026-11-23", []int64{la2, la1}},
		{"?from=2026-12-01", []int64{late}},
		{"?to=2026-10-01", []int64{lb, lm}},
		{"?per_page=2&page=2", []int64{la1, lb}},
	} {
		f.bk.Do("GET", "/api/v1/warning-letters"+tc.query, nil).Want(200).JSON(&p)
		if fmt.Sprint(ids(p)) != fmt.Sprint(tc.want) {
			t.Errorf("%s: %v, want %v", tc.query, ids(p), tc.want)
		}
	}

	t.Run("HomeroomScope", func(t *testing.T) {
		f.wali.Do("GET", "/api/v1/warning-letters", nil).Want(200).JSON(&p)
		if fmt.Sprint(ids(p)) != fmt.Sprint([]int64{la2, la1, lm}) || p.Meta.Total != 3 {
			t.Errorf("wali sees %v (total %d)", ids(p), p.Meta.Total)
		}
		// A student who moved INTO class A: their old letter is visible too.
		_, err := f.env.DB.Exec(`UPDATE students SET class_id = $1 WHERE id = $2`, f.classA, b)
		must(t, err)
		f.wali.Do("GET", "/api/v1/warning-letters?class_id="+strconv.FormatInt(f.classB, 10), nil).Want(200).JSON(&p)
		if fmt.Sprint(ids(p)) != fmt.Sprint([]int64{late, lb}) {
			t.Errorf("wali after the move sees %v", ids(p))
		}
		_, err = f.env.DB.Exec(`UPDATE students SET class_id = $1 WHERE id = $2`, f.classB, b)
		must(t, err)
		e := f.wali.Do("GET", "/api/v1/warning-letters/"+strconv.FormatInt(lb, 10), nil).Want(404).Err()
		if e.Error.MessageCode != "letter.not_found" {
			t.Errorf("message_code %q", e.Error.MessageCode)
		}
		f.wali.Do("GET", "/api/v1/warning-letters/"+strconv.FormatInt(lb, 10)+"/pdf", nil).Want(404)
		f.wali.Do("GET", "/api/v1/warning-letters/"+strconv.FormatInt(lm, 10), nil).Want(200)
		// A homeroom teacher without a class sees nothing.
		f.env.As(perm.WaliKelas).Do("GET", "/api/v1/warning-letters", nil).Want(200).JSON(&p)
		if len(p.Data) != 0 {
			t.Errorf("classless wali sees %v", ids(p))
		}
	})

	t.Run("ErrBadFilter", func(t *testing.T) {
		for q, field := range map[string]string{
			"?student_id=x": "student_id", "?class_id=-1": "class_id", "?level=0": "level", "?level=a": "level",
			"?status=lost": "status", "?from=23-11-2026": "from", "?to=2026-02-30": "to",
			"?from=2026-11-02&to=2026-11-01": "to", "?page=0": "page",
		} {
			e := f.bk.Do("GET", "/api/v1/warning-letters"+q, nil).Want(422).Err()
			if _, ok := e.Error.FieldCodes[field]; !ok {
				t.Errorf("%s: field codes %+v", q, e.Error.FieldCodes)
			}
		}
	})

	t.Run("Permissions", func(t *testing.T) {
		other := f.env.As(perm.Other)
		other.Do("GET", "/api/v1/warning-letters", nil).Want(403)
		other.Do("GET", "/api/v1/warning-letters/"+strconv.FormatInt(la1, 10), nil).Want(403)
		other.Do("GET", "/api/v1/warning-letters/"+strconv.FormatInt(la1, 10)+"/pdf", nil).Want(403)
		f.wali.Do("POST", "/api/v1/warning-letters/"+strconv.FormatInt(la1, 10)+"/status", map[string]string{"status": "printed"}).Want(403)
		f.env.Anonymous().Do("GET", "/api/v1/warning-letters", nil).Want(401)
		f.bk.Do("GET", "/api/v1/warning-letters/999999", nil).Want(404)
	})
}

func TestStatus(t *testing.T) {
	t.Parallel()
	f := setup(t)
	st := f.student(t, "Ahmad Fauzi", "0011", f.classA)
	id := f.letter(t, st, f.classA, 1, 55, time.Now().Add(-time.Hour))
	path := "/api/v1/warning-letters/" + strconv.FormatInt(id, 10)
	step := func(c *apitest.Client, status string) *apitest.Response {
		return c.Do("POST", path+"/status", map[string]string{"status": status})
	}

	conflict := func(status, code string) apitest.ErrorBody {
		t.Helper()
		e := step(f.bk, status).Want(409).Err()
		if e.Error.MessageCode != code {
			t.Errorf("%s: message_code %q, want %q", status, e.Error.MessageCode, code)
		}
		return e
	}
	// Skipping a step.
	e := conflict("signed", "letter.status.step")
	if e.Error.Params["next"] != "printed" && !strings.Contains(e.Error.Message, "dicetak") {
		t.Errorf("step error: %+v", e.Error)
	}
	e = step(f.bk, "withdrawn").Want(422).Err()
	if e.Error.FieldCodes["status"].Code != "letter.status.choose" {
		t.Errorf("field codes %+v", e.Error.FieldCodes)
	}
	step(f.bk, "draft").Want(422)

	// Two clicks at once move it once.
	var wg sync.WaitGroup
	codes := make([]int, 8)
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i] = step(f.bk, "printed").Status
		}()
	}
	wg.Wait()
	ok := 0
	for _, c := range codes {
		switch c {
		case 200:
			ok++
		case 409:
		default:
			t.Errorf("status %d", c)
		}
	}
	if ok != 1 {
		t.Fatalf("%d requests moved the letter, want 1 (%v)", ok, codes)
	}
	conflict("printed", "letter.status.already")

	admin := f.env.As(perm.Admin)
	var l letter.Letter
	step(admin, "signed").Want(200).JSON(&l)
	conflict("printed", "letter.status.step") // going back
	step(f.bk, "delivered").Want(200).JSON(&l)
	conflict("delivered", "letter.status.already")
	e = step(f.bk, "signed").Want(409).Err()
	if e.Error.MessageCode != "letter.status.step" && e.Error.MessageCode != "letter.status.done" {
		t.Errorf("after delivered: %q", e.Error.MessageCode)
	}

	if l.Status != api.LetterDelivered || l.PrintedAt == nil || l.SignedAt == nil || l.DeliveredAt == nil {
		t.Fatalf("letter %+v", l)
	}
	var got []string
	for _, ev := range l.Events {
		got = append(got, ev.Status+":"+ev.ActorName)
	}
	bkName, adminName := "Pengguna "+username(t, f, f.bk.UserID), "Pengguna "+username(t, f, admin.UserID)
	want := []string{"draft:sistem", "printed:" + bkName, "signed:" + adminName, "delivered:" + bkName}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("events %v, want %v", got, want)
	}
	var by struct{ Printed, Signed, Delivered int64 }
	must(t, f.env.DB.Get(&by, `SELECT printed_by AS printed, signed_by AS signed, delivered_by AS delivered FROM warning_letters WHERE id = $1`, id))
	if by.Printed != f.bk.UserID || by.Signed != admin.UserID || by.Delivered != f.bk.UserID {
		t.Errorf("by %+v", by)
	}
	var audits int
	must(t, f.env.DB.Get(&audits, `SELECT count(*) FROM audit_log WHERE action = 'warning_letter.status' AND entity_id = $1`, strconv.FormatInt(id, 10)))
	if audits != 3 {
		t.Errorf("audit entries %d, want 3", audits)
	}

	t.Run("ErrWithdrawn", func(t *testing.T) {
		w := f.letter(t, st, f.classA, 2, 100, time.Now())
		_, err := f.env.DB.Exec(`UPDATE warning_letters SET status = 'withdrawn', withdrawn_at = now(), withdrawn_reason = 'violation.letter.withdrawn_below' WHERE id = $1`, w)
		must(t, err)
		e := f.bk.Do("POST", "/api/v1/warning-letters/"+strconv.FormatInt(w, 10)+"/status", map[string]string{"status": "printed"}).Want(409).Err()
		if e.Error.MessageCode != "letter.status.withdrawn" {
			t.Errorf("message_code %q", e.Error.MessageCode)
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		f.bk.Do("POST", "/api/v1/warning-letters/999999/status", map[string]string{"status": "printed"}).Want(404)
	})
}

func username(t *testing.T, f *fixture, id int64) string {
	var u string
	must(t, f.env.DB.Get(&u, `SELECT username FROM users WHERE id = $1`, id))
	return u
}

// poppler runs a poppler tool on pdf and returns its output.
func poppler(t *testing.T, pdf []byte, tool string, args ...string) string {
	t.Helper()
	if _, err := exec.LookPath(tool); err != nil {
		t.Skipf("%s not installed (poppler-utils)", tool)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "letter.pdf")
	must(t, os.WriteFile(path, pdf, 0o600))
	if tool == "pdftotext" {
		args = append(args, path, "-")
	} else {
		args = append(args, path)
	}
	out, err := exec.Command(tool, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v: %s", tool, err, out)
	}
	return string(out)
}

func TestPDF(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.yearStart = "2026-07-01"
	f.admin.Do("PUT", "/api/v1/settings/school", map[string]any{
		"name": "SMA Negeri 3 Contoh", "address": "Jl. Pahlawan No. 7, Semarang", "phone": "024 555 0101",
		"principal_name": "Dra. Sri Wahyuni, M.Pd.", "principal_nip": "19720315 200003 1 002",
		"bk_coordinator_name": "Drs. Bambang Irawan", "paper_size": "F4",
	}).Want(200)
	_, err := f.env.DB.Exec(`UPDATE users SET name = 'Ibu Kartika Sari' WHERE id = $1`, f.wali.UserID)
	must(t, err)
	uploadLogo(t, f.admin)
	// The school's own text with placeholders.
	_, err = f.env.DB.Exec(`UPDATE sp_thresholds SET default_text = 'Ananda {nama} ({nisn}) dari kelas {kelas} telah mencapai {poin} poin ({level}) per {tanggal} di {sekolah}.' WHERE level = 1`)
	must(t, err)

	const name = "Ñoño José Pérez Hutapea"
	st := f.student(t, name, "0098765432", f.classA)
	issued := time.Date(2026, 11, 23, 3, 0, 0, 0, time.UTC)
	f.violation(t, st, f.typeID, f.classA, "2026-09-14", 30, issued.Add(-48*time.Hour))
	f.violation(t, st, f.typeID2, f.classA, "2026-11-20", 25, issued)
	// Before the academic year, and recorded after the letter: not listed.
	f.violation(t, st, f.typeID2, f.classA, "2026-06-30", 25, issued.Add(-2000*time.Hour))
	f.violation(t, st, f.typeID, f.classA, "2026-11-22", 30, issued.Add(time.Hour))
	id := f.letter(t, st, f.classA, 1, 55, issued)

	res := f.bk.Do("GET", "/api/v1/warning-letters/"+strconv.FormatInt(id, 10)+"/pdf", nil).Want(200)
	if ct := res.Header.Get("Content-Type"); ct != "application/pdf" {
		t.Errorf("content type %q", ct)
	}
	cd := res.Header.Get("Content-Disposition")
	wantCD := `attachment; filename="SP1-Nono-Jose-Perez-Hutapea-2026-11-23.pdf"; filename*=UTF-8''` +
		url.PathEscape("SP1-Ñoño-José-Pérez-Hutapea-2026-11-23.pdf")
	if cd != wantCD {
		t.Errorf("Content-Disposition %q\nwant %q", cd, wantCD)
	}
	if cc := res.Header.Get("Cache-Control"); !strings.Contains(cc, "no-store") {
		t.Errorf("Cache-Control %q", cc)
	}

	text := poppler(t, res.Body, "pdftotext", "-layout", "-enc", "UTF-8")
	text = strings.Join(strings.Fields(text), " ")
	for _, want := range []string{
		"SMA Negeri 3 Contoh", "Jl. Pahlawan No. 7, Semarang", "Telp. 024 555 0101",
		"Nomor : 001/SP-1/BK/XI/2026", "23 November 2026", "Perihal : Surat Peringatan (SP 1)",
		"Kepada Yth. Bapak Hartono", "Orang tua/wali dari " + name, "NISN : 0098765432", "Kelas : XI IPA 1", "Jumlah poin : 55 (tahun ajaran 2026/2027)",
		"1 14 September 2026 Berkelahi di lingkungan sekolah 30", "2 20 November 2026 Merokok 25", "Jumlah poin 55",
		"Ananda " + name + " (0098765432) dari kelas XI IPA 1 telah mencapai 55 poin (SP 1) per 23 November 2026 di SMA Negeri 3 Contoh.",
		"Wali Kelas,", "Ibu Kartika Sari", "Koordinator BK,", "Drs. Bambang Irawan",
		"Kepala Sekolah,", "Dra. Sri Wahyuni, M.Pd.", "NIP. 19720315 200003 1 002", "Halaman 1 dari 1",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("PDF text lacks %q", want)
		}
	}
	for _, not := range []string{"30 Juni 2026", "22 November 2026", "{", "hadir ke sekolah"} {
		if strings.Contains(text, not) {
			t.Errorf("PDF text has %q:\n%s", not, text)
		}
	}

	info := poppler(t, res.Body, "pdfinfo")
	m := regexp.MustCompile(`Page size:\s+([0-9.]+) x ([0-9.]+) pts`).FindStringSubmatch(info)
	if m == nil {
		t.Fatalf("pdfinfo: %s", info)
	}
	w, _ := strconv.ParseFloat(m[1], 64)
	h, _ := strconv.ParseFloat(m[2], 64)
	if w*25.4/72 < 214.5 || w*25.4/72 > 215.5 || h*25.4/72 < 329.5 || h*25.4/72 > 330.5 {
		t.Errorf("page %s x %s pts, want F4 (215 × 330 mm)", m[1], m[2])
	}

	// Page 1 as an image, to look at.
	if _, err := exec.LookPath("pdftoppm"); err == nil {
		dir := t.TempDir()
		path := filepath.Join(dir, "letter.pdf")
		must(t, os.WriteFile(path, res.Body, 0o600))
		out, err := exec.Command("pdftoppm", "-png", "-r", "50", "-f", "1", "-l", "1", path, filepath.Join(dir, "page")).CombinedOutput()
		if keep := os.Getenv("TATIB_LETTER_PDF"); keep != "" {
			must(t, os.WriteFile(keep, res.Body, 0o644))
		}
		if err != nil {
			t.Fatalf("pdftoppm: %v %s", err, out)
		}
		matches, _ := filepath.Glob(filepath.Join(dir, "page*.png"))
		if len(matches) != 1 {
			t.Fatalf("pdftoppm wrote %v", matches)
		}
		fi, err := os.Stat(matches[0])
		if err != nil || fi.Size() < 2000 {
			t.Errorf("page image %v %v", fi, err)
		}
		if keep := os.Getenv("TATIB_LETTER_PNG"); keep != "" {
			b, _ := os.ReadFile(matches[0])
			must(t, os.WriteFile(keep, b, 0o644))
		}
	}

	// Making the PDF numbered the letter (the first of its year) but did
	// not mark it printed.
	var l letter.Letter
	f.bk.Do("GET", "/api/v1/warning-letters/"+strconv.FormatInt(id, 10), nil).Want(200).JSON(&l)
	if l.Status != api.LetterDraft || l.PrintedAt != nil {
		t.Errorf("status %q after the PDF", l.Status)
	}
	if l.Number == nil || *l.Number != "001/SP-1/BK/XI/2026" || l.VerifyCode == nil || !strings.Contains(text, letter.GroupCode(*l.VerifyCode)) {
		t.Errorf("number %v, code %v after the PDF", l.Number, l.VerifyCode)
	}

	t.Run("SummonsFromSP2", func(t *testing.T) {
		id2 := f.letter(t, st, f.classA, 2, 110, issued.Add(time.Hour))
		res := f.bk.Do("GET", "/api/v1/warning-letters/"+strconv.FormatInt(id2, 10)+"/pdf", nil).Want(200)
		text := strings.Join(strings.Fields(poppler(t, res.Body, "pdftotext", "-enc", "UTF-8")), " ")
		for _, want := range []string{letter.Summons, "SP 2", "Merokok"} {
			if !strings.Contains(text, want) {
				t.Errorf("SP 2 text lacks %q:\n%s", want, text)
			}
		}
		// The school places the summons itself with {panggilan}: it stands
		// there, once.
		_, err := f.env.DB.Exec(`UPDATE sp_thresholds SET default_text = 'Teks sekolah. {panggilan} Penutup sekolah.' WHERE level = 2`)
		must(t, err)
		res = f.bk.Do("GET", "/api/v1/warning-letters/"+strconv.FormatInt(id2, 10)+"/pdf", nil).Want(200)
		text = strings.Join(strings.Fields(poppler(t, res.Body, "pdftotext", "-enc", "UTF-8")), " ")
		if !strings.Contains(text, "Teks sekolah. "+letter.Summons+" Penutup sekolah.") || strings.Count(text, "selambat-lambatnya") != 1 {
			t.Errorf("placed summons:\n%s", text)
		}
	})

	t.Run("A4WithoutSettings", func(t *testing.T) {
		_, err := f.env.DB.Exec(`DELETE FROM settings WHERE key = 'school'`)
		must(t, err)
		res := f.bk.Do("GET", "/api/v1/warning-letters/"+strconv.FormatInt(id, 10)+"/pdf", nil).Want(200)
		info := poppler(t, res.Body, "pdfinfo")
		if !strings.Contains(info, "595.") || !strings.Contains(info, "841.") {
			t.Errorf("not A4:\n%s", info)
		}
		text := poppler(t, res.Body, "pdftotext", "-enc", "UTF-8")
		if !strings.Contains(text, "NIP. -") || !strings.Contains(text, name) {
			t.Errorf("text without a profile:\n%s", text)
		}
	})
}

func TestFileName(t *testing.T) {
	at := time.Date(2026, 11, 22, 18, 0, 0, 0, time.UTC) // 23 Nov in Jakarta
	for _, tc := range []struct{ name, file, disposition string }{
		{"Ahmad Fauzi", "SP2-Ahmad-Fauzi-2026-11-23.pdf", `attachment; filename="SP2-Ahmad-Fauzi-2026-11-23.pdf"; filename*=UTF-8''SP2-Ahmad-Fauzi-2026-11-23.pdf`},
		{"Muh. 'Ali\" bin Umar", "SP2-Muh-Ali-bin-Umar-2026-11-23.pdf", `attachment; filename="SP2-Muh-Ali-bin-Umar-2026-11-23.pdf"; filename*=UTF-8''SP2-Muh-Ali-bin-Umar-2026-11-23.pdf`},
		{"Дмитрий", "SP2-Дмитрий-2026-11-23.pdf", `attachment; filename="SP2-_______-2026-11-23.pdf"; filename*=UTF-8''SP2-%D0%94%D0%BC%D0%B8%D1%82%D1%80%D0%B8%D0%B9-2026-11-23.pdf`},
		{"  ", "SP2-siswa-2026-11-23.pdf", ""},
	} {
		got := letter.FileName(2, tc.name, at)
		if got != tc.file {
			t.Errorf("FileName(%q) = %q, want %q", tc.name, got, tc.file)
		}
		if tc.disposition != "" {
			if d := letter.ContentDisposition(got); d != tc.disposition {
				t.Errorf("ContentDisposition(%q) = %q\nwant %q", got, d, tc.disposition)
			}
		}
	}
}

func TestFormatNumber(t *testing.T) {
	// 31 December 18:00 UTC is 1 January in Jakarta.
	at := time.Date(2026, 12, 31, 18, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		pattern string
		seq     int
		want    string
	}{
		{letter.DefaultNumberPattern, 7, "007/SP-3/BK/I/2027"},
		{letter.DefaultNumberPattern, 1234, "1234/SP-3/BK/I/2027"},
		{"SP-{level}/{seq}/{month}/{year}", 1, "SP-3/001/01/2027"},
	} {
		if got := letter.FormatNumber(tc.pattern, tc.seq, 3, at); got != tc.want {
			t.Errorf("FormatNumber(%q, %d) = %q, want %q", tc.pattern, tc.seq, got, tc.want)
		}
	}
}

// uploadLogo uploads a round emblem as the school logo.
func uploadLogo(t *testing.T, c *apitest.Client) {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, 200, 200))
	for x := 0; x < 200; x++ {
		for y := 0; y < 200; y++ {
			dx, dy := x-100, y-100
			switch d := dx*dx + dy*dy; {
			case d < 60*60:
				img.Set(x, y, color.NRGBA{R: 250, G: 200, B: 30, A: 255})
			case d < 95*95:
				img.Set(x, y, color.NRGBA{R: 20, G: 60, B: 140, A: 255})
			}
		}
	}
	var buf, body bytes.Buffer
	must(t, png.Encode(&buf, img))
	mw := multipart.NewWriter(&body)
	fw, err := mw.CreateFormFile("logo", "logo.png")
	must(t, err)
	fw.Write(buf.Bytes())
	mw.Close()
	c.Do("PUT", "/api/v1/settings/school/logo", &body, "Content-Type", mw.FormDataContentType()).Want(200)
}
