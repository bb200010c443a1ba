package users_test

import (
	"net/http"
	"sync"
	"testing"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/shared/perm"
)

func wantCode(t *testing.T, r *apitest.Response, status int, code string) {
	t.Helper()
	e := r.Want(status).Err()
	if e.Error.MessageCode != code {
		t.Fatalf("message_code %q, want %q: %+v", e.Error.MessageCode, code, e.Error)
	}
}

// Delegated users.manage does not reach admin: a counselor given it cannot
// create an admin, promote anyone to admin, or touch an admin account, and
// gives only roles within their own permissions.
func TestDelegatedUsersManage(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	admin := env.As(perm.Admin)
	bk := env.As(perm.BK)
	admin.Do("PUT", "/api/v1/roles/bk/permissions", obj{"permissions": append(perm.Defaults(perm.BK), perm.UsersView, perm.UsersManage)}).Want(200)
	staffID, _ := env.CreateUser(perm.Staff)

	t.Run("ErrCreateAdmin", func(t *testing.T) {
		wantCode(t, bk.Do("POST", "/api/v1/users", obj{"username": "calonadmin", "name": "Calon", "role": "admin", "password": "rahasia1"}), 403, "users.admin_only")
	})
	t.Run("ErrPromoteToAdmin", func(t *testing.T) {
		wantCode(t, bk.Do("PATCH", path(staffID, ""), obj{"role": "admin"}), 403, "users.admin_only")
	})
	t.Run("ErrTouchAdmin", func(t *testing.T) {
		wantCode(t, bk.Do("PATCH", path(admin.UserID, ""), obj{"name": "Bukan Admin"}), 403, "users.admin_only")
		wantCode(t, bk.Do("PATCH", path(admin.UserID, ""), obj{"active": false}), 403, "users.admin_only")
		wantCode(t, bk.Do("DELETE", path(admin.UserID, ""), nil), 403, "users.admin_only")
		admin.Do("GET", "/api/v1/auth/me", nil).Want(200)
	})
	t.Run("ErrRoleBeyondOwn", func(t *testing.T) {
		// A principal can read the audit log; the counselor cannot.
		e := bk.Do("POST", "/api/v1/users", obj{"username": "kepsek9", "name": "Kepsek", "role": "kepala_sekolah", "password": "rahasia1"}).Want(403).Err()
		if e.Error.MessageCode != "users.role_beyond_own" || e.Error.Message == "" {
			t.Fatalf("%+v", e.Error)
		}
		wantCode(t, bk.Do("PATCH", path(staffID, ""), obj{"role": "waka"}), 403, "users.role_beyond_own")
	})
	t.Run("OKWithinOwn", func(t *testing.T) {
		bk.Do("POST", "/api/v1/users", obj{"username": "walibaru", "name": "Wali Baru", "role": "wali_kelas", "password": "rahasia1"}).Want(201)
		bk.Do("PATCH", path(staffID, ""), obj{"role": "wali_kelas", "name": "Staf Jadi Wali"}).Want(200)
	})
}

// Delegated roles.manage does not reach admin either: the holder cannot
// change its own role, grant or withdraw sensitive permissions, grant what
// it lacks, nor (with users.* too) create an admin or reset an admin's
// password.
func TestDelegatedRolesManage(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	admin := env.As(perm.Admin)
	waka := env.As(perm.Waka)
	wakaPerms := append(perm.Defaults(perm.Waka), perm.RolesManage, perm.UsersView, perm.UsersManage, perm.UsersResetPassword)
	admin.Do("PUT", "/api/v1/roles/waka/permissions", obj{"permissions": wakaPerms}).Want(200)

	t.Run("ErrOwnRole", func(t *testing.T) {
		all := []perm.Name{}
		for _, p := range perm.Catalogue {
			all = append(all, p.Name)
		}
		wantCode(t, waka.Do("PUT", "/api/v1/roles/waka/permissions", obj{"permissions": all}), 403, "roles.own_role")
	})
	t.Run("ErrAdminLocked", func(t *testing.T) {
		waka.Do("PUT", "/api/v1/roles/admin/permissions", obj{"permissions": []string{}}).Want(409)
	})
	t.Run("ErrGrantSensitive", func(t *testing.T) {
		wantCode(t, waka.Do("PUT", "/api/v1/roles/bk/permissions", obj{"permissions": append(perm.Defaults(perm.BK), perm.RolesManage)}),
			403, "roles.sensitive_admin_only")
		wantCode(t, waka.Do("PUT", "/api/v1/roles/staff/permissions", obj{"permissions": append(perm.Defaults(perm.Staff), perm.UsersManage)}),
			403, "roles.sensitive_admin_only")
	})
	t.Run("ErrGrantNotOwn", func(t *testing.T) {
		wantCode(t, waka.Do("PUT", "/api/v1/roles/staff/permissions", obj{"permissions": append(perm.Defaults(perm.Staff), perm.SettingsManage)}),
			403, "roles.permission_not_yours")
	})
	t.Run("OKGrantOwn", func(t *testing.T) {
		waka.Do("PUT", "/api/v1/roles/staff/permissions", obj{"permissions": append(perm.Defaults(perm.Staff), perm.AuditView)}).Want(200)
	})
	t.Run("ErrCreateAdmin", func(t *testing.T) {
		wantCode(t, waka.Do("POST", "/api/v1/users", obj{"username": "admin2", "name": "Admin Dua", "role": "admin", "password": "rahasia1"}), 403, "users.admin_only")
	})
	t.Run("ErrResetAdminPassword", func(t *testing.T) {
		wantCode(t, waka.Do("POST", path(admin.UserID, "/reset-password"), obj{"password": "diambilalih", "password_confirmation": "diambilalih"}),
			403, "users.admin_only")
		// The admin's session did not end.
		admin.Do("GET", "/api/v1/auth/me", nil).Want(200)
	})
	t.Run("OKResetWithinOwn", func(t *testing.T) {
		id, name := env.CreateUser(perm.Staff)
		waka.Do("POST", path(id, "/reset-password"), obj{"password": "barubaru", "password_confirmation": "barubaru"}).Want(204)
		env.Login(name, "barubaru")
	})
	t.Run("AdminGrantsSensitive", func(t *testing.T) {
		admin.Do("PUT", "/api/v1/roles/bk/permissions", obj{"permissions": append(perm.Defaults(perm.BK), perm.UsersManage)}).Want(200)
	})
}

// GET /permissions tells the screen which permissions are sensitive (with
// what they allow) and which are school-wide.
func TestPermissionCatalogueMarks(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	var cat struct {
		Data []struct {
			Name       perm.Name `json:"name"`
			Sensitive  bool      `json:"sensitive"`
			Allows     string    `json:"allows"`
			AllowsEN   string    `json:"allows_en"`
			SchoolWide bool      `json:"school_wide"`
		} `json:"data"`
	}
	env.As(perm.Admin).Do("GET", "/api/v1/permissions", nil).Want(200).JSON(&cat)
	marks := map[perm.Name]bool{}
	for _, p := range cat.Data {
		if p.Sensitive && (p.Allows == "" || p.AllowsEN == "") {
			t.Errorf("%s: sensitive without an explanation", p.Name)
		}
		marks[p.Name+".sensitive"] = p.Sensitive
		marks[p.Name+".school"] = p.SchoolWide
	}
	for _, k := range []perm.Name{"users.manage.sensitive", "users.reset_password.sensitive", "roles.manage.sensitive", "users.view.school", "audit.view.school"} {
		if !marks[k] {
			t.Errorf("%s not set", k)
		}
	}
	if marks["students.view.sensitive"] || marks["students.view.school"] {
		t.Error("students.view marked")
	}
}

// Two admins demoting each other at the same moment: one wins, the other
// gets 409 (the last-admin rule), never a 500 from a deadlock; an admin
// always remains.
func TestDemoteEachOtherConcurrently(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	for round := 0; round < 40; round++ {
		a := env.As(perm.Admin)
		b := env.As(perm.Admin)
		if _, err := env.DB.Exec(`UPDATE users SET role = 'bk' WHERE role = 'admin' AND id NOT IN ($1, $2)`, a.UserID, b.UserID); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		start := make(chan struct{})
		status := make([]int, 2)
		for i, pair := range [][2]*apitest.Client{{a, b}, {b, a}} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				status[i] = pair[0].Do("PATCH", path(pair[1].UserID, ""), obj{"role": "bk"}).Status
			}()
		}
		close(start)
		wg.Wait()
		// The loser answers 409 (the last admin) or, when the winner's
		// demotion of them committed first, 403: they are no longer an admin.
		for _, s := range status {
			if s != http.StatusOK && s != http.StatusConflict && s != http.StatusForbidden {
				t.Fatalf("round %d: statuses %v", round, status)
			}
		}
		if status[0] == http.StatusOK && status[1] == http.StatusOK {
			t.Fatalf("round %d: both demotions succeeded", round)
		}
		var admins int
		if err := env.DB.Get(&admins, `SELECT count(*) FROM users WHERE role = 'admin' AND active`); err != nil {
			t.Fatal(err)
		}
		if admins < 1 {
			t.Fatalf("round %d: no admin left", round)
		}
	}
}
