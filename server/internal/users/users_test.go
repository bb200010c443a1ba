package users_test

import (
	"strconv"
	"testing"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/shared/perm"
)

type obj = map[string]any

func path(id int64, rest string) string { return "/api/v1/users/" + strconv.FormatInt(id, 10) + rest }

func TestCreateValidation(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	admin := env.As(perm.Admin)
	cases := []struct {
		name  string
		in    obj
		field string
	}{
		{"ErrRoleUnknown", obj{"username": "guru1", "name": "Guru", "role": "guru", "password": "rahasia1"}, "role"},
		{"ErrRoleEmpty", obj{"username": "guru1", "name": "Guru", "password": "rahasia1"}, "role"},
		{"ErrUsernameShort", obj{"username": "ab", "name": "Guru", "role": "bk", "password": "rahasia1"}, "username"},
		{"ErrUsernameSpaces", obj{"username": "guru satu", "name": "Guru", "role": "bk", "password": "rahasia1"}, "username"},
		{"ErrNameEmpty", obj{"username": "guru1", "name": " ", "role": "bk", "password": "rahasia1"}, "name"},
		{"ErrPasswordShort", obj{"username": "guru1", "name": "Guru", "role": "bk", "password": "12345"}, "password"},
		{"ErrEmail", obj{"username": "guru1", "name": "Guru", "role": "bk", "password": "rahasia1", "email": "bukan-email"}, "email"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := admin.Do("POST", "/api/v1/users", c.in).Want(422).Err()
			if e.Error.Code != "invalid" || e.Error.Fields[c.field] == "" {
				t.Fatalf("want field error on %s, got %+v", c.field, e.Error)
			}
		})
	}
	t.Run("OKEveryRole", func(t *testing.T) {
		for i, r := range perm.Roles {
			admin.Do("POST", "/api/v1/users", obj{"username": "peran" + strconv.Itoa(i), "name": "Peran", "role": r, "password": "rahasia1"}).Want(201)
		}
	})
	t.Run("ErrDuplicateUsername", func(t *testing.T) {
		admin.Do("POST", "/api/v1/users", obj{"username": "kembar", "name": "A", "role": "bk", "password": "rahasia1"}).Want(201)
		e := admin.Do("POST", "/api/v1/users", obj{"username": "KEMBAR", "name": "B", "role": "bk", "password": "rahasia1"}).Want(422).Err()
		if e.Error.Fields["username"] == "" {
			t.Fatalf("%+v", e)
		}
	})
}

func TestUpdate(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	admin := env.As(perm.Admin)
	id, _ := env.CreateUser(perm.Staff)

	t.Run("ErrRoleUnknown", func(t *testing.T) {
		e := admin.Do("PATCH", path(id, ""), obj{"role": "superuser"}).Want(422).Err()
		if e.Error.Fields["role"] == "" {
			t.Fatalf("%+v", e)
		}
	})
	t.Run("OK", func(t *testing.T) {
		var u struct {
			Role perm.Role `json:"role"`
			Name string    `json:"name"`
		}
		admin.Do("PATCH", path(id, ""), obj{"role": "waka", "name": "Bu Waka"}).Want(200).JSON(&u)
		if u.Role != perm.Waka || u.Name != "Bu Waka" {
			t.Fatalf("%+v", u)
		}
	})
	t.Run("ErrOwnRoleOrActive", func(t *testing.T) {
		admin.Do("PATCH", path(admin.UserID, ""), obj{"role": "bk"}).Want(409)
		admin.Do("PATCH", path(admin.UserID, ""), obj{"active": false}).Want(409)
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		admin.Do("PATCH", path(999999, ""), obj{"name": "x"}).Want(404)
		admin.Do("GET", "/api/v1/users/abc", nil).Want(404)
	})
}

func TestResetPassword(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	admin := env.As(perm.Admin)
	id, name := env.CreateUser(perm.BK)

	t.Run("ErrShort", func(t *testing.T) {
		e := admin.Do("POST", path(id, "/reset-password"), obj{"password": "12345", "password_confirmation": "12345"}).Want(422).Err()
		if e.Error.Fields["password"] == "" {
			t.Fatalf("%+v", e)
		}
	})
	t.Run("ErrMismatch", func(t *testing.T) {
		e := admin.Do("POST", path(id, "/reset-password"), obj{"password": "123456", "password_confirmation": "123457"}).Want(422).Err()
		if e.Error.Fields["password_confirmation"] == "" {
			t.Fatalf("%+v", e)
		}
	})
	t.Run("ErrOwnAccount", func(t *testing.T) {
		admin.Do("POST", path(admin.UserID, "/reset-password"), obj{"password": "123456", "password_confirmation": "123456"}).Want(422)
	})
	t.Run("OK", func(t *testing.T) {
		admin.Do("POST", path(id, "/reset-password"), obj{"password": "123456", "password_confirmation": "123456"}).Want(204)
		env.Login(name, "123456")
	})
	t.Run("ErrNotAdmin", func(t *testing.T) {
		// users.reset_password is the admin's alone by default, even for a
		// role that was given users.manage.
		bk := env.As(perm.BK)
		admin.Do("PUT", "/api/v1/roles/bk/permissions", obj{"permissions": []string{"users.view", "users.manage"}}).Want(200)
		bk.Do("POST", path(id, "/reset-password"), obj{"password": "654321", "password_confirmation": "654321"}).Want(403)
	})
}

func TestDelete(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	admin := env.As(perm.Admin)

	t.Run("DeletesUnused", func(t *testing.T) {
		id, _ := env.CreateUser(perm.Staff)
		var res struct{ Deleted, Deactivated bool }
		admin.Do("DELETE", path(id, ""), nil).Want(200).JSON(&res)
		if !res.Deleted || res.Deactivated {
			t.Fatalf("%+v", res)
		}
		admin.Do("GET", path(id, ""), nil).Want(404)
	})
	t.Run("DeactivatesOneWhoRecordedData", func(t *testing.T) {
		bk := env.As(perm.BK)
		// bk changes their own password: an audit entry names them.
		bk.Do("PUT", "/api/v1/auth/password", obj{"current_password": "rahasia123", "password": "rahasia456", "password_confirmation": "rahasia456"}).Want(204)
		var res struct{ Deleted, Deactivated bool }
		admin.Do("DELETE", path(bk.UserID, ""), nil).Want(200).JSON(&res)
		if res.Deleted || !res.Deactivated {
			t.Fatalf("%+v", res)
		}
		var u struct{ Active bool }
		admin.Do("GET", path(bk.UserID, ""), nil).Want(200).JSON(&u)
		if u.Active {
			t.Fatal("still active")
		}
		bk.Do("GET", "/api/v1/auth/me", nil).Want(401)
	})
	t.Run("ErrSelf", func(t *testing.T) {
		admin.Do("DELETE", path(admin.UserID, ""), nil).Want(409)
	})
	t.Run("ErrLastAdmin", func(t *testing.T) {
		env2 := apitest.New(t)
		a := env2.As(perm.Admin)
		b := env2.As(perm.Admin)
		a.Do("PATCH", path(b.UserID, ""), obj{"role": "bk"}).Want(200)
		// a is now the last admin; b (now bk) cannot demote a, nor can a.
		a.Do("PATCH", path(a.UserID, ""), obj{"role": "bk"}).Want(409)
	})
}

func TestList(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	admin := env.As(perm.Admin)
	for i := 0; i < 25; i++ {
		env.CreateUser(perm.WaliKelas)
	}
	env.CreateUser(perm.BK)
	var page struct {
		Data []struct{ Role perm.Role } `json:"data"`
		Meta struct {
			Total    int `json:"total"`
			LastPage int `json:"last_page"`
		} `json:"meta"`
	}
	admin.Do("GET", "/api/v1/users?role=wali_kelas&per_page=10&page=3", nil).Want(200).JSON(&page)
	if page.Meta.Total != 25 || page.Meta.LastPage != 3 || len(page.Data) != 5 {
		t.Fatalf("%+v", page.Meta)
	}
	admin.Do("GET", "/api/v1/users?q=bk", nil).Want(200).JSON(&page)
	if page.Meta.Total != 1 || page.Data[0].Role != perm.BK {
		t.Fatalf("search: %+v", page)
	}
	admin.Do("GET", "/api/v1/users?role=raja", nil).Want(422)
}

// A NIP is optional: kept as its 18 digits when typed in groups, refused
// when it is not 18 digits, left as it is by an edit that does not send it.
func TestNIP(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	admin := env.As(perm.Admin)
	var u struct {
		ID  int64  `json:"id"`
		NIP string `json:"nip"`
	}
	admin.Do("POST", "/api/v1/users", obj{"username": "wali.nip", "name": "Ibu Wali", "role": "wali_kelas", "password": "rahasia1", "nip": "19800101 200501 2 003"}).Want(201).JSON(&u)
	if u.NIP != "198001012005012003" {
		t.Fatalf("created with NIP %q", u.NIP)
	}
	admin.Do("PATCH", path(u.ID, ""), obj{"name": "Ibu Wali Kelas"}).Want(200).JSON(&u)
	if u.NIP != "198001012005012003" {
		t.Errorf("an edit without nip changed it to %q", u.NIP)
	}
	e := admin.Do("PATCH", path(u.ID, ""), obj{"nip": "1980"}).Want(422).Err()
	if e.Error.FieldCodes["nip"].Code != "users.nip_invalid" {
		t.Errorf("field codes %+v", e.Error.FieldCodes)
	}
	admin.Do("PATCH", path(u.ID, ""), obj{"nip": ""}).Want(200).JSON(&u)
	admin.Do("GET", path(u.ID, ""), nil).Want(200).JSON(&u)
	if u.NIP != "" {
		t.Errorf("cleared NIP reads %q", u.NIP)
	}
	e = admin.Do("POST", "/api/v1/users", obj{"username": "wali.nip2", "name": "Wali", "role": "wali_kelas", "password": "rahasia1", "nip": "abc"}).Want(422).Err()
	if e.Error.FieldCodes["nip"].Code != "users.nip_invalid" {
		t.Errorf("create field codes %+v", e.Error.FieldCodes)
	}
}
