package letter_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/letter"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/server/internal/violationtype"
	"github.com/tatib/tatib/shared/api"
)

// pdfPages is the text of each page of pdf (pdftotext -layout; pages end
// with a form feed), its spaces squeezed.
func pdfPages(t *testing.T, pdf []byte) []string {
	t.Helper()
	out := poppler(t, pdf, "pdftotext", "-layout", "-enc", "UTF-8")
	pages := strings.Split(strings.TrimRight(out, "\f\n"), "\f")
	for i, p := range pages {
		pages[i] = strings.Join(strings.Fields(p), " ")
	}
	return pages
}

// pngPages renders every page of pdf with pdftoppm and returns the files;
// with TATIB_LETTER_PNG_DIR set they are kept there, named after name, to
// be looked at.
func pngPages(t *testing.T, pdf []byte, name string) []string {
	t.Helper()
	if _, err := exec.LookPath("pdftoppm"); err != nil {
		t.Skip("pdftoppm not installed (poppler-utils)")
	}
	dir := os.Getenv("TATIB_LETTER_PNG_DIR")
	if dir == "" {
		dir = t.TempDir()
	}
	path := filepath.Join(dir, name+".pdf")
	must(t, os.WriteFile(path, pdf, 0o644))
	if out, err := exec.Command("pdftoppm", "-png", "-r", "60", path, filepath.Join(dir, name)).CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm: %v: %s", err, out)
	}
	files, err := filepath.Glob(filepath.Join(dir, name+"-*.png"))
	must(t, err)
	for _, f := range files {
		if fi, err := os.Stat(f); err != nil || fi.Size() < 2000 {
			t.Errorf("page image %s: %v", f, err)
		}
	}
	return files
}

// signatureOnly is true for a page that holds the signatures and nothing
// of the letter's text (its letterhead and footer aside).
func signatureOnly(page string) bool {
	return strings.Contains(page, "Kepala Sekolah,") && !strings.Contains(page, "Demikian surat ini")
}

// The layout on both papers, through the API: a usual letter (SP 2 with
// the summons, an alpha and a late row with their hours) is one page with
// the place, the date and three signatures with NIP lines under the body;
// a long one runs over pages with the table header repeated, every page
// numbered, and the signatures on the last page with the letter's last
// paragraphs.
func TestLayout(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.yearStart = "2026-07-01"
	f.admin.Do("PUT", "/api/v1/settings/school", map[string]any{
		"name": "SMA Negeri 5 Bandung", "address": "Jl. Belitung No. 8, Bandung", "phone": "022 420 3577", "city": "Bandung",
		"principal_name": "Dra. Sri Wahyuni, M.Pd.", "principal_nip": "197203152000031002",
		"bk_coordinator_name": "Drs. Bambang Irawan", "bk_coordinator_nip": "198001012005012003",
	}).Want(200)
	must(t, exec1(f, `UPDATE users SET name = 'Ibu Kartika Sari, S.Pd.', nip = '198502142010012004' WHERE id = $1`, f.wali.UserID))
	uploadLogo(t, f.admin)
	// The system types the attendance writes its violations with.
	var alpha, late int64
	must(t, f.env.DB.Get(&alpha, `SELECT id FROM violation_types WHERE slug = $1`, violationtype.SlugAlpha))
	must(t, f.env.DB.Get(&late, `SELECT id FROM violation_types WHERE slug = $1`, violationtype.SlugTerlambat))

	issued := time.Date(2026, 11, 27, 3, 0, 0, 0, time.UTC)
	usual := f.student(t, "Ahmad Fauzi", "0011", f.classA)
	for i, ty := range []int64{f.typeID, f.typeID2, f.typeID, f.typeID2} {
		f.violation(t, usual, ty, f.classA, fmt.Sprintf("2026-09-%02d", 10+i), 25, issued.Add(-time.Hour))
	}
	f.autoViolation(t, usual, alpha, f.classA, "2026-10-05", "alpha", 3, 15, issued.Add(-time.Hour))
	f.autoViolation(t, usual, late, f.classA, "2026-10-06", "late", 2, 4, issued.Add(-time.Hour))
	usualID := f.letter(t, usual, f.classA, 2, 119, issued)

	long := f.student(t, "Dewi Lestari", "0044", f.classA)
	for i := 0; i < 60; i++ {
		f.violation(t, long, f.typeID2, f.classA, time.Date(2026, 8, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i*2).Format(time.DateOnly), 25, issued.Add(-time.Hour))
	}
	longID := f.letter(t, long, f.classA, 3, 1500, issued)

	for _, paper := range []string{"A4", "F4"} {
		t.Run(paper, func(t *testing.T) {
			must(t, exec1(f, `UPDATE settings SET value = jsonb_set(value, '{paper_size}', to_jsonb($1::text)) WHERE key = 'school'`, paper))
			res := f.bk.Do("GET", "/api/v1/warning-letters/"+strconv.FormatInt(usualID, 10)+"/pdf", nil).Want(200)
			pages := pdfPages(t, res.Body)
			if len(pages) != 1 {
				t.Fatalf("a usual letter on %s has %d pages:\n%s", paper, len(pages), strings.Join(pages, "\n---\n"))
			}
			if files := pngPages(t, res.Body, "usual-"+paper); len(files) != 1 {
				t.Errorf("pdftoppm made %d pages", len(files))
			}
			for _, want := range []string{
				"Bandung, 27 November 2026", "Mengetahui,", "Kepala Sekolah,", "Wali Kelas,", "Koordinator BK,",
				"Dra. Sri Wahyuni, M.Pd.", "Ibu Kartika Sari, S.Pd.", "Drs. Bambang Irawan",
				"NIP. 19720315 200003 1 002", "NIP. 19850214 201001 2 004", "NIP. 19800101 200501 2 003",
				"Alpha (3 jam pelajaran)", "Terlambat (2 jam pelajaran)", "Kode verifikasi", "Halaman 1 dari 1",
			} {
				if !strings.Contains(pages[0], want) {
					t.Errorf("%s page lacks %q:\n%s", paper, want, pages[0])
				}
			}
			// The signatures come after the body's end, not before it.
			if strings.Index(pages[0], "Kepala Sekolah,") < strings.Index(pages[0], "Demikian surat ini") {
				t.Errorf("signatures before the closing:\n%s", pages[0])
			}

			res = f.bk.Do("GET", "/api/v1/warning-letters/"+strconv.FormatInt(longID, 10)+"/pdf", nil).Want(200)
			pages = pdfPages(t, res.Body)
			n := len(pages)
			if n < 2 {
				t.Fatalf("the long letter has %d page", n)
			}
			if files := pngPages(t, res.Body, "long-"+paper); len(files) != n {
				t.Errorf("pdftoppm made %d pages of %d", len(files), n)
			}
			for i, p := range pages {
				if !strings.Contains(p, fmt.Sprintf("Halaman %d dari %d", i+1, n)) {
					t.Errorf("page %d: no footer of %d", i+1, n)
				}
				if strings.Contains(p, "Kepala Sekolah,") != (i == n-1) {
					t.Errorf("page %d of %d: signatures %v", i+1, n, strings.Contains(p, "Kepala Sekolah,"))
				}
				if i > 0 && strings.Contains(p, "Jenis pelanggaran") != strings.Contains(p, "Merokok") {
					t.Errorf("page %d: table rows without their header:\n%s", i+1, p)
				}
			}
			last := pages[n-1]
			if signatureOnly(last) || !strings.Contains(last, "Bandung, 27 November 2026") {
				t.Errorf("last page:\n%s", last)
			}
			if !strings.Contains(strings.Join(pages, " "), "Jumlah poin 1500") {
				t.Errorf("no sum row")
			}
		})
	}
}

// autoViolation stores an automatic alpha or late violation counted from
// hours lesson hours.
func (f *fixture) autoViolation(t *testing.T, student, typeID, class int64, day, kind string, hours, points int, created time.Time) {
	t.Helper()
	at, err := time.Parse(time.DateTime, day+" 05:00:00")
	must(t, err)
	_, err = f.env.DB.Exec(`INSERT INTO violations (student_id, class_id, class_name, violation_type_id, occurred_at, occurred_on, points, created_at, source, auto_kind, auto_hours)
		VALUES ($1, $2, (SELECT name FROM classes WHERE id = $2), $3, $4, $5, $6, $7, 'attendance', $8, $9)`, student, class, typeID, at, day, points, created, kind, hours)
	must(t, err)
}

func exec1(f *fixture, q string, args ...any) error {
	_, err := f.env.DB.Exec(q, args...)
	return err
}

// The ending keeps together at every length of the table, on both papers:
// the signatures are on the last page and never alone there, with the
// closing and the letter's last paragraph; a letter that fits on one page
// is one page. Rendered without the server, one table length after
// another.
func TestLayoutKeepTogether(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext not installed (poppler-utils)")
	}
	issued := time.Date(2026, 11, 27, 3, 0, 0, 0, time.UTC)
	number, code, url := "012/SP-2/BK/XI/2026", "ABCDEFGHJKLM", "https://tatib.sman5.sch.id/verifikasi/ABCDEFGHJKLM"
	base := letter.Printout{
		Letter: letter.Letter{WarningLetter: api.WarningLetter{ID: 1, StudentName: "Ahmad Fauzi", StudentNISN: "0011", ClassName: "XI IPA 1",
			Level: 2, Name: "SP 2", AcademicYearStart: "2026-07-01", Points: 120, Status: api.LetterPrinted, IssuedAt: issued},
			Number: &number, VerifyCode: &code, VerifyURL: &url},
		ParentName: "Hartono", HomeroomName: "Ibu Kartika Sari", HomeroomNIP: "198502142010012004",
		ThresholdText: "Meskipun telah mendapat peringatan, siswa tersebut masih melakukan pelanggaran sehingga poinnya mencapai batas Surat Peringatan 2 (SP 2). " +
			"Dengan ini kami mengundang Bapak/Ibu orang tua/wali untuk hadir ke sekolah guna membicarakan pembinaan bersama guru BK dan wali kelas.",
		ThresholdFound: true,
	}
	// An SP 2 with the summons has room for this many rows on one page.
	for paper, room := range map[string]int{"A4": 8, "F4": 12} {
		t.Run(paper, func(t *testing.T) {
			t.Parallel()
			prof := school.Profile{Name: "SMA Negeri 5 Bandung", Address: "Jl. Belitung No. 8", City: "Bandung", PaperSize: paper,
				PrincipalName: "Dra. Sri Wahyuni, M.Pd.", PrincipalNIP: "197203152000031002", BKCoordinatorName: "Drs. Bambang Irawan"}
			onePage := 0
			for rows := 4; rows <= 36; rows += 4 {
				p := base
				p.Violations = nil
				for i := range rows {
					p.Violations = append(p.Violations, letter.Violation{OccurredOn: issued.AddDate(0, 0, -i-1), TypeName: "Merokok di lingkungan sekolah", Points: 5})
				}
				b, err := letter.Render(p, prof, nil)
				must(t, err)
				pages := pdfPages(t, b)
				if len(pages) == 1 {
					onePage = rows
				}
				last := pages[len(pages)-1]
				for i, pg := range pages[:len(pages)-1] {
					if strings.Contains(pg, "Kepala Sekolah,") {
						t.Errorf("%s, %d rows: signatures on page %d of %d", paper, rows, i+1, len(pages))
					}
				}
				if !strings.Contains(last, "Kepala Sekolah,") || !strings.Contains(last, "Demikian surat ini") || !strings.Contains(last, "Bapak/Ibu orang tua/wali untuk hadir") {
					t.Errorf("%s, %d rows: the last page does not hold the ending together:\n%s", paper, rows, last)
				}
			}
			if onePage < room {
				t.Errorf("%s: one page holds only %d rows", paper, onePage)
			}
		})
	}
}
