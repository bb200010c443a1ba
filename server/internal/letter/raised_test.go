package letter_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/letter"
)

// TestPDFClaimsOnlyDeliveredLetters: the default SP 2 text says an SP 1 was
// received. A letter raised to cover SP 1–2 follows no delivered SP 1: its
// PDF says it covers both and drops the claim; an SP 2 after a delivered
// SP 1 keeps it. The API lists the levels each covers.
func TestPDFClaimsOnlyDeliveredLetters(t *testing.T) {
	t.Parallel()
	f := setup(t)
	issued := time.Now().Add(-time.Hour)
	text := func(id int64) string {
		res := f.bk.Do("GET", "/api/v1/warning-letters/"+strconv.FormatInt(id, 10)+"/pdf", nil).Want(200)
		return strings.Join(strings.Fields(poppler(t, res.Body, "pdftotext", "-enc", "UTF-8")), " ")
	}
	const claim = "Meskipun telah menerima Surat Peringatan 1"

	raised := f.student(t, "Dewi Anggraini", "0031", f.classA)
	id := f.letter(t, raised, f.classA, 2, 110, issued)
	f.env.DB.MustExec(`UPDATE warning_letters SET levels_covered = '{1,2}', name = 'SP 1–2' WHERE id = $1`, id)
	if got := text(id); strings.Contains(got, claim) || !strings.Contains(got, "Surat ini sekaligus berlaku sebagai SP 1–2") ||
		!strings.Contains(got, "Siswa tersebut masih melakukan pelanggaran") {
		t.Errorf("raised letter:\n%s", got)
	}
	var l letter.Letter
	f.bk.Do("GET", "/api/v1/warning-letters/"+strconv.FormatInt(id, 10), nil).Want(200).JSON(&l)
	if len(l.LevelsCovered) != 2 || l.LevelsCovered[0] != 1 || l.LevelsCovered[1] != 2 || l.TotalFallen {
		t.Errorf("levels_covered %v, total_fallen %v", l.LevelsCovered, l.TotalFallen)
	}

	after := f.student(t, "Eko Prasetyo", "0032", f.classA)
	sp1 := f.letter(t, after, f.classA, 1, 55, issued.Add(-24*time.Hour))
	sp2 := f.letter(t, after, f.classA, 2, 105, issued) // the helper delivers SP 1 first
	if got := text(sp2); !strings.Contains(got, claim) {
		t.Errorf("SP 2 after a delivered SP 1:\n%s", got)
	}
	// SP 1 only signed (say SP 2 went out first, as a record): no claim.
	f.env.DB.MustExec(`UPDATE warning_letters SET status = 'delivered' WHERE id = $1`, sp2)
	f.env.DB.MustExec(`UPDATE warning_letters SET status = 'signed' WHERE id = $1`, sp1)
	if got := text(sp2); strings.Contains(got, claim) {
		t.Errorf("SP 2 after a signed SP 1:\n%s", got)
	}
}
