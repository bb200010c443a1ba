package cases_test

import (
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tatib/tatib/server/internal/audit"
	schoolpkg "github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/shared/perm"
)

func pdfText(t *testing.T, b []byte) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "f.pdf")
	must(t, os.WriteFile(file, b, 0o600))
	out, err := exec.Command("pdftotext", file, "-").Output()
	must(t, err)
	return strings.Join(strings.Fields(string(out)), " ")
}

func TestPDF(t *testing.T) {
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext not installed")
	}
	s := setup(t)
	prof := schoolpkg.DefaultProfile()
	prof.Name, prof.City, prof.PrincipalName = "SMA Negeri 9 Contoh", "Bandung", "Dra. Siti Aminah"
	_, err := schoolpkg.SaveProfile(context.Background(), s.env.DB, audit.Actor{ID: s.admin.UserID, Name: "admin"}, prof)
	must(t, err)

	s.bk.Do("GET", s.path()+"/referral.pdf", nil).Want(http.StatusConflict)
	s.bk.Do("PATCH", s.path(), map[string]any{"classification": "suspected_law"}).Want(http.StatusOK)
	t.Run("OKReferralWithholdsIdentities", func(t *testing.T) {
		text := pdfText(t, s.bk.Do("GET", s.path()+"/referral.pdf", nil).Want(http.StatusOK).Body)
		for _, want := range []string{"SMA Negeri 9 Contoh", "Pokja", "Nomor 6 Tahun 2026", s.perpName, "identitas dirahasiakan", "Dra. Siti Aminah", "Rahasia: uraian kejadian"} {
			if !strings.Contains(text, want) {
				t.Errorf("referral lacks %q: %s", want, text)
			}
		}
		for _, hidden := range []string{s.victimName, s.witnessName, "TP" + "PK"} {
			if strings.Contains(text, hidden) {
				t.Errorf("referral shows %q", hidden)
			}
		}
	})
	t.Run("OKIdentitiesByOwnerAudited", func(t *testing.T) {
		// A team member who owns no stage may not include them.
		s.bk.Do("PATCH", s.path(), map[string]any{"team": []int64{s.bk.UserID, s.waliA.UserID}}).Want(http.StatusOK)
		s.waliA.Do("GET", s.path()+"/referral.pdf?include_identities=true", nil).Want(http.StatusForbidden)
		text := pdfText(t, s.bk.Do("GET", s.path()+"/referral.pdf?include_identities=true", nil).Want(http.StatusOK).Body)
		if !strings.Contains(text, s.victimName) || !strings.Contains(text, s.witnessName) {
			t.Errorf("identities missing: %s", text)
		}
		var n int
		must(t, s.env.DB.Get(&n, `SELECT count(*) FROM audit_log WHERE action = 'case.referral.identities' AND entity_id = $1`, itoa(s.caseID)))
		if n != 1 {
			t.Errorf("%d audits of identities", n)
		}
		s.bk.Do("POST", s.path()+"/referrals", map[string]any{"sent_to": "Pokja Kota Bandung", "sent_on": "2026-11-01"}).Want(http.StatusCreated)
	})
	t.Run("OKReport", func(t *testing.T) {
		s.bk.Do("POST", s.path()+"/stage", map[string]any{"to": "handling", "notes": "Diklasifikasikan"}).Want(http.StatusOK)
		s.bk.Do("POST", s.path()+"/stage", map[string]any{"to": "conclusions", "notes": "Ditangani"}).Want(http.StatusOK)
		s.bk.Do("POST", s.path()+"/stage", map[string]any{"to": "closed", "notes": "Rekomendasi: pendampingan berlanjut"}).Want(http.StatusOK)
		text := pdfText(t, s.bk.Do("GET", s.path()+"/report.pdf", nil).Want(http.StatusOK).Body)
		for _, want := range []string{"LAPORAN PENANGANAN KASUS", "Dugaan pelanggaran peraturan perundang-undangan", "Rekomendasi: pendampingan berlanjut", "Kepala Sekolah", "Dra. Siti Aminah", "Penanggung jawab kasus"} {
			if !strings.Contains(text, want) {
				t.Errorf("report lacks %q: %s", want, text)
			}
		}
		if strings.Contains(text, s.victimName) {
			t.Error("report names the victim")
		}
		s.env.As(perm.KepalaSekolah).Do("GET", s.path()+"/report.pdf", nil).Want(http.StatusNotFound)
		s.env.As(perm.BK).Do("GET", s.path()+"/report.pdf", nil).Want(http.StatusForbidden)
		var n int
		must(t, s.env.DB.Get(&n, `SELECT count(*) FROM case_access_log WHERE case_id = $1 AND what IN ('report_pdf', 'referral_pdf')`, s.caseID))
		if n != 3 {
			t.Errorf("%d PDF reads logged", n)
		}
	})
}
