package auth_test

import (
	"context"
	"slices"
	"testing"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/shared/perm"
)

// An admin-only permission (data.reset, data.backup) is the administrator's
// alone: no one, an admin included, can put it in another role's rights,
// and a stored grant of it is ignored.
func TestAdminOnlyPermissions(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	admin := env.As(perm.Admin)
	ctx := context.Background()

	t.Run("ErrGrantByAdmin", func(t *testing.T) {
		for _, p := range []perm.Name{perm.DataReset, perm.DataBackup} {
			e := admin.Do("PUT", "/api/v1/roles/bk/permissions", map[string]any{"permissions": append(perm.Defaults(perm.BK), p)}).Want(422).Err()
			fc := e.Error.FieldCodes["permissions"]
			if fc.Code != "datareset.permission_admin_only" || e.Error.Fields["permissions"] == "" {
				t.Fatalf("%s: %+v", p, e.Error)
			}
		}
		var n int
		if err := env.DB.Get(&n, `SELECT count(*) FROM role_permissions WHERE permission LIKE 'data.%' AND granted`); err != nil || n != 0 {
			t.Fatalf("a refused change was stored: %d %v", n, err)
		}
	})
	t.Run("ErrGrantThroughService", func(t *testing.T) {
		_, err := env.Deps.Auth.SetRolePermissions(ctx, audit.Actor{Name: "system"}, perm.WaliKelas, []perm.Name{perm.DataReset})
		if apperr.Code(err) != apperr.Invalid || apperr.Key(err) != "datareset.permission_admin_only" {
			t.Fatalf("err = %v (%s)", err, apperr.Key(err))
		}
	})
	t.Run("OKOtherChangesStillSaved", func(t *testing.T) {
		admin.Do("PUT", "/api/v1/roles/bk/permissions", map[string]any{"permissions": append(perm.Defaults(perm.BK), perm.AuditView)}).Want(200)
	})
	t.Run("StoredGrantIgnored", func(t *testing.T) {
		bk := env.As(perm.BK)
		wali := env.As(perm.WaliKelas)
		// Defence in depth: a row put there by hand or an older version.
		env.DB.MustExec(`INSERT INTO role_permissions (role, permission, granted) VALUES
			('bk', 'data.reset', true), ('bk', 'data.backup', true), ('wali_kelas', 'data.reset', true)
			ON CONFLICT (role, permission) DO UPDATE SET granted = true`)
		if err := env.Deps.Auth.DropPermissionCache(ctx); err != nil {
			t.Fatal(err)
		}
		for _, r := range []perm.Role{perm.BK, perm.WaliKelas} {
			ok, err := env.Deps.Auth.Can(ctx, r, perm.DataReset)
			if err != nil || ok {
				t.Fatalf("%s can data.reset: %v %v", r, ok, err)
			}
			names, err := env.Deps.Auth.Permissions(ctx, r)
			if err != nil || slices.Contains(names, perm.DataReset) || slices.Contains(names, perm.DataBackup) {
				t.Fatalf("%s permissions hold an admin-only one: %v %v", r, names, err)
			}
		}
		bk.Do("GET", "/api/v1/admin/reset", nil).Want(403)
		wali.Do("GET", "/api/v1/admin/reset", nil).Want(403)
		admin.Do("GET", "/api/v1/admin/reset", nil).Want(200)
	})
}
