package roster_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tatib/tatib/server/internal/roster"
	"github.com/tatib/tatib/shared/perm"
)

func TestHomeroomTeacherAssignment(t *testing.T) {
	t.Parallel()
	f := setup(t, 72)
	f.Sync()
	var classes struct {
		Data []roster.Class `json:"data"`
	}
	f.Admin.Do("GET", "/api/v1/classes", nil).Want(200).JSON(&classes)
	if len(classes.Data) != 36 || classes.Data[0].StudentCount != 2 || classes.Data[0].DepartmentCode == nil {
		t.Fatalf("classes: %d %+v", len(classes.Data), classes.Data[0])
	}
	a, b := classes.Data[0].ID, classes.Data[1].ID
	wali, _ := f.Env.CreateUser(perm.WaliKelas)
	bk, _ := f.Env.CreateUser(perm.BK)
	path := func(id int64) string { return fmt.Sprintf("/api/v1/classes/%d", id) }
	f.Admin.Do("PATCH", path(a), map[string]any{"homeroom_teacher_id": bk}).Want(422)
	f.Admin.Do("PATCH", path(a), map[string]any{}).Want(422)
	var c roster.Class
	f.Admin.Do("PATCH", path(a), map[string]any{"homeroom_teacher_id": wali}).Want(200).JSON(&c)
	if c.HomeroomTeacher == nil || c.HomeroomTeacher.ID != wali {
		t.Fatalf("class: %+v", c)
	}
	e := f.Admin.Do("PATCH", path(b), map[string]any{"homeroom_teacher_id": wali}).Want(422).Err()
	if !strings.Contains(e.Error.Fields["homeroom_teacher_id"], classes.Data[0].Name) {
		t.Errorf("second class: %v", e.Error.Fields)
	}
	f.Admin.Do("PATCH", path(a), map[string]any{"homeroom_teacher_id": nil}).Want(200).JSON(&c)
	if c.HomeroomTeacher != nil {
		t.Errorf("not removed: %+v", c)
	}
	f.Admin.Do("PATCH", path(b), map[string]any{"homeroom_teacher_id": wali}).Want(200)
	f.Admin.Do("PATCH", "/api/v1/classes/999999", map[string]any{"homeroom_teacher_id": nil}).Want(404)
}

// TestHomeroomScoping proves, for every school-data endpoint, that a
// homeroom teacher sees only their own class.
func TestHomeroomScoping(t *testing.T) {
	t.Parallel()
	f := setup(t, 108)
	f.Sync()
	var classes struct {
		Data []roster.Class `json:"data"`
	}
	f.Admin.Do("GET", "/api/v1/classes", nil).Want(200).JSON(&classes)
	own, other := classes.Data[0], classes.Data[len(classes.Data)-1] // X AKL 1 and XII TSM 4
	wali := f.Env.As(perm.WaliKelas)
	f.Admin.Do("PATCH", fmt.Sprintf("/api/v1/classes/%d", own.ID), map[string]any{"homeroom_teacher_id": wali.UserID}).Want(200)
	// A teacher without a class sees nothing.
	lonely := f.Env.As(perm.WaliKelas)

	var deps struct {
		Data []roster.Department `json:"data"`
	}
	wali.Do("GET", "/api/v1/departments", nil).Want(200).JSON(&deps)
	if len(deps.Data) != 1 || deps.Data[0].ID != *own.DepartmentID {
		t.Errorf("departments: %+v", deps.Data)
	} else if d := deps.Data[0]; d.ClassCount != 1 || d.StudentCount != own.StudentCount {
		// The counts, too, cover only the teacher's class.
		t.Errorf("department counts for a homeroom teacher: %+v, own class has %d students", d, own.StudentCount)
	}
	lonely.Do("GET", "/api/v1/departments", nil).Want(200).JSON(&deps)
	if len(deps.Data) != 0 {
		t.Errorf("departments without class: %+v", deps.Data)
	}

	var cl struct {
		Data []roster.Class `json:"data"`
	}
	wali.Do("GET", "/api/v1/classes", nil).Want(200).JSON(&cl)
	if len(cl.Data) != 1 || cl.Data[0].ID != own.ID {
		t.Errorf("classes: %+v", cl.Data)
	}
	wali.Do("GET", fmt.Sprintf("/api/v1/classes/%d", own.ID), nil).Want(200)
	wali.Do("GET", fmt.Sprintf("/api/v1/classes/%d", other.ID), nil).Want(404)

	var st struct {
		Data []roster.Student `json:"data"`
		Meta struct {
			Total int `json:"total"`
		} `json:"meta"`
	}
	wali.Do("GET", "/api/v1/students?per_page=100", nil).Want(200).JSON(&st)
	if st.Meta.Total != own.StudentCount || len(st.Data) == 0 {
		t.Errorf("students: total %d, want %d", st.Meta.Total, own.StudentCount)
	}
	for _, s := range st.Data {
		if s.ClassID == nil || *s.ClassID != own.ID {
			t.Errorf("student %d of class %v leaked", s.ID, s.ClassID)
		}
	}
	wali.Do("GET", fmt.Sprintf("/api/v1/students?class_id=%d", other.ID), nil).Want(200).JSON(&st)
	if st.Meta.Total != 0 {
		t.Errorf("filter by another class: %d", st.Meta.Total)
	}
	lonely.Do("GET", "/api/v1/students", nil).Want(200).JSON(&st)
	if st.Meta.Total != 0 {
		t.Errorf("students without class: %d", st.Meta.Total)
	}

	var ownStudent, otherStudent int64
	f.Env.DB.Get(&ownStudent, `SELECT id FROM students WHERE class_id = $1 LIMIT 1`, own.ID)
	f.Env.DB.Get(&otherStudent, `SELECT id FROM students WHERE class_id = $1 LIMIT 1`, other.ID)
	wali.Do("GET", fmt.Sprintf("/api/v1/students/%d", ownStudent), nil).Want(200)
	// Another class's student: "not in your class" (403), nothing of the
	// student in the answer; an id that does not exist stays 404.
	res := wali.Do("GET", fmt.Sprintf("/api/v1/students/%d", otherStudent), nil).Want(403)
	var otherName string
	f.Env.DB.Get(&otherName, `SELECT full_name FROM students WHERE id = $1`, otherStudent)
	if e := res.Err(); e.Error.MessageCode != "school.student_not_in_class" || strings.Contains(string(res.Body), otherName) {
		t.Errorf("another class's student: %s", res.Body)
	}
	if e := wali.Do("GET", fmt.Sprintf("/api/v1/students/%d", otherStudent), nil, "Accept-Language", "en").Err(); e.Error.Message != "This student is not in your class." {
		t.Errorf("English: %q", e.Error.Message)
	}
	wali.Do("GET", "/api/v1/students/99999999", nil).Want(404)
	f.Admin.Do("GET", fmt.Sprintf("/api/v1/students/%d", otherStudent), nil).Want(200)

	// Granted classes.manage, a homeroom teacher still reaches only their class.
	f.Admin.Do("PUT", "/api/v1/roles/wali_kelas/permissions", map[string]any{"permissions": []string{"students.view", "classes.manage"}}).Want(200)
	wali.Do("PATCH", fmt.Sprintf("/api/v1/classes/%d", other.ID), map[string]any{"homeroom_teacher_id": nil}).Want(404)
}
