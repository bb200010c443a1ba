package letter_test

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/config"
	"github.com/tatib/tatib/server/internal/letter"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

func letterPath(id int64, rest string) string {
	return "/api/v1/warning-letters/" + strconv.FormatInt(id, 10) + rest
}

func (f *fixture) get(t *testing.T, id int64) letter.Letter {
	t.Helper()
	var l letter.Letter
	f.bk.Do("GET", letterPath(id, ""), nil).Want(200).JSON(&l)
	return l
}

func num(l letter.Letter) string {
	if l.Number == nil {
		return "<nil>"
	}
	return *l.Number
}

// Numbers come at the first print, from the school's pattern: the printed
// step, a PDF download (which leaves the status) and a batch print each
// give one; {seq} counts per academic year of the letter's date and is
// never given twice, a withdrawn letter keeping its own; a number, once
// given, never changes, not even with the pattern.
func TestNumbers(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.yearStart = "2026-07-01"
	a := f.student(t, "Ahmad Fauzi", "0011", f.classA)
	b := f.student(t, "Siti Rahmawati", "0022", f.classB)
	l1 := f.letter(t, a, f.classA, 1, 55, time.Date(2026, 11, 23, 3, 0, 0, 0, time.UTC))
	l3 := f.letter(t, b, f.classB, 1, 60, time.Date(2026, 12, 2, 3, 0, 0, 0, time.UTC))
	f.yearStart = "2027-07-01"
	next := f.letter(t, b, f.classB, 1, 50, time.Date(2027, 8, 2, 3, 0, 0, 0, time.UTC))
	f.yearStart = "2026-07-01"

	var l letter.Letter
	f.bk.Do("POST", letterPath(l1, "/status"), map[string]string{"status": "printed"}).Want(200).JSON(&l)
	if num(l) != "001/SP-1/BK/XI/2026" || l.VerifyCode == nil || len(*l.VerifyCode) != 12 || l.NumberedAt == nil ||
		l.VerifyURL == nil || *l.VerifyURL != "http://127.0.0.1/verifikasi/"+*l.VerifyCode {
		t.Fatalf("printed: %s %v %v", num(l), l.VerifyCode, l.VerifyURL)
	}
	code1 := *l.VerifyCode
	// SP 2 is a new letter once SP 1 is delivered (the helper delivers
	// it): a student has one open letter a year.
	l2 := f.letter(t, a, f.classA, 2, 110, time.Date(2026, 12, 1, 3, 0, 0, 0, time.UTC))

	// A download numbers a draft and leaves it a draft.
	f.bk.Do("GET", letterPath(l2, "/pdf"), nil).Want(200)
	if l = f.get(t, l2); num(l) != "002/SP-2/BK/XII/2026" || l.Status != api.LetterDraft {
		t.Fatalf("downloaded: %s %s", num(l), l.Status)
	}
	// Withdrawn, it keeps its number; the next letter does not take it.
	must(t, exec1(f, `UPDATE warning_letters SET status = 'withdrawn', withdrawn_at = now() WHERE id = $1`, l2))
	var pdf []byte
	pdf = f.bk.Do("POST", "/api/v1/warning-letters/print", map[string]any{"ids": []int64{l3}}).Want(200).Body
	if l = f.get(t, l3); num(l) != "003/SP-1/BK/XII/2026" || l.Status != api.LetterPrinted {
		t.Fatalf("batch: %s %s", num(l), l.Status)
	}
	if !strings.Contains(strings.Join(pdfPages(t, pdf), " "), "Nomor : 003/SP-1/BK/XII/2026") {
		t.Errorf("the batch PDF does not carry the number")
	}
	if l = f.get(t, l2); num(l) != "002/SP-2/BK/XII/2026" {
		t.Errorf("the withdrawn letter's number is now %s", num(l))
	}
	// The next academic year starts again at 001.
	f.bk.Do("POST", letterPath(next, "/status"), map[string]string{"status": "printed"}).Want(200).JSON(&l)
	if num(l) != "001/SP-1/BK/VIII/2027" {
		t.Errorf("next year: %s", num(l))
	}

	// The pattern changes what comes, never what was given.
	f.admin.Do("PUT", "/api/v1/settings/letters", map[string]string{"number_pattern": "SP{level}/{seq}/SMAN5/{month}/{year}"}).Want(200)
	f.bk.Do("GET", letterPath(l1, "/pdf"), nil).Want(200)
	if l = f.get(t, l1); num(l) != "001/SP-1/BK/XI/2026" || *l.VerifyCode != code1 {
		t.Errorf("reprinted: %s %s", num(l), *l.VerifyCode)
	}
	f.yearStart = "2026-07-01"
	c := f.student(t, "Budi Santoso", "0033", f.classA)
	l4 := f.letter(t, c, f.classA, 1, 50, time.Date(2026, 12, 3, 3, 0, 0, 0, time.UTC))
	f.bk.Do("GET", letterPath(l4, "/pdf"), nil).Want(200)
	if l = f.get(t, l4); num(l) != "SP1/004/SMAN5/12/2026" {
		t.Errorf("new pattern: %s", num(l))
	}

	// A letter withdrawn before it was ever printed is never numbered.
	w := f.letter(t, c, f.classA, 2, 100, time.Date(2026, 12, 4, 3, 0, 0, 0, time.UTC))
	must(t, exec1(f, `UPDATE warning_letters SET status = 'withdrawn', withdrawn_at = now() WHERE id = $1`, w))
	pdf = f.bk.Do("GET", letterPath(w, "/pdf"), nil).Want(200).Body
	if l = f.get(t, w); l.Number != nil || l.VerifyCode != nil {
		t.Errorf("withdrawn draft numbered: %s", num(l))
	}
	if text := strings.Join(pdfPages(t, pdf), " "); !strings.Contains(text, "Nomor : -") || strings.Contains(text, "Kode verifikasi") {
		t.Errorf("withdrawn draft's PDF:\n%s", text)
	}

	var audits int
	must(t, f.env.DB.Get(&audits, `SELECT count(*) FROM audit_log WHERE action = 'warning_letter.number'`))
	if audits != 2 { // l2 and l4 by download
		t.Errorf("%d number audit entries, want 2", audits)
	}
}

// Two prints at once never take the same number: letters numbered at the
// same moment through the three ways of printing (the printed step, a
// download, batches that overlap) get 001 to 012, each once.
func TestNumbersConcurrent(t *testing.T) {
	t.Parallel()
	f := setup(t)
	const n = 12
	ids := make([]int64, n)
	for i := range ids {
		st := f.student(t, fmt.Sprintf("Siswa %02d", i), fmt.Sprintf("%04d", i), f.classA)
		ids[i] = f.letter(t, st, f.classA, 1, 55, time.Now().Add(-time.Hour))
	}
	var wg sync.WaitGroup
	codes := make([]int, n)
	for i := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			switch i % 3 {
			case 0:
				codes[i] = f.bk.Do("POST", letterPath(ids[i], "/status"), map[string]string{"status": "printed"}).Status
			case 1:
				codes[i] = f.bk.Do("GET", letterPath(ids[i], "/pdf"), nil).Status
			default:
				codes[i] = f.bk.Do("POST", "/api/v1/warning-letters/print", map[string]any{"ids": []int64{ids[i], ids[(i+1)%n]}}).Status
			}
		}()
	}
	wg.Wait()
	for i, c := range codes {
		// The printed step may find a batch already printed its letter.
		if c != 200 && !(i%3 == 0 && c == 409) {
			t.Errorf("request %d: %d", i, c)
		}
	}
	var seqs []int
	must(t, f.env.DB.Select(&seqs, `SELECT number_seq FROM warning_letters WHERE id = ANY($1) ORDER BY number_seq`, intArray(ids)))
	want := make([]int, n)
	for i := range want {
		want[i] = i + 1
	}
	if !slices.Equal(seqs, want) {
		t.Fatalf("seqs %v, want %v", seqs, want)
	}
	var last int
	must(t, f.env.DB.Get(&last, `SELECT last_seq FROM letter_number_sequences`))
	if last != n {
		t.Errorf("sequence at %d, want %d", last, n)
	}
}

func intArray(ids []int64) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.FormatInt(id, 10)
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// The pattern: shown with its example, changed by settings.manage only,
// and refused (422 on number_pattern) without {seq}, with an unknown
// placeholder, too long, or with a line break.
func TestLetterSettings(t *testing.T) {
	t.Parallel()
	f := setup(t)
	var s letter.Settings
	f.bk.Do("GET", "/api/v1/settings/letters", nil).Want(200).JSON(&s)
	if s.NumberPattern != letter.DefaultNumberPattern || len(s.Placeholders) != 5 || !strings.HasPrefix(s.Example, "001/SP-1/BK/") {
		t.Errorf("default %+v", s)
	}
	f.admin.Do("PUT", "/api/v1/settings/letters", map[string]string{"number_pattern": " {seq}/SP{level}/{year} "}).Want(200).JSON(&s)
	if s.NumberPattern != "{seq}/SP{level}/{year}" || !strings.HasPrefix(s.Example, "001/SP1/") {
		t.Errorf("saved %+v", s)
	}
	for pattern, code := range map[string]string{
		"SP-{level}/BK/{year}":              "letter.pattern.seq_required",
		"{seq}/{tahun}":                     "letter.pattern.unknown",
		"{seq}/" + strings.Repeat("x", 100): "letter.pattern.too_long",
		"{seq}/\nSP":                        "letter.pattern.characters",
	} {
		e := f.admin.Do("PUT", "/api/v1/settings/letters", map[string]string{"number_pattern": pattern}).Want(422).Err()
		if e.Error.FieldCodes["number_pattern"].Code != code {
			t.Errorf("%q: %+v", pattern, e.Error.FieldCodes)
		}
	}
	f.admin.Do("PUT", "/api/v1/settings/letters", map[string]string{"number_pattern": ""}).Want(200).JSON(&s)
	if s.NumberPattern != letter.DefaultNumberPattern {
		t.Errorf("empty pattern saved as %q", s.NumberPattern)
	}
	// An absent pattern is the default too, as LetterSettingsInput says.
	f.admin.Do("PUT", "/api/v1/settings/letters", map[string]string{}).Want(200).JSON(&s)
	if s.NumberPattern != letter.DefaultNumberPattern {
		t.Errorf("absent pattern saved as %q", s.NumberPattern)
	}
	f.bk.Do("PUT", "/api/v1/settings/letters", map[string]string{"number_pattern": "{seq}"}).Want(403)
	f.wali.Do("GET", "/api/v1/settings/letters", nil).Want(403)
	var audits int
	must(t, f.env.DB.Get(&audits, `SELECT count(*) FROM audit_log WHERE action = 'settings.letters.update'`))
	if audits != 3 { // each save: the pattern, the empty one, the absent one
		t.Errorf("%d audit entries", audits)
	}
}

// A batch prints as one PDF, each letter from a new page with its own page
// count, ordered by class and student; drafts move to printed with their
// history and an audit entry each; a letter already printed is printed
// again unchanged.
func TestBatchPrint(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := f.student(t, "Ahmad Fauzi", "0011", f.classA)
	b := f.student(t, "Siti Rahmawati", "0022", f.classB)
	c := f.student(t, "Budi Santoso", "0033", f.classA)
	at := time.Now().Add(-2 * time.Hour)
	a1 := f.letter(t, a, f.classA, 1, 55, at)
	b1 := f.letter(t, b, f.classB, 1, 60, at)
	c1 := f.letter(t, c, f.classA, 1, 50, at)
	f.bk.Do("POST", letterPath(c1, "/status"), map[string]string{"status": "printed"}).Want(200)
	printedAt := f.get(t, c1).PrintedAt

	res := f.bk.Do("POST", "/api/v1/warning-letters/print", map[string]any{"ids": []int64{b1, a1, c1, a1}}).Want(200)
	if ct := res.Header.Get("Content-Type"); ct != "application/pdf" {
		t.Errorf("content type %q", ct)
	}
	if cd := res.Header.Get("Content-Disposition"); !strings.Contains(cd, "-3-surat.pdf") || !strings.Contains(cd, "Surat-Peringatan-") {
		t.Errorf("Content-Disposition %q", cd)
	}
	pages := pdfPages(t, res.Body)
	if len(pages) != 3 {
		t.Fatalf("%d pages, want one per letter", len(pages))
	}
	// XI IPA 1 (Ahmad, Budi) before XI IPS 2 (Siti).
	for i, name := range []string{"Ahmad Fauzi", "Budi Santoso", "Siti Rahmawati"} {
		if !strings.Contains(pages[i], "Orang tua/wali dari "+name) || !strings.Contains(pages[i], "Halaman 1 dari 1") ||
			!strings.Contains(pages[i], "Kepala Sekolah,") {
			t.Errorf("page %d is not %s's letter:\n%s", i+1, name, pages[i])
		}
	}
	for _, id := range []int64{a1, b1} {
		l := f.get(t, id)
		if l.Status != api.LetterPrinted || l.Number == nil || len(l.Events) != 2 || l.Events[1].Status != api.LetterPrinted {
			t.Errorf("letter %d after the batch: %s %s %+v", id, l.Status, num(l), l.Events)
		}
	}
	if l := f.get(t, c1); l.Status != api.LetterPrinted || !l.PrintedAt.Equal(*printedAt) || len(l.Events) != 2 {
		t.Errorf("the printed letter changed: %+v", l)
	}
	var audits []string
	must(t, f.env.DB.Select(&audits, `SELECT entity_id FROM audit_log WHERE action = 'warning_letter.print' ORDER BY entity_id::bigint`))
	if fmt.Sprint(audits) != fmt.Sprint([]string{strconv.FormatInt(a1, 10), strconv.FormatInt(b1, 10)}) {
		t.Errorf("audit entries for %v", audits)
	}

	t.Run("ErrInput", func(t *testing.T) {
		many := make([]int64, letter.MaxBatch+1)
		for i := range many {
			many[i] = int64(i + 1)
		}
		for name, body := range map[string]any{
			"letter.print.ids_required": map[string]any{"ids": []int64{}},
			"letter.print.too_many":     map[string]any{"ids": many},
			"letter.filter.id":          map[string]any{"ids": []int64{a1, -4}},
		} {
			e := f.bk.Do("POST", "/api/v1/warning-letters/print", body).Want(422).Err()
			if e.Error.FieldCodes["ids"].Code != name {
				t.Errorf("%s: %+v", name, e.Error.FieldCodes)
			}
		}
		f.bk.Do("POST", "/api/v1/warning-letters/print", map[string]any{"ids": []int64{a1, 999999}}).Want(404)
	})
	t.Run("ErrWithdrawn", func(t *testing.T) {
		d := f.student(t, "Dewi Lestari", "0044", f.classA)
		// The withdrawn SP 2 first: the draft SP 1 is then the student's
		// one open letter.
		w := f.letter(t, d, f.classA, 2, 100, at)
		must(t, exec1(f, `UPDATE warning_letters SET status = 'withdrawn', withdrawn_at = now() WHERE id = $1`, w))
		d1 := f.letter(t, d, f.classA, 1, 50, at)
		e := f.bk.Do("POST", "/api/v1/warning-letters/print", map[string]any{"ids": []int64{d1, w}}).Want(409).Err()
		if e.Error.MessageCode != "letter.print.withdrawn" || e.Error.Params["student"] != "Dewi Lestari" {
			t.Errorf("%+v", e.Error)
		}
		if l := f.get(t, d1); l.Status != api.LetterDraft || l.Number != nil {
			t.Errorf("a refused batch changed %d: %s %s", d1, l.Status, num(l))
		}
	})
	t.Run("Permissions", func(t *testing.T) {
		body := map[string]any{"ids": []int64{a1}}
		f.wali.Do("POST", "/api/v1/warning-letters/print", body).Want(403)
		f.env.As(perm.Other).Do("POST", "/api/v1/warning-letters/print", body).Want(403)
		f.env.Anonymous().Do("POST", "/api/v1/warning-letters/print", body).Want(401)
	})
	t.Run("HomeroomScope", func(t *testing.T) {
		// Granted printing, a homeroom teacher prints their class's letters
		// only; a batch with another class's letter prints nothing.
		f.admin.Do("PUT", "/api/v1/roles/wali_kelas/permissions", map[string]any{"permissions": []string{"warning_letters.view", "warning_letters.manage"}}).Want(200)
		e := f.student(t, "Eko Prasetyo", "0055", f.classA)
		g := f.student(t, "Gita Lestari", "0066", f.classB)
		e1 := f.letter(t, e, f.classA, 1, 50, at)
		g1 := f.letter(t, g, f.classB, 1, 50, at)
		f.wali.Do("POST", "/api/v1/warning-letters/print", map[string]any{"ids": []int64{e1, g1}}).Want(404)
		if l := f.get(t, e1); l.Status != api.LetterDraft || l.Number != nil {
			t.Errorf("out-of-scope batch changed %d", e1)
		}
		res := f.wali.Do("POST", "/api/v1/warning-letters/print", map[string]any{"ids": []int64{e1}}).Want(200)
		if text := strings.Join(pdfPages(t, res.Body), " "); !strings.Contains(text, "Eko Prasetyo") || strings.Contains(text, "Gita Lestari") {
			t.Errorf("wali's batch:\n%s", text)
		}
		if l := f.get(t, e1); l.Status != api.LetterPrinted {
			t.Errorf("wali's batch left %s", l.Status)
		}
	})
}

// Status moves forward one step at a time, and a letter is not delivered
// while an earlier letter of the student's year is still open: the 409
// names that letter's level.
func TestDeliverAfterEarlier(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.allowManyOpen(t)
	st := f.student(t, "Ahmad Fauzi", "0011", f.classA)
	sp1 := f.letter(t, st, f.classA, 1, 55, time.Now().Add(-2*time.Hour))
	sp2 := f.letter(t, st, f.classA, 2, 110, time.Now().Add(-time.Hour))
	step := func(id int64, status string) *apitest.Response {
		return f.bk.Do("POST", letterPath(id, "/status"), map[string]string{"status": status})
	}
	step(sp2, "printed").Want(200)
	step(sp2, "signed").Want(200)
	e := step(sp2, "delivered").Want(409).Err()
	if e.Error.MessageCode != "letter.status.earlier_open" || e.Error.Params["level"] != "SP 1" || !strings.Contains(e.Error.Message, "SP 1") {
		t.Fatalf("%+v", e.Error)
	}
	e = f.bk.Do("POST", letterPath(sp2, "/status"), map[string]string{"status": "delivered"}, "Accept-Language", "en").Want(409).Err()
	if !strings.Contains(e.Error.Message, "SP 1 letter is still a draft") {
		t.Errorf("English: %q", e.Error.Message)
	}
	step(sp1, "printed").Want(200)
	step(sp1, "signed").Want(200)
	step(sp2, "delivered").Want(409)
	step(sp1, "delivered").Want(200)
	step(sp2, "delivered").Want(200)

	// A withdrawn earlier letter does not hold a later one back.
	other := f.student(t, "Siti Rahmawati", "0022", f.classA)
	w := f.letter(t, other, f.classA, 1, 50, time.Now().Add(-2*time.Hour))
	later := f.letter(t, other, f.classA, 2, 100, time.Now().Add(-time.Hour))
	must(t, exec1(f, `UPDATE warning_letters SET status = 'withdrawn', withdrawn_at = now() WHERE id = $1`, w))
	for _, s := range []string{"printed", "signed", "delivered"} {
		step(later, s).Want(200)
	}
}

// The verification page and its JSON need no sign-in and say what the
// letter is — school, number, level, date, status — with the student's
// initials only; an unknown code is a plain 404; lookups are limited per
// address, the page and the JSON together.
func TestVerify(t *testing.T) {
	t.Parallel()
	f := setup(t, func(c *config.Config) { c.TrustProxy = true })
	f.admin.Do("PUT", "/api/v1/settings/school", map[string]any{"name": "SMA Negeri 5 Bandung", "city": "Bandung"}).Want(200)
	st := f.student(t, "Ahmad Fauzi Ramadhan", "0098765432", f.classA)
	id := f.letter(t, st, f.classA, 2, 110, time.Date(2026, 11, 23, 3, 0, 0, 0, time.UTC))
	pdf := f.bk.Do("GET", letterPath(id, "/pdf"), nil).Want(200).Body
	l := f.get(t, id)
	code := *l.VerifyCode
	anon := f.env.Anonymous()
	from := func(addr string) []string { return []string{"X-Forwarded-For", addr} }

	// The QR code on the PDF opens this very page (zbarimg: Debian's zbar-tools, which
	// scripts/test-deps.sh installs).
	if _, err := exec.LookPath("zbarimg"); err != nil {
		t.Fatal("zbarimg is missing (apt-get install zbar-tools): it reads the letter's QR code back")
	}
	{
		dir := t.TempDir()
		must(t, os.WriteFile(filepath.Join(dir, "l.pdf"), pdf, 0o600))
		if out, err := exec.Command("pdftoppm", "-png", "-r", "150", "-f", "1", "-l", "1", filepath.Join(dir, "l.pdf"), filepath.Join(dir, "p")).CombinedOutput(); err != nil {
			t.Fatalf("pdftoppm: %v %s", err, out)
		}
		files, _ := filepath.Glob(filepath.Join(dir, "p*.png"))
		out, err := exec.Command("zbarimg", "-q", "--raw", files[0]).Output()
		if err != nil || strings.TrimSpace(string(out)) != *l.VerifyURL {
			t.Errorf("QR code reads %q (%v), want %q", out, err, *l.VerifyURL)
		}
	}

	var pub letter.PublicLetter
	raw := anon.Do("GET", "/api/v1/public/letters/"+strings.ToLower(letter.GroupCode(code)), nil, from("198.51.100.1")...).Want(200).JSON(&pub).Body
	if pub.School != "SMA Negeri 5 Bandung" || pub.Number != num(l) || pub.Level != 2 || pub.LevelName != "SP 2" || pub.Date != "2026-11-23" ||
		pub.Status != api.LetterDraft || pub.StudentInitials != "A. F. R." || pub.AcademicYear != l.AcademicYear {
		t.Errorf("public %+v", pub)
	}
	for _, secret := range []string{"Ahmad", "Fauzi", "0098765432", "XI IPA", "Hartono", "110", `"id"`} {
		if strings.Contains(string(raw), secret) {
			t.Errorf("the public answer tells %q: %s", secret, raw)
		}
	}

	page := anon.Do("GET", "/verifikasi/"+code, nil, from("198.51.100.1")...).Want(200)
	html := string(page.Body)
	if ct := page.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
		t.Errorf("page content type %q", ct)
	}
	for _, want := range []string{"Verifikasi Surat Peringatan", "Surat ini diterbitkan oleh SMA Negeri 5 Bandung.", num(l), "SP 2", "23 November 2026", "Draf (belum dicetak)", "A. F. R."} {
		if !strings.Contains(html, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(html, "Ahmad") || strings.Contains(html, "0098765432") {
		t.Errorf("the page tells more than the initials")
	}
	en := string(anon.Do("GET", "/verifikasi/"+code+"?lang=en", nil, from("198.51.100.1")...).Want(200).Body)
	if !strings.Contains(en, "This letter was issued by SMA Negeri 5 Bandung.") || !strings.Contains(en, "Draft (not printed yet)") || !strings.Contains(en, `lang="en"`) {
		t.Errorf("English page:\n%s", en)
	}
	// The form's code, typed in lower case with its dashes, leads there.
	typed := anon.Do("GET", "/verifikasi?code="+strings.ToLower(letter.GroupCode(code)), nil, from("198.51.100.1")...).Want(200)
	if !strings.Contains(string(typed.Body), num(l)) {
		t.Errorf("the form's answer:\n%s", typed.Body)
	}

	t.Run("Withdrawn", func(t *testing.T) {
		must(t, exec1(f, `UPDATE warning_letters SET status = 'withdrawn', withdrawn_at = now() WHERE id = $1`, id))
		html := string(anon.Do("GET", "/verifikasi/"+code, nil, from("198.51.100.2")...).Want(200).Body)
		if !strings.Contains(html, "telah ditarik oleh sekolah") || !strings.Contains(html, "Ditarik") {
			t.Errorf("withdrawn page:\n%s", html)
		}
	})
	t.Run("ErrUnknown", func(t *testing.T) {
		for _, c := range []string{"AAAAAAAAAAAA", "x", strings.Repeat("Z", 300), "%E2%82%AC", "%FF%FE", "AB%00CD"} {
			// The API refuses a path that is not text (422, request.bad_text)
			// before any route; the page, outside the API, says not found.
			if !strings.Contains(c, "%FF") && !strings.Contains(c, "%00") {
				e := anon.Do("GET", "/api/v1/public/letters/"+c, nil, from("198.51.100.3")...).Want(404).Err()
				if e.Error.MessageCode != "letter.verify.not_found" {
					t.Errorf("%q: %+v", c, e.Error)
				}
			}
			res := anon.Do("GET", "/verifikasi/"+c, nil, from("198.51.100.3")...).Want(404)
			if !strings.Contains(string(res.Body), "Kode verifikasi ini tidak dikenal") {
				t.Errorf("%q page:\n%s", c, res.Body)
			}
		}
	})
	t.Run("ErrRateLimited", func(t *testing.T) {
		addr := from("203.0.113.9")
		for i := range letter.DefaultLimit.N {
			p := "/api/v1/public/letters/" + code
			if i%2 == 1 {
				p = "/verifikasi/" + code
			}
			anon.Do("GET", p, nil, addr...).Want(200)
		}
		res := anon.Do("GET", "/api/v1/public/letters/"+code, nil, addr...).Want(http.StatusTooManyRequests)
		if ra, _ := strconv.Atoi(res.Header.Get("Retry-After")); ra < 1 || ra > 600 {
			t.Errorf("Retry-After %q", res.Header.Get("Retry-After"))
		}
		if e := res.Err(); e.Error.MessageCode != "letter.verify.rate_limited" {
			t.Errorf("%+v", e.Error)
		}
		anon.Do("GET", "/verifikasi/"+code, nil, addr...).Want(http.StatusTooManyRequests)
		// Another address is not held back.
		anon.Do("GET", "/api/v1/public/letters/"+code, nil, from("203.0.113.10")...).Want(200)
	})
}
