package achievement

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/attendancerecap"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/pdfdoc"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/server/internal/schoolday"
)

// termRow is one verified achievement of a student's term certificate.
type termRow struct {
	TypeName     string    `db:"type_name"`
	CategoryName string    `db:"category_name"`
	Level        string    `db:"level"`
	AchievedOn   time.Time `db:"achieved_on"`
	Description  string    `db:"description"`
	VerifiedAt   time.Time `db:"verified_at"`
	StudentName  string    `db:"student_name"`
	NISN         string    `db:"nisn"`
	ClassName    string    `db:"class_name"`
}

// termSQL lists student $1's verified achievements of the days $2..$3 the
// caller may see ($4: the homeroom id, 0 everyone; a homeroom teacher sees
// those of their class, then or now), oldest first. The class printed is
// the one of the term's latest achievement.
var termSQL = `SELECT t.name AS type_name, c.name AS category_name, a.level, a.achieved_on, a.description, a.verified_at,
		s.full_name AS student_name, s.nisn,
		COALESCE(first_value(x.class_name) OVER (ORDER BY a.achieved_on DESC, a.id DESC), '') AS class_name
	FROM achievement_students x
	JOIN achievements a ON a.id = x.achievement_id
	JOIN students s ON s.id = x.student_id
	JOIN achievement_types t ON t.id = a.achievement_type_id
	JOIN achievement_categories c ON c.id = t.category_id
	WHERE x.student_id = $1 AND a.verified_at IS NOT NULL AND a.achieved_on BETWEEN $2::date AND $3::date
	  AND ` + studentInScope(4) + `
	ORDER BY a.achieved_on, a.id`

// TermCertificate makes one "piagam" for student studentID listing their
// verified achievements of semester sem that the caller may see. A student
// the caller may not see is NotFound; a term without a verified
// achievement has no certificate (409).
func (s *Store) TermCertificate(ctx context.Context, sc Scope, studentID int64, sem attendancerecap.SemesterSpan) ([]byte, error) {
	var rows []termRow
	if err := s.db.SelectContext(ctx, &rows, termSQL, studentID, sem.From, sem.To, sc.HomeroomID); err != nil {
		return nil, fmt.Errorf("achievement: term: %w", err)
	}
	if len(rows) == 0 {
		var ok bool
		err := s.db.GetContext(ctx, &ok, `SELECT true FROM students s WHERE s.id = $1
			AND ($2::bigint = 0 OR s.class_id IN (SELECT id FROM classes WHERE homeroom_teacher_id = $2))`, studentID, sc.HomeroomID)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, apperr.New(apperr.NotFound, "achievement.term_certificate.student_not_found")
		}
		if err != nil {
			return nil, fmt.Errorf("achievement: term student: %w", err)
		}
		return nil, apperr.New(apperr.Conflict, "achievement.term_certificate.none")
	}
	prof, err := school.LoadProfile(ctx, s.db)
	if err != nil {
		return nil, err
	}
	logo, err := school.LoadLogo(ctx, s.db)
	if err != nil {
		return nil, err
	}
	return renderTerm(rows, sem, prof, logo)
}

// semesterName is "Semester 1 (Ganjil) Tahun Ajaran 2026/2027".
func semesterName(sem attendancerecap.SemesterSpan) string {
	half := "Ganjil"
	if sem.Number == 2 {
		half = "Genap"
	}
	return "Semester " + strconv.Itoa(sem.Number) + " (" + half + ") Tahun Ajaran " + sem.AcademicYear()
}

// renderTerm writes the term certificate: the letterhead, the student, a
// numbered list of the term's achievements, the signatures, dated the
// latest verification (so the same term prints the same document).
func renderTerm(rows []termRow, sem attendancerecap.SemesterSpan, prof school.Profile, logo []byte) ([]byte, error) {
	issued := rows[0].VerifiedAt
	for _, r := range rows {
		if r.VerifiedAt.After(issued) {
			issued = r.VerifiedAt
		}
	}
	issued = schoolday.In(issued)
	st := rows[0]
	d := pdfdoc.New(pdfdoc.Options{
		Paper:   pdfdoc.PaperByName(prof.PaperSize),
		Title:   "Piagam Penghargaan — " + st.StudentName + " — " + semesterName(sem),
		Author:  prof.Name,
		Created: issued,
	})
	w := d.ContentWidth()
	d.NewSection("")
	d.WriteLetterhead(pdfdoc.Letterhead{Name: prof.Name, Address: prof.Address, Phone: prof.Phone, Logo: logo})
	d.Ln(6)
	d.SetFont(pdfdoc.Font, "B", 20)
	d.CellFormat(w, 10, "PIAGAM PENGHARGAAN", "", 1, "C", false, 0, "")
	d.SetFont(pdfdoc.Font, "", 11)
	d.CellFormat(w, 6, "Surat Apresiasi Prestasi Siswa", "", 1, "C", false, 0, "")
	d.CellFormat(w, 6, semesterName(sem), "", 1, "C", false, 0, "")
	d.Ln(6)
	d.CellFormat(w, 6, "Diberikan kepada:", "", 1, "C", false, 0, "")
	d.Ln(2)
	d.SetFont(pdfdoc.Font, "B", 16)
	d.MultiCell(w, 8, st.StudentName, "", "C", false)
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
	d.Ln(5)
	d.CellFormat(w, 6, "atas prestasi yang diraihnya pada semester ini:", "", 1, "C", false, 0, "")
	d.Ln(2)
	for i, r := range rows {
		d.SetFont(pdfdoc.Font, "B", 11)
		d.MultiCell(w, 6, strconv.Itoa(i+1)+". "+r.TypeName, "", "L", false)
		d.SetFont(pdfdoc.Font, "", 10)
		line := "Tingkat " + levelNames[r.Level] + " · Kategori " + r.CategoryName + " · " + pdfdoc.DateID(r.AchievedOn)
		if r.Description != "" {
			line += " — " + r.Description
		}
		d.SetX(pdfdoc.MarginLeft + 5)
		d.MultiCell(w-5, 5, line, "", "L", false)
		d.Ln(1)
	}
	d.SetFont(pdfdoc.Font, "", 11)
	d.Ln(4)
	d.MultiCell(w, 5.5, "Semoga prestasi ini menjadi teladan dan penyemangat untuk terus berkarya dan menjunjung tinggi nama baik sekolah.", "", "C", false)
	d.Ln(10)
	d.KeepTogether(45)
	signatures(d, prof, issued)
	return d.Bytes()
}

// termCertificate answers GET /students/{id}/achievements/certificate.pdf
// ?year=2026[/2027]&semester=1|2 (both absent: the current semester), the
// semester named as the attendance hand-off names it.
func (h *Handler) termCertificate(w http.ResponseWriter, r *http.Request) error {
	studentID, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	q, err := attendancerecap.ParseSemester(r.URL.Query())
	if err != nil {
		return err
	}
	ctx := r.Context()
	prof, err := school.LoadProfile(ctx, h.store.db)
	if err != nil {
		return err
	}
	var sem attendancerecap.SemesterSpan
	if q.Year == 0 {
		sem = attendancerecap.SemesterOf(prof, schoolday.Today())
	} else {
		sem = attendancerecap.SemesterBounds(prof, q.Year, q.Number)
	}
	b, err := h.store.TermCertificate(ctx, ScopeOf(r), studentID, sem)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/pdf")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="piagam-semester-%d-%d-%d.pdf"`, studentID, sem.Year, sem.Number))
	w.Header().Set("Cache-Control", "private, no-store")
	_, err = w.Write(b)
	return err
}
