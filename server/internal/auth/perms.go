package auth

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/locale"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/pg/listen"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// NotifyChannel is the PostgreSQL channel on which a replica announces that
// a role's permissions changed, so every replica drops its cache.
const NotifyChannel = "tatib_role_permissions"

// PermissionTTL bounds how long a replica trusts its cached permissions
// of a role: a change announced on NotifyChannel is dropped at once, and
// one whose announcement was lost (a listener cut, a pooler that drops
// LISTEN) still reaches every replica within this time. Re-reading a role
// costs one indexed query per role and TTL on each replica. Sessions,
// deactivations and role changes need no such bound: every request reads
// its session and user from the database.
const PermissionTTL = 5 * time.Second

type permCache struct {
	mu    sync.RWMutex
	roles map[perm.Role]cachedPerms
}

type cachedPerms struct {
	names []perm.Name
	at    time.Time
}

func newPermCache() *permCache { return &permCache{roles: map[perm.Role]cachedPerms{}} }

// get returns role r's cached permissions read less than PermissionTTL
// before now.
func (c *permCache) get(r perm.Role, now time.Time) ([]perm.Name, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	p, ok := c.roles[r]
	if !ok || now.Sub(p.at) >= PermissionTTL || now.Before(p.at) {
		return nil, false
	}
	return p.names, true
}

func (c *permCache) put(r perm.Role, p []perm.Name, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.roles[r] = cachedPerms{names: p, at: now}
}

// drop forgets role r, or every role when r is "".
func (c *permCache) drop(r perm.Role) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if r == "" {
		c.roles = map[perm.Role]cachedPerms{}
		return
	}
	delete(c.roles, r)
}

// Permissions returns the permission names role r has: admin has all; for
// other roles the matrix row decides, and the catalogue's default roles
// decide where the matrix has no row. An admin-only permission is never
// among another role's, whatever role_permissions holds: a row written by
// hand or by an older version must not hand out resetting or copying the
// school's data.
func (s *Service) Permissions(ctx context.Context, r perm.Role) ([]perm.Name, error) {
	now := s.now()
	if p, ok := s.perms.get(r, now); ok {
		return p, nil
	}
	var out []perm.Name
	if r == perm.Admin {
		for _, p := range perm.Catalogue {
			out = append(out, p.Name)
		}
	} else {
		rows := []struct {
			Permission string `db:"permission"`
			Granted    bool   `db:"granted"`
		}{}
		if err := s.db.SelectContext(ctx, &rows, `SELECT permission, granted FROM role_permissions WHERE role = $1`, r); err != nil {
			return nil, fmt.Errorf("auth: permissions: %w", err)
		}
		set := map[perm.Name]bool{}
		for _, row := range rows {
			set[perm.Name(row.Permission)] = row.Granted
		}
		for _, p := range perm.Catalogue {
			if p.AdminOnly {
				continue
			}
			granted, ok := set[p.Name]
			if !ok {
				granted = slices.Contains(p.DefaultRoles, r)
			}
			if granted {
				out = append(out, p.Name)
			}
		}
	}
	if out == nil {
		out = []perm.Name{}
	}
	s.perms.put(r, out, now)
	return out, nil
}

// Can reports whether role r has permission p.
func (s *Service) Can(ctx context.Context, r perm.Role, p perm.Name) (bool, error) {
	if r == perm.Admin {
		return true, nil
	}
	if perm.AdminOnly(p) {
		return false, nil
	}
	names, err := s.Permissions(ctx, r)
	if err != nil {
		return false, err
	}
	return slices.Contains(names, p), nil
}

// Roles returns every role with its permissions.
func (s *Service) Roles(ctx context.Context) ([]api.RoleInfo, error) {
	out := make([]api.RoleInfo, 0, len(perm.Roles))
	for _, r := range perm.Roles {
		p, err := s.Permissions(ctx, r)
		if err != nil {
			return nil, err
		}
		out = append(out, api.RoleInfo{Role: r, Label: perm.RoleLabels[r], Locked: r == perm.Admin, Permissions: p})
	}
	return out, nil
}

// SetRolePermissions replaces role r's permissions with an admin's (or the
// system's) authority; see SetRolePermissionsAs.
func (s *Service) SetRolePermissions(ctx context.Context, actor audit.Actor, r perm.Role, names []perm.Name) (api.RoleInfo, error) {
	return s.SetRolePermissionsAs(ctx, actor, perm.Admin, r, names)
}

// SetRolePermissionsAs replaces role r's permissions with names: one row per
// catalogue permission, so later catalogue defaults do not silently change
// a role an admin has configured. The cache is dropped here and, through
// NOTIFY, on every replica.
//
// An admin-only permission is not the matrix's to give: any change to one,
// for any role and by anyone, is refused (422 on permissions, naming it).
//
// Delegation must not amount to admin: a caller who is not an admin (by
// role) cannot change their own role, cannot grant or withdraw a sensitive
// permission (one that manages users or rights: granting it to another role
// is a way back to one's own), and can only grant or withdraw permissions
// they hold themselves.
func (s *Service) SetRolePermissionsAs(ctx context.Context, actor audit.Actor, actorRole perm.Role, r perm.Role, names []perm.Name) (api.RoleInfo, error) {
	if !r.Valid() {
		return api.RoleInfo{}, apperr.New(apperr.NotFound, "roles.unknown", "role", string(r))
	}
	if r == perm.Admin {
		return api.RoleInfo{}, apperr.New(apperr.Conflict, "roles.admin_locked")
	}
	want := map[perm.Name]bool{}
	f := apperr.Fields{}
	for _, n := range names {
		if _, ok := perm.Lookup(n); !ok {
			f.Add("permissions", "roles.permission_unknown", "permission", string(n))
		}
		want[n] = true
	}
	if err := f.Err(); err != nil {
		return api.RoleInfo{}, err
	}
	if actorRole != perm.Admin && r == actorRole {
		return api.RoleInfo{}, apperr.New(apperr.Forbidden, "roles.own_role", "role", RoleName(r))
	}
	for _, p := range perm.Catalogue {
		// before never holds one (Permissions skips them), so asking for
		// one is the change.
		if p.AdminOnly && want[p.Name] {
			label := locale.Texts{locale.ID: p.Label, locale.EN: p.LabelEN}
			return api.RoleInfo{}, apperr.New(apperr.Invalid, "datareset.permission_admin_only", "permission", label).
				WithField("permissions", "datareset.permission_admin_only", "permission", label)
		}
	}
	before, err := s.Permissions(ctx, r)
	if err != nil {
		return api.RoleInfo{}, err
	}
	if actorRole != perm.Admin {
		own, err := s.Permissions(ctx, actorRole)
		if err != nil {
			return api.RoleInfo{}, err
		}
		for _, p := range perm.Catalogue {
			if slices.Contains(before, p.Name) == want[p.Name] {
				continue
			}
			label := locale.Texts{locale.ID: p.Label, locale.EN: p.LabelEN}
			if p.Sensitive {
				return api.RoleInfo{}, apperr.New(apperr.Forbidden, "roles.sensitive_admin_only", "permission", label)
			}
			if !slices.Contains(own, p.Name) {
				return api.RoleInfo{}, apperr.New(apperr.Forbidden, "roles.permission_not_yours", "permission", label)
			}
		}
	}
	err = pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		var roles, ps []string
		var granted []bool
		for _, p := range perm.Catalogue {
			roles = append(roles, string(r))
			ps = append(ps, string(p.Name))
			granted = append(granted, want[p.Name])
		}
		const q = `INSERT INTO role_permissions (role, permission, granted, updated_at)
			SELECT * , now() FROM unnest($1::text[], $2::text[], $3::boolean[])
			ON CONFLICT (role, permission) DO UPDATE SET granted = EXCLUDED.granted, updated_at = now()`
		if _, err := tx.ExecContext(ctx, q, pq.Array(roles), pq.Array(ps), pq.Array(granted)); err != nil {
			return fmt.Errorf("auth: set permissions: %w", err)
		}
		if err := audit.Record(ctx, tx, actor, "role.permissions.update", "role", string(r),
			map[string]any{"before": before, "after": names}); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `SELECT pg_notify($1, $2)`, NotifyChannel, string(r))
		return err
	})
	if err != nil {
		return api.RoleInfo{}, err
	}
	s.perms.drop(r)
	p, err := s.Permissions(ctx, r)
	if err != nil {
		return api.RoleInfo{}, err
	}
	return api.RoleInfo{Role: r, Label: perm.RoleLabels[r], Permissions: p}, nil
}

// RoleName is role r's name in the request's language, as a message
// parameter.
func RoleName(r perm.Role) locale.Key { return locale.Key("roles.name." + string(r)) }

// DropPermissionCache forgets every cached role, e.g. after an application
// reset, here and on every replica.
func (s *Service) DropPermissionCache(ctx context.Context) error {
	s.perms.drop("")
	_, err := s.db.ExecContext(ctx, `SELECT pg_notify($1, '')`, NotifyChannel)
	return err
}

// Listen follows permission changes announced by any replica on l, the
// process's listener, until ctx ends. When its connection drops, the whole
// cache is dropped, since announcements may have been missed.
func (s *Service) Listen(ctx context.Context, l *listen.Listener) {
	sub := l.Subscribe(64, NotifyChannel)
	defer sub.Close()
	for {
		select {
		case <-ctx.Done():
			return
		case ev := <-sub.C():
			if ev.Kind != listen.Notification { // lost or reconnected
				s.perms.drop("")
				continue
			}
			s.perms.drop(perm.Role(ev.Payload))
		}
	}
}
