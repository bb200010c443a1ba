// Package vltest builds a small school with violations for the list,
// export and handling tests: rows go in with SQL, as the recording API is
// another package's subject.
package vltest

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/server/internal/violationtype"
	"github.com/tatib/tatib/shared/perm"
)

// School is a fresh API with two departments, three classes (A and B with
// their homeroom teachers, C without) and the default violation types and
// handling types.
type School struct {
	T                testing.TB
	Env              *apitest.Env
	DeptRPL, DeptTKJ int64
	ClassA, ClassB   int64 // grade 10 RPL, grade 11 TKJ
	ClassC           int64 // grade 10 TKJ, no homeroom teacher
	TeacherA         *apitest.Client
	TeacherB         *apitest.Client
	BK               *apitest.Client
	// Types: two in category Ringan, one in Berat.
	TypeLight1, TypeLight2, TypeHeavy int64
	CatLight, CatHeavy                int64
	seq                               atomic.Int64
}

// New builds the school.
func New(t testing.TB) *School {
	t.Helper()
	env := apitest.New(t)
	ctx := context.Background()
	if err := violationtype.Boot(ctx, env.Deps); err != nil {
		t.Fatal(err)
	}
	s := &School{T: t, Env: env}
	s.BK = env.As(perm.BK)
	s.TeacherA = env.As(perm.WaliKelas)
	s.TeacherB = env.As(perm.WaliKelas)
	s.DeptRPL = s.id(`INSERT INTO departments (code, name) VALUES ('RPL', 'Rekayasa Perangkat Lunak') RETURNING id`)
	s.DeptTKJ = s.id(`INSERT INTO departments (code, name) VALUES ('TKJ', 'Teknik Komputer dan Jaringan') RETURNING id`)
	s.ClassA = s.id(`INSERT INTO classes (name, grade, department_id, homeroom_teacher_id) VALUES ('X RPL 1', 10, $1, $2) RETURNING id`, s.DeptRPL, s.TeacherA.UserID)
	s.ClassB = s.id(`INSERT INTO classes (name, grade, department_id, homeroom_teacher_id) VALUES ('XI TKJ 1', 11, $1, $2) RETURNING id`, s.DeptTKJ, s.TeacherB.UserID)
	s.ClassC = s.id(`INSERT INTO classes (name, grade, department_id) VALUES ('X TKJ 2', 10, $1) RETURNING id`, s.DeptTKJ)
	s.CatLight = s.id(`SELECT id FROM violation_categories WHERE name = 'Ringan'`)
	s.CatHeavy = s.id(`SELECT id FROM violation_categories WHERE name = 'Berat'`)
	s.TypeLight1 = s.id(`SELECT id FROM violation_types WHERE slug = 'alpha'`)
	s.TypeLight2 = s.id(`SELECT id FROM violation_types WHERE slug = 'terlambat'`)
	s.TypeHeavy = s.id(`INSERT INTO violation_types (name, slug, points, category_id) VALUES ('Berkelahi', 'berkelahi', 40, $1) RETURNING id`, s.CatHeavy)
	return s
}

func (s *School) id(q string, args ...any) int64 {
	s.T.Helper()
	var id int64
	if err := s.Env.DB.GetContext(context.Background(), &id, q, args...); err != nil {
		s.T.Fatalf("%s: %v", q, err)
	}
	return id
}

// Student adds a student now in class (0: none).
func (s *School) Student(name, nisn, nis string, class int64) int64 {
	s.T.Helper()
	var c any
	if class != 0 {
		c = class
	}
	return s.id(`INSERT INTO students (source_id, full_name, nisn, nis, class_id) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
		900000+s.seq.Add(1), name, nisn, nis, c)
}

// V is a violation to insert. Zero values take defaults: the student's
// current class, TypeLight1, now, 5 points, recorded by BK.
type V struct {
	Student     int64
	Class       int64 // the class that day; -1 for none
	Type        int64
	At          time.Time
	Points      int
	Journal     bool // recorded_by null
	RecordedBy  int64
	Description string
	Verified    bool
	Status      string
}

// Violation inserts v and returns its id.
func (s *School) Violation(v V) int64 {
	s.T.Helper()
	if v.Type == 0 {
		v.Type = s.TypeLight1
	}
	if v.At.IsZero() {
		v.At = time.Now()
	}
	if v.Points == 0 {
		v.Points = 5
	}
	if v.Status == "" {
		v.Status = "unhandled"
	}
	var recorder any = s.BK.UserID
	if v.RecordedBy != 0 {
		recorder = v.RecordedBy
	}
	if v.Journal {
		recorder = nil
	}
	class := any(nil)
	switch {
	case v.Class > 0:
		class = v.Class
	case v.Class == 0:
		var cur *int64
		if err := s.Env.DB.Get(&cur, `SELECT class_id FROM students WHERE id = $1`, v.Student); err != nil {
			s.T.Fatal(err)
		}
		if cur != nil {
			class = *cur
		}
	}
	return s.id(`INSERT INTO violations (student_id, class_id, class_name, violation_type_id, occurred_at, occurred_on, points,
			description, recorded_by, verified_by, verified_at, handling_status)
		VALUES ($1, $2, coalesce((SELECT name FROM classes WHERE id = $2), ''), $3, $4, $5::date, $6, $7, $8,
			CASE WHEN $9 THEN $10::bigint END, CASE WHEN $9 THEN now() END, $11) RETURNING id`,
		v.Student, class, v.Type, v.At, schoolday.Of(v.At), v.Points, v.Description, recorder,
		v.Verified, s.BK.UserID, v.Status)
}

// Handling adds a handling record of the first handling type with one
// participant per role given ("name:role").
func (s *School) Handling(violation int64, on string, participants ...[2]string) int64 {
	s.T.Helper()
	typ := s.id(`SELECT id FROM handling_types ORDER BY sort_order, id LIMIT 1`)
	h := s.id(`INSERT INTO handlings (violation_id, handling_type_id, handled_on, created_by) VALUES ($1, $2, $3, $4) RETURNING id`,
		violation, typ, on, s.BK.UserID)
	for _, p := range participants {
		if _, err := s.Env.DB.Exec(`INSERT INTO handling_participants (handling_id, name, role) VALUES ($1, $2, $3)`, h, p[0], p[1]); err != nil {
			s.T.Fatal(err)
		}
	}
	return h
}

// Photo adds a tiny evidence photo.
func (s *School) Photo(violation int64, position int) int64 {
	s.T.Helper()
	return s.id(`INSERT INTO violation_photos (violation_id, position, content_type, width, height, image, thumbnail)
		VALUES ($1, $2, 'image/png', 4, 3, '\x00'::bytea, '\x00'::bytea) RETURNING id`, violation, position)
}
