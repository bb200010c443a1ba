package users_test

import (
	"testing"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/shared/perm"
)

func homeroomClass(t *testing.T, env *apitest.Env, name string, teacher int64) int64 {
	t.Helper()
	var id int64
	if err := env.DB.Get(&id, `INSERT INTO classes (name, grade, homeroom_teacher_id) VALUES ($1, 10, $2) RETURNING id`, name, teacher); err != nil {
		t.Fatal(err)
	}
	return id
}

func classTeacher(t *testing.T, env *apitest.Env, classID int64) *int64 {
	t.Helper()
	var teacher *int64
	if err := env.DB.Get(&teacher, `SELECT homeroom_teacher_id FROM classes WHERE id = $1`, classID); err != nil {
		t.Fatal(err)
	}
	return teacher
}

type userWithClass struct {
	ID            int64     `json:"id"`
	Role          perm.Role `json:"role"`
	HomeroomClass *struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
	} `json:"homeroom_class"`
}

// The users list and detail show a homeroom teacher's class; a homeroom
// teacher cannot stop being one (role, deactivation, deletion) while a
// class points at them unless the request releases the class, which is
// then audited.
func TestHomeroomTeacherAndClass(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	admin := env.As(perm.Admin)
	wali, _ := env.CreateUser(perm.WaliKelas)
	classID := homeroomClass(t, env, "X IPA 1", wali)

	t.Run("ListAndDetailShowClass", func(t *testing.T) {
		var page struct{ Data []userWithClass }
		admin.Do("GET", "/api/v1/users?role=wali_kelas", nil).Want(200).JSON(&page)
		if len(page.Data) != 1 || page.Data[0].HomeroomClass == nil || page.Data[0].HomeroomClass.ID != classID || page.Data[0].HomeroomClass.Name != "X IPA 1" {
			t.Fatalf("%+v", page.Data)
		}
		var u userWithClass
		admin.Do("GET", path(wali, ""), nil).Want(200).JSON(&u)
		if u.HomeroomClass == nil || u.HomeroomClass.Name != "X IPA 1" {
			t.Fatalf("%+v", u)
		}
		admin.Do("GET", path(admin.UserID, ""), nil).Want(200).JSON(&u)
		if u.HomeroomClass != nil {
			t.Fatalf("admin has a class: %+v", u)
		}
	})
	t.Run("ErrWithoutRelease", func(t *testing.T) {
		for _, r := range []*apitest.Response{
			admin.Do("PATCH", path(wali, ""), obj{"role": "staff"}),
			admin.Do("PATCH", path(wali, ""), obj{"active": false}),
			admin.Do("DELETE", path(wali, ""), nil),
		} {
			e := r.Want(409).Err()
			if e.Error.MessageCode != "users.homeroom_class_assigned" || e.Error.Params["class"] != "X IPA 1" {
				t.Fatalf("%+v", e.Error)
			}
		}
		if classTeacher(t, env, classID) == nil {
			t.Fatal("class released")
		}
	})
	t.Run("OKOtherChanges", func(t *testing.T) {
		admin.Do("PATCH", path(wali, ""), obj{"name": "Bu Wali", "role": "wali_kelas"}).Want(200)
	})
	t.Run("OKRelease", func(t *testing.T) {
		var u userWithClass
		admin.Do("PATCH", path(wali, ""), obj{"role": "staff", "release_class": true}).Want(200).JSON(&u)
		if u.Role != perm.Staff || u.HomeroomClass != nil {
			t.Fatalf("%+v", u)
		}
		if classTeacher(t, env, classID) != nil {
			t.Fatal("class still points at the former homeroom teacher")
		}
		var n int
		if err := env.DB.Get(&n, `SELECT count(*) FROM audit_log WHERE action = 'class.homeroom_teacher.update' AND entity_id = $1`, classID); err != nil || n != 1 {
			t.Fatalf("audit entries %d, %v", n, err)
		}
		// The entry names the teacher who left, beside the id.
		var from string
		var before int64
		if err := env.DB.QueryRow(`SELECT details->'teacher'->>'from', (details->>'before')::bigint FROM audit_log
			WHERE action = 'class.homeroom_teacher.update' AND entity_id = $1`, classID).Scan(&from, &before); err != nil {
			t.Fatal(err)
		}
		if from != "Bu Wali" || before != wali {
			t.Errorf("audit teacher %q, before %d; want Bu Wali, %d", from, before, wali)
		}
	})
	t.Run("OKDeleteRelease", func(t *testing.T) {
		other, _ := env.CreateUser(perm.WaliKelas)
		c2 := homeroomClass(t, env, "XI IPS 2", other)
		admin.Do("DELETE", path(other, "?release_class=true"), nil).Want(200)
		if classTeacher(t, env, c2) != nil {
			t.Fatal("class still points at the deleted user")
		}
	})
}

// Decision (docs/decisions.md): the users list and the audit log are
// administrative and school-wide; a homeroom teacher given users.view or
// audit.view sees all of them, exactly as an admin does, not only their
// class. The role access rights screen says so.
func TestSchoolWideForHomeroomTeacher(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	admin := env.As(perm.Admin)
	wali := env.As(perm.WaliKelas)
	homeroomClass(t, env, "XII IPA 3", wali.UserID)
	admin.Do("POST", "/api/v1/users", obj{"username": "stafbaru", "name": "Staf Baru", "role": "staff", "password": "rahasia1"}).Want(201)
	admin.Do("PUT", "/api/v1/roles/wali_kelas/permissions", obj{"permissions": append(perm.Defaults(perm.WaliKelas), perm.UsersView, perm.AuditView)}).Want(200)

	var adminPage, waliPage struct {
		Meta struct{ Total int } `json:"meta"`
	}
	for _, url := range []string{"/api/v1/users", "/api/v1/audit-log"} {
		admin.Do("GET", url, nil).Want(200).JSON(&adminPage)
		wali.Do("GET", url, nil).Want(200).JSON(&waliPage)
		if waliPage.Meta.Total != adminPage.Meta.Total || waliPage.Meta.Total < 2 {
			t.Fatalf("%s: homeroom teacher sees %d, admin %d", url, waliPage.Meta.Total, adminPage.Meta.Total)
		}
	}
}
