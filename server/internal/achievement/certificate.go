package achievement

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/pdfdoc"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/shared/api"
)

// levelNames are the levels as a certificate writes them.
var levelNames = map[string]string{
	api.LevelSekolah: "Sekolah", api.LevelKabupaten: "Kabupaten/Kota", api.LevelProvinsi: "Provinsi",
	api.LevelNasional: "Nasional", api.LevelInternasional: "Internasional",
}

// Certificate makes the "piagam penghargaan" of a verified achievement the
// caller may see: one page per student (a team's certificate names each
// member on their own page), or only studentID's when it is not 0. An
// achievement not yet verified has none (409).
func (s *Store) Certificate(ctx context.Context, sc Scope, achID, studentID int64) ([]byte, api.Achievement, error) {
	a, err := s.Get(ctx, sc, achID)
	if err != nil {
		return nil, a, err
	}
	if a.VerifiedAt == nil {
		return nil, a, apperr.New(apperr.Conflict, "achievement.certificate.unverified")
	}
	students := a.Students
	if studentID != 0 {
		students = nil
		for _, st := range a.Students {
			if st.ID == studentID {
				students = append(students, st)
			}
		}
		if len(students) == 0 {
			return nil, a, apperr.New(apperr.NotFound, "achievement.certificate.student_not_found")
		}
	}
	prof, err := school.LoadProfile(ctx, s.db)
	if err != nil {
		return nil, a, err
	}
	logo, err := school.LoadLogo(ctx, s.db)
	if err != nil {
		return nil, a, err
	}
	b, err := RenderCertificate(a, students, prof, logo)
	return b, a, err
}

// RenderCertificate writes one certificate page per student on the
// school's letterhead, in Indonesian (an official document of the school).
func RenderCertificate(a api.Achievement, students []api.AchievementStudent, prof school.Profile, logo []byte) ([]byte, error) {
	day, err := schoolday.ParseDate(a.AchievedOn)
	if err != nil {
		return nil, fmt.Errorf("achievement: certificate date: %w", err)
	}
	issued := schoolday.In(time.Now())
	if a.VerifiedAt != nil {
		issued = schoolday.In(*a.VerifiedAt)
	}
	d := pdfdoc.New(pdfdoc.Options{
		Paper:   pdfdoc.PaperByName(prof.PaperSize),
		Title:   "Piagam Penghargaan — " + a.TypeName,
		Author:  prof.Name,
		Created: issued,
	})
	w := d.ContentWidth()
	for _, st := range students {
		d.NewSection("")
		d.WriteLetterhead(pdfdoc.Letterhead{Name: prof.Name, Address: prof.Address, Phone: prof.Phone, Logo: logo})
		d.Ln(8)
		d.SetFont(pdfdoc.Font, "B", 20)
		d.CellFormat(w, 10, "PIAGAM PENGHARGAAN", "", 1, "C", false, 0, "")
		d.SetFont(pdfdoc.Font, "", 11)
		d.CellFormat(w, 6, "Surat Apresiasi Prestasi Siswa", "", 1, "C", false, 0, "")
		d.Ln(8)
		d.CellFormat(w, 6, "Diberikan kepada:", "", 1, "C", false, 0, "")
		d.Ln(2)
		d.SetFont(pdfdoc.Font, "B", 16)
		d.MultiCell(w, 8, st.Name, "", "C", false)
		d.SetFont(pdfdoc.Font, "", 11)
		facts := []string{}
		if st.NISN != "" {
			facts = append(facts, "NISN "+st.NISN)
		}
		if st.ClassName != "" {
			facts = append(facts, "Kelas "+st.ClassName)
		}
		if len(facts) > 0 {
			d.CellFormat(w, 6, strings.Join(facts, " · "), "", 1, "C", false, 0, "")
		}
		d.Ln(6)
		d.CellFormat(w, 6, "atas prestasinya:", "", 1, "C", false, 0, "")
		d.Ln(1)
		d.SetFont(pdfdoc.Font, "B", 13)
		d.MultiCell(w, 7, a.TypeName, "", "C", false)
		d.SetFont(pdfdoc.Font, "", 11)
		d.CellFormat(w, 6, "Tingkat "+levelNames[a.Level]+" · Kategori "+a.CategoryName+" · "+pdfdoc.DateID(day.Time()), "", 1, "C", false, 0, "")
		if a.Description != "" {
			d.Ln(2)
			d.MultiCell(w, 5.5, a.Description, "", "C", false)
		}
		if len(a.Students) > 1 {
			d.Ln(2)
			d.CellFormat(w, 6, "bersama tim "+strconv.Itoa(len(a.Students))+" siswa", "", 1, "C", false, 0, "")
		}
		d.Ln(6)
		d.MultiCell(w, 5.5, "Semoga prestasi ini menjadi teladan dan penyemangat untuk terus berkarya dan menjunjung tinggi nama baik sekolah.", "", "C", false)
		d.Ln(12)
		signatures(d, prof, issued)
	}
	return d.Bytes()
}

// signatures writes the place and date over the BK coordinator's and the
// principal's signatures side by side.
func signatures(d *pdfdoc.Doc, prof school.Profile, at time.Time) {
	w := d.ContentWidth()
	col := w / 2
	place := pdfdoc.DateID(at)
	if c := strings.TrimSpace(prof.City); c != "" {
		place = c + ", " + place
	}
	d.SetX(pdfdoc.MarginLeft + col)
	d.CellFormat(col, 5, place, "", 1, "C", false, 0, "")
	y := d.GetY()
	for i, s := range []struct{ role, name, nip string }{
		{"Koordinator BK,", prof.BKCoordinatorName, prof.BKCoordinatorNIP},
		{"Kepala Sekolah,", prof.PrincipalName, prof.PrincipalNIP},
	} {
		x := pdfdoc.MarginLeft + float64(i)*col
		d.SetXY(x, y)
		d.CellFormat(col, 5, s.role, "", 2, "C", false, 0, "")
		d.SetXY(x, y+25)
		d.SetFont(pdfdoc.Font, "B", 11)
		name := s.name
		if strings.TrimSpace(name) == "" {
			name = "(................................)"
		}
		d.CellFormat(col, 5, name, "", 2, "C", false, 0, "")
		d.SetFont(pdfdoc.Font, "", 10)
		if s.nip != "" {
			d.SetX(x)
			d.CellFormat(col, 5, "NIP "+s.nip, "", 2, "C", false, 0, "")
		}
		d.SetFont(pdfdoc.Font, "", 11)
	}
}

func (h *Handler) certificate(w http.ResponseWriter, r *http.Request) error {
	achID, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	studentID, err := idParam(r, "student_id")
	if err != nil {
		return err
	}
	b, a, err := h.store.Certificate(r.Context(), ScopeOf(r), achID, studentID)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/pdf")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="piagam-prestasi-%d.pdf"`, a.ID))
	w.Header().Set("Cache-Control", "private, no-store")
	_, err = w.Write(b)
	return err
}
