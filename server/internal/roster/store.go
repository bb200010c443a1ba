package roster

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/phone"
	"github.com/tatib/tatib/shared/perm"
)

// Scope limits what a caller sees: a homeroom teacher (HomeroomID != 0)
// sees only the class whose homeroom teacher they are. Every query of this
// package takes it into its WHERE clause.
type Scope struct {
	HomeroomID int64
}

// Department is a study programme (jurusan).
type Department struct {
	ID           int64  `json:"id" db:"id"`
	Code         string `json:"code" db:"code"`
	Name         string `json:"name" db:"name"`
	ClassCount   int    `json:"class_count" db:"class_count"`
	StudentCount int    `json:"student_count" db:"student_count" jsonschema_description:"active students"`
}

// Teacher is a homeroom teacher as a class shows them.
type Teacher struct {
	ID       int64  `json:"id"`
	Name     string `json:"name"`
	Username string `json:"username"`
}

// Class is a class (rombel) with its department, grade, active student
// count and homeroom teacher.
type Class struct {
	ID              int64    `json:"id" db:"id"`
	Name            string   `json:"name" db:"name"`
	Grade           int      `json:"grade" db:"grade" jsonschema:"minimum=1,maximum=12"`
	GradeLabel      string   `json:"grade_label" db:"-" jsonschema_description:"the grade in Roman numerals, I–XII"`
	Level           string   `json:"level" db:"-" jsonschema:"enum=sd,enum=smp,enum=sma" jsonschema_description:"school level: sd 1–6, smp 7–9, sma 10–12"`
	AcademicYear    string   `json:"academic_year" db:"academic_year"`
	SourceID        *int64   `json:"source_id" db:"source_id" jsonschema_description:"student-affairs classroom id"`
	DepartmentID    *int64   `json:"department_id" db:"department_id"`
	DepartmentCode  *string  `json:"department_code" db:"department_code"`
	DepartmentName  *string  `json:"department_name" db:"department_name"`
	StudentCount    int      `json:"student_count" db:"student_count" jsonschema_description:"active students"`
	HomeroomTeacher *Teacher `json:"homeroom_teacher" db:"-"`
	TeacherID       *int64   `json:"-" db:"teacher_id"`
	TeacherName     *string  `json:"-" db:"teacher_name"`
	TeacherUsername *string  `json:"-" db:"teacher_username"`
}

func (c *Class) fill() {
	c.GradeLabel = gradeLabel(c.Grade)
	c.Level = schoolLevel(c.Grade)
	if c.TeacherID != nil {
		c.HomeroomTeacher = &Teacher{ID: *c.TeacherID, Name: deref(c.TeacherName), Username: deref(c.TeacherUsername)}
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// MinGrade and MaxGrade bound a class's grade: primary (SD/MI) 1–6,
// junior high (SMP/MTs) 7–9, senior high (SMA/SMK/MA) 10–12.
const (
	MinGrade = 1
	MaxGrade = 12
)

var romanGrades = [...]string{"", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII"}

// gradeLabel writes a grade in Roman numerals, as Indonesian schools name
// their classes at every level ("VII A", "X TKJ 1").
func gradeLabel(g int) string {
	if g < MinGrade || g > MaxGrade {
		return ""
	}
	return romanGrades[g]
}

// schoolLevel is the school level a grade belongs to.
func schoolLevel(g int) string {
	switch {
	case g >= 1 && g <= 6:
		return "sd"
	case g >= 7 && g <= 9:
		return "smp"
	case g >= 10 && g <= 12:
		return "sma"
	}
	return ""
}

// Student is a student as Tatib keeps it. SourceID is the student-affairs
// id (what the journal sends as source_student_id).
type Student struct {
	ID           int64   `json:"id" db:"id"`
	SourceID     int64   `json:"source_id" db:"source_id" jsonschema_description:"the student-affairs id (the journal's source_student_id)"`
	NISN         string  `json:"nisn" db:"nisn"`
	NIS          string  `json:"nis" db:"nis"`
	FullName     string  `json:"full_name" db:"full_name"`
	Gender       string  `json:"gender" db:"gender" jsonschema:"enum=L,enum=P,enum="`
	PlaceOfBirth string  `json:"place_of_birth" db:"place_of_birth"`
	DateOfBirth  *string `json:"date_of_birth" db:"date_of_birth" jsonschema:"format=date"`
	Address      string  `json:"address" db:"address"`
	Phone        string  `json:"phone" db:"phone"`
	Email        string  `json:"email" db:"email"`
	ParentName   string  `json:"parent_name" db:"parent_name"`
	ParentPhone  string  `json:"parent_phone" db:"parent_phone"`
	// ParentContactSource is "sync" (the parent's name and phone follow
	// student affairs) or "staff" (edited in Tatib; syncs only update the
	// Synced* values shown beside them).
	ParentContactSource string `json:"parent_contact_source" db:"parent_contact_source" jsonschema:"enum=sync,enum=staff" jsonschema_description:"sync: the parent contact follows student affairs; staff: edited in Tatib, syncs only update synced_parent_*"`
	SyncedParentName    string `json:"synced_parent_name" db:"synced_parent_name" jsonschema_description:"what student affairs last said"`
	SyncedParentPhone   string `json:"synced_parent_phone" db:"synced_parent_phone" jsonschema_description:"what student affairs last said"`
	// ParentPhoneIssue says why ParentPhone cannot receive a WhatsApp
	// message: "", "missing", "invalid" or "not_mobile".
	ParentPhoneIssue string     `json:"parent_phone_issue" db:"-" jsonschema:"enum=,enum=missing,enum=invalid,enum=not_mobile" jsonschema_description:"why parent_phone cannot receive a WhatsApp message (empty: it can)"`
	PhotoPath        string     `json:"photo_path" db:"photo_path"`
	Active           bool       `json:"active" db:"active"`
	ClassID          *int64     `json:"class_id" db:"class_id"`
	ClassName        *string    `json:"class_name" db:"class_name"`
	Grade            *int       `json:"grade" db:"grade"`
	GradeLabel       string     `json:"grade_label" db:"-" jsonschema_description:"I–XII, empty without a class"`
	DepartmentID     *int64     `json:"department_id" db:"department_id"`
	DepartmentCode   *string    `json:"department_code" db:"department_code"`
	DepartmentName   *string    `json:"department_name" db:"department_name"`
	SyncedAt         *time.Time `json:"synced_at" db:"synced_at"`
	CreatedAt        time.Time  `json:"created_at" db:"created_at"`
	UpdatedAt        time.Time  `json:"updated_at" db:"updated_at"`
}

// StudentFilter narrows the student list.
type StudentFilter struct {
	Q            string
	DepartmentID int64
	Grade        int
	ClassID      int64
	Active       *bool
}

// Store reads and writes school data.
type Store struct {
	db *sqlx.DB
}

// NewStore returns a Store.
func NewStore(db *sqlx.DB) *Store { return &Store{db: db} }

// Departments lists departments; a homeroom teacher sees only their class's,
// and its counts cover only their class.
func (s *Store) Departments(ctx context.Context, sc Scope) ([]Department, error) {
	const q = `SELECT d.id, d.code, d.name,
			(SELECT count(*) FROM classes c WHERE c.department_id = d.id
				AND ($1::bigint = 0 OR c.homeroom_teacher_id = $1)) AS class_count,
			(SELECT count(*) FROM students st JOIN classes c ON c.id = st.class_id WHERE c.department_id = d.id AND st.active
				AND ($1::bigint = 0 OR c.homeroom_teacher_id = $1)) AS student_count
		FROM departments d
		WHERE ($1::bigint = 0 OR d.id IN (SELECT department_id FROM classes WHERE homeroom_teacher_id = $1))
		ORDER BY d.code`
	out := []Department{}
	if err := s.db.SelectContext(ctx, &out, q, sc.HomeroomID); err != nil {
		return nil, fmt.Errorf("school: departments: %w", err)
	}
	return out, nil
}

const classSelect = `SELECT c.id, c.name, c.grade, c.academic_year, c.source_id, c.department_id,
		d.code AS department_code, d.name AS department_name,
		(SELECT count(*) FROM students st WHERE st.class_id = c.id AND st.active) AS student_count,
		u.id AS teacher_id, u.name AS teacher_name, u.username AS teacher_username
	FROM classes c
	LEFT JOIN departments d ON d.id = c.department_id
	LEFT JOIN users u ON u.id = c.homeroom_teacher_id`

// Classes lists classes by grade and name; a homeroom teacher sees only
// their own.
func (s *Store) Classes(ctx context.Context, sc Scope, departmentID int64, grade int) ([]Class, error) {
	const q = classSelect + `
		WHERE ($1::bigint = 0 OR c.homeroom_teacher_id = $1)
		  AND ($2::bigint = 0 OR c.department_id = $2)
		  AND ($3::int = 0 OR c.grade = $3)
		ORDER BY c.grade, c.name`
	out := []Class{}
	if err := s.db.SelectContext(ctx, &out, q, sc.HomeroomID, departmentID, grade); err != nil {
		return nil, fmt.Errorf("school: classes: %w", err)
	}
	for i := range out {
		out[i].fill()
	}
	return out, nil
}

// Class returns one class within the caller's scope.
func (s *Store) Class(ctx context.Context, q sqlx.QueryerContext, sc Scope, id int64) (Class, error) {
	var c Class
	err := sqlx.GetContext(ctx, q, &c, classSelect+` WHERE c.id = $1 AND ($2::bigint = 0 OR c.homeroom_teacher_id = $2)`, id, sc.HomeroomID)
	if err != nil {
		return c, pg.Error(err, "entity.class")
	}
	c.fill()
	return c, nil
}

// SetHomeroomTeacher assigns (or with nil removes) a class's homeroom
// teacher: an active wali_kelas user who is not already homeroom teacher of
// another class.
func (s *Store) SetHomeroomTeacher(ctx context.Context, actor audit.Actor, sc Scope, classID int64, teacherID *int64) (Class, error) {
	var out Class
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		// The names go into the audit entry beside the ids: a reader of the
		// log should not have to look up who user 12 was.
		var before struct {
			ID   *int64  `db:"homeroom_teacher_id"`
			Name *string `db:"name"`
		}
		err := tx.GetContext(ctx, &before, `SELECT c.homeroom_teacher_id, u.name FROM classes c
			LEFT JOIN users u ON u.id = c.homeroom_teacher_id
			WHERE c.id = $1 AND ($2::bigint = 0 OR c.homeroom_teacher_id = $2) FOR UPDATE OF c`, classID, sc.HomeroomID)
		if err != nil {
			return pg.Error(err, "entity.class")
		}
		var afterName *string
		if teacherID != nil {
			var u struct {
				Role   perm.Role `db:"role"`
				Active bool      `db:"active"`
				Name   string    `db:"name"`
			}
			err := tx.GetContext(ctx, &u, `SELECT role, active, name FROM users WHERE id = $1 FOR SHARE`, *teacherID)
			if err != nil {
				if errors.Is(err, sql.ErrNoRows) {
					return apperr.New(apperr.Invalid, "school.teacher.not_found").WithField("homeroom_teacher_id", "school.teacher.not_found")
				}
				return err
			}
			if u.Role != perm.WaliKelas || !u.Active {
				return apperr.New(apperr.Invalid, "school.teacher.not_homeroom").WithField("homeroom_teacher_id", "school.teacher.not_homeroom")
			}
			afterName = &u.Name
			var other string
			err = tx.GetContext(ctx, &other, `SELECT name FROM classes WHERE homeroom_teacher_id = $1 AND id <> $2`, *teacherID, classID)
			if err == nil {
				return apperr.New(apperr.Invalid, "school.teacher.has_class", "class", other).
					WithField("homeroom_teacher_id", "school.teacher.has_class", "class", other)
			}
			if !errors.Is(err, sql.ErrNoRows) {
				return err
			}
		}
		_, err = tx.ExecContext(ctx, `UPDATE classes SET homeroom_teacher_id = $2, updated_at = now() WHERE id = $1`, classID, teacherID)
		if pg.IsUnique(err, "classes_homeroom_teacher_key") {
			return apperr.New(apperr.Invalid, "school.teacher.has_other_class").WithField("homeroom_teacher_id", "school.teacher.has_other_class")
		}
		if err != nil {
			return fmt.Errorf("school: set homeroom teacher: %w", err)
		}
		if err := audit.Record(ctx, tx, actor, "class.homeroom_teacher.update", "class", strconv.FormatInt(classID, 10),
			map[string]any{"before": before.ID, "after": teacherID,
				"teacher": map[string]any{"from": before.Name, "to": afterName}}); err != nil {
			return err
		}
		out, err = s.Class(ctx, tx, Scope{}, classID)
		return err
	})
	return out, err
}

const studentSelect = `SELECT s.id, s.source_id, s.nisn, s.nis, s.full_name, s.gender, s.place_of_birth,
		to_char(s.date_of_birth, 'YYYY-MM-DD') AS date_of_birth, s.address, s.phone, s.email, s.parent_name, s.parent_phone,
		s.parent_contact_source, s.synced_parent_name, s.synced_parent_phone, s.photo_path, s.active, s.class_id, c.name AS class_name, c.grade, c.department_id, d.code AS department_code,
		d.name AS department_name, s.synced_at, s.created_at, s.updated_at`

const studentFrom = ` FROM students s
	LEFT JOIN classes c ON c.id = s.class_id
	LEFT JOIN departments d ON d.id = c.department_id`

// likePattern makes q a LIKE "contains" pattern with its wildcards escaped.
func likePattern(q string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(strings.ToLower(q)) + "%"
}

// Students returns one page of students matching f, in class then name
// order; a homeroom teacher sees only their own class's students.
func (s *Store) Students(ctx context.Context, sc Scope, f StudentFilter, p httpx.Paging) ([]Student, int, error) {
	const q = studentSelect + `, count(*) OVER () AS total` + studentFrom + `
		WHERE ($1::bigint = 0 OR c.homeroom_teacher_id = $1)
		  AND ($2 = '' OR lower(s.full_name) LIKE $3 OR s.nisn LIKE $3 OR lower(s.nis) LIKE $3)
		  AND ($4::bigint = 0 OR c.department_id = $4)
		  AND ($5::int = 0 OR c.grade = $5)
		  AND ($6::bigint = 0 OR s.class_id = $6)
		  AND ($7::boolean IS NULL OR s.active = $7)
		ORDER BY c.grade NULLS LAST, c.name NULLS LAST, lower(s.full_name), s.id
		LIMIT $8 OFFSET $9`
	var rows []struct {
		Student
		Total int `db:"total"`
	}
	err := s.db.SelectContext(ctx, &rows, q, sc.HomeroomID, f.Q, likePattern(f.Q), f.DepartmentID, f.Grade, f.ClassID, f.Active,
		p.PerPage, p.Offset())
	if err != nil {
		return nil, 0, fmt.Errorf("school: students: %w", err)
	}
	out := make([]Student, 0, len(rows))
	total := 0
	for _, r := range rows {
		r.Student.fill()
		out = append(out, r.Student)
		total = r.Total
	}
	if len(rows) == 0 && p.Page > 1 {
		// count(*) OVER () has no row to ride on past the last page.
		if err := s.db.GetContext(ctx, &total, `SELECT count(*)`+studentFrom+`
			WHERE ($1::bigint = 0 OR c.homeroom_teacher_id = $1)
			  AND ($2 = '' OR lower(s.full_name) LIKE $3 OR s.nisn LIKE $3 OR lower(s.nis) LIKE $3)
			  AND ($4::bigint = 0 OR c.department_id = $4) AND ($5::int = 0 OR c.grade = $5)
			  AND ($6::bigint = 0 OR s.class_id = $6) AND ($7::boolean IS NULL OR s.active = $7)`,
			sc.HomeroomID, f.Q, likePattern(f.Q), f.DepartmentID, f.Grade, f.ClassID, f.Active); err != nil {
			return nil, 0, fmt.Errorf("school: students: count: %w", err)
		}
	}
	return out, total, nil
}

func (st *Student) fill() {
	if st.Grade != nil {
		st.GradeLabel = gradeLabel(*st.Grade)
	}
	_, p := phone.Normalize(st.ParentPhone)
	st.ParentPhoneIssue = string(p)
}

// Student returns one student within the caller's scope. Another class's
// student is Forbidden to a homeroom teacher ("not in your class", nothing
// of the student); an id that does not exist is NotFound.
func (s *Store) Student(ctx context.Context, sc Scope, id int64) (Student, error) {
	return getStudent(ctx, s.db, sc, id)
}

func getStudent(ctx context.Context, q sqlx.QueryerContext, sc Scope, id int64) (Student, error) {
	var st Student
	err := sqlx.GetContext(ctx, q, &st, studentSelect+studentFrom+` WHERE s.id = $1 AND ($2::bigint = 0 OR c.homeroom_teacher_id = $2)`, id, sc.HomeroomID)
	if err != nil {
		return Student{}, studentNotFound(ctx, q, sc, id, err)
	}
	st.fill()
	return st, nil
}

// studentNotFound turns a query's "no rows" for student id into what the
// caller may know: Forbidden ("not in your class", nothing of the student)
// for a homeroom teacher when the student exists, else NotFound.
func studentNotFound(ctx context.Context, q sqlx.QueryerContext, sc Scope, id int64, err error) error {
	if sc.HomeroomID != 0 && errors.Is(err, sql.ErrNoRows) {
		var exists bool
		if err := sqlx.GetContext(ctx, q, &exists, `SELECT EXISTS (SELECT 1 FROM students WHERE id = $1)`, id); err != nil {
			return fmt.Errorf("school: student exists: %w", err)
		}
		if exists {
			return apperr.New(apperr.Forbidden, "school.student_not_in_class")
		}
	}
	return pg.Error(err, "entity.student")
}

// ParseGrade reads a grade 1–12 written as a number ("7", "10"), in Roman
// numerals ("VII", "X"), with "Kelas" before it, or as the start of a class
// name ("7A", "VII-B"); anything else is 0.
func ParseGrade(v string) int {
	v = strings.TrimSpace(strings.TrimPrefix(strings.ToUpper(strings.TrimSpace(v)), "KELAS"))
	if v == "" {
		return 0
	}
	for g := MaxGrade; g >= MinGrade; g-- {
		if v == romanGrades[g] || v == strconv.Itoa(g) {
			return g
		}
	}
	// "7A", "10-IPA": a number followed by a class letter or separator.
	i := 0
	for i < len(v) && i < 2 && v[i] >= '0' && v[i] <= '9' {
		i++
	}
	if i > 0 && i < len(v) && !(v[i] >= '0' && v[i] <= '9') {
		if g, _ := strconv.Atoi(v[:i]); g >= MinGrade && g <= MaxGrade {
			return g
		}
	}
	// "VII-B", "XII.IPA": Roman numerals followed by a separator.
	if j := strings.IndexAny(v, "-./_"); j > 0 {
		head := v[:j]
		for g := MaxGrade; g >= MinGrade; g-- {
			if head == romanGrades[g] {
				return g
			}
		}
	}
	return 0
}
