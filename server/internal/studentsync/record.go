package studentsync

import (
	"strings"
	"time"

	"github.com/tatib/tatib/server/internal/roster"
)

// sourceStudent is one student as Tatib stores it, read leniently from the
// student-affairs shape: alternative field names are accepted, types are
// coerced, unknown fields ignored.
type sourceStudent struct {
	ID            int64
	NISN          string
	NIS           string
	FullName      string
	Gender        string // L, P or ""
	PlaceOfBirth  string
	DateOfBirth   string // YYYY-MM-DD or ""
	Address       string
	Phone         string
	Email         string
	ClassName     string
	ClassSourceID int64
	Grade         int // 10, 11, 12 or 0
	DeptCode      string
	DeptName      string
	AcademicYear  string
	Active        bool
	PhotoPath     string
	ParentName    string
	ParentPhone   string
}

func first(m map[string]any, keys ...string) string {
	for _, k := range keys {
		if s := asString(m[k]); s != "" {
			return s
		}
	}
	return ""
}

func studentFromMap(m map[string]any) sourceStudent {
	var s sourceStudent
	s.ID, _ = asInt(m["id"])
	s.NISN = first(m, "nisn")
	s.NIS = first(m, "student_number", "nis")
	s.FullName = collapseSpaces(first(m, "full_name", "name", "nama"))
	s.Gender = normalizeGender(first(m, "gender", "jenis_kelamin", "sex"))
	s.PlaceOfBirth = first(m, "place_of_birth", "tempat_lahir")
	s.DateOfBirth = normalizeDate(first(m, "date_of_birth", "tanggal_lahir", "birth_date"))
	s.Address = first(m, "address", "alamat")
	s.Phone = first(m, "phone_number", "phone", "no_hp")
	s.Email = first(m, "email")
	s.ClassName = collapseSpaces(first(m, "class_name", "kelas"))
	s.Grade = roster.ParseGrade(first(m, "class_level", "grade", "tingkat"))
	if cr, ok := m["classroom"].(map[string]any); ok {
		s.ClassSourceID, _ = asInt(cr["id"])
		if s.Grade == 0 {
			s.Grade = roster.ParseGrade(asString(cr["level"]))
		}
		if s.ClassName == "" {
			s.ClassName = collapseSpaces(first(cr, "name"))
		}
	}
	if s.Grade == 0 && s.ClassName != "" {
		s.Grade = roster.ParseGrade(strings.Fields(s.ClassName)[0])
	}
	s.DeptCode = strings.ToUpper(first(m, "department_code", "jurusan_code"))
	s.DeptName = first(m, "department_name", "jurusan")
	if s.DeptCode == "" && s.DeptName != "" {
		s.DeptCode = strings.ToUpper(s.DeptName)
	}
	s.AcademicYear = first(m, "academic_year_name", "academic_year", "tahun_ajaran")
	switch strings.ToLower(first(m, "status")) {
	case "", "active", "aktif", "1", "true":
		s.Active = true
	}
	s.PhotoPath = first(m, "photo_path", "photo")
	s.ParentName = first(m, "parent_name", "guardian_name", "father_name", "mother_name", "nama_orang_tua", "nama_wali")
	s.ParentPhone = first(m, "parent_phone", "guardian_phone", "father_phone", "mother_phone", "parent_phone_number", "no_hp_orang_tua")
	return s
}

func collapseSpaces(s string) string { return strings.Join(strings.Fields(s), " ") }

func normalizeGender(g string) string {
	switch strings.ToLower(strings.TrimSpace(g)) {
	case "l", "m", "male", "laki-laki", "laki laki", "lakilaki", "pria":
		return "L"
	case "p", "f", "female", "perempuan", "wanita":
		return "P"
	}
	return ""
}

// normalizeDate accepts 2008-05-01, 2008-05-01T00:00:00.000000Z,
// 01-05-2008 and 01/05/2008; anything else is "".
func normalizeDate(v string) string {
	if len(v) >= 10 {
		if t, err := time.Parse("2006-01-02", v[:10]); err == nil {
			return t.Format("2006-01-02")
		}
		for _, layout := range []string{"02-01-2006", "02/01/2006"} {
			if t, err := time.Parse(layout, v[:10]); err == nil {
				return t.Format("2006-01-02")
			}
		}
	}
	return ""
}
