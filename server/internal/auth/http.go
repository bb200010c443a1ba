package auth

import (
	"net/http"

	"github.com/jmoiron/sqlx"
	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// Routes registers sign-in, the caller's own account, permissions and roles.
func (s *Service) Routes(r *httpx.Router) {
	r.Post("/auth/login", perm.Public, s.login)
	r.Post("/auth/logout", perm.Authenticated, s.logout)
	r.Get("/auth/me", perm.Authenticated, s.me)
	r.Put("/auth/password", perm.Authenticated, s.changePassword)
	r.Get("/permissions", perm.RolesManage, s.listPermissions)
	r.Get("/roles", perm.RolesManage, s.listRoles)
	r.Put("/roles/{role}/permissions", perm.RolesManage, s.putRolePermissions)
}

func (s *Service) login(w http.ResponseWriter, r *http.Request) error {
	var in api.LoginRequest
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	// A browser's device token travels in its HttpOnly cookie, never in
	// the JSON a script could read; a client that asks in the body keeps it.
	browser := in.DeviceToken == nil
	if c, err := r.Cookie(DeviceCookieName); browser && err == nil {
		in.DeviceToken = &c.Value
	}
	out, err := s.Login(r.Context(), in, httpx.ClientAddr(r, s.opt.TrustProxy), r.UserAgent())
	if err != nil {
		return err
	}
	http.SetCookie(w, s.cookie(out.Token))
	if browser {
		http.SetCookie(w, s.deviceCookie(out.DeviceToken))
		out.DeviceToken = ""
	}
	return httpx.JSON(w, http.StatusOK, out)
}

func (s *Service) logout(w http.ResponseWriter, r *http.Request) error {
	if err := s.Logout(r.Context(), From(r.Context()).TokenHash); err != nil {
		return err
	}
	http.SetCookie(w, s.clearCookie())
	return httpx.NoContent(w)
}

func (s *Service) me(w http.ResponseWriter, r *http.Request) error {
	u := UserFrom(r.Context())
	p, err := s.Permissions(r.Context(), u.Role)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, api.Me{User: u, Permissions: p})
}

// ChangePasswordRequest changes the caller's own password.
type ChangePasswordRequest struct {
	CurrentPassword      string `json:"current_password"`
	Password             string `json:"password"`
	PasswordConfirmation string `json:"password_confirmation"`
}

// ValidateNewPassword checks a new password and its confirmation.
func ValidateNewPassword(f apperr.Fields, pw, confirmation string) {
	switch {
	case pw == "":
		f.Add("password", "users.password_new_required")
	case len([]rune(pw)) < MinPasswordLength:
		f.Add("password", "users.password_too_short", "min", MinPasswordLength)
	case len(pw) > 72:
		f.Add("password", "users.password_too_long", "max", 72)
	}
	if confirmation != pw {
		f.Add("password_confirmation", "users.password_mismatch")
	}
}

func (s *Service) changePassword(w http.ResponseWriter, r *http.Request) error {
	var in ChangePasswordRequest
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	p := From(r.Context())
	var hash string
	if err := s.db.GetContext(r.Context(), &hash, `SELECT password_hash FROM users WHERE id = $1`, p.User.ID); err != nil {
		return pg.Error(err, "entity.user")
	}
	// The current password is guessed like a sign-in: same throttle, same
	// bound on password checks (a stolen session must not become an
	// unthrottled password oracle).
	at, err := s.reserve(r.Context(), p.User.Username, httpx.ClientAddr(r, s.opt.TrustProxy), 0)
	if err != nil {
		return err
	}
	ok, err := s.checkPassword(r.Context(), hash, in.CurrentPassword)
	if err != nil {
		if werr := s.withdraw(r.Context(), at); werr != nil {
			return werr
		}
		return err
	}
	f := apperr.Fields{}
	if ok {
		if err := s.withdraw(r.Context(), at); err != nil {
			return err
		}
	} else {
		f.Add("current_password", "users.current_password_wrong")
	}
	ValidateNewPassword(f, in.Password, in.PasswordConfirmation)
	if err := f.Err(); err != nil {
		return err
	}
	newHash, err := HashPassword(in.Password)
	if err != nil {
		return err
	}
	err = pg.InTx(r.Context(), s.db, func(tx *sqlx.Tx) error {
		if _, err := tx.ExecContext(r.Context(), `UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1`, p.User.ID, newHash); err != nil {
			return err
		}
		// Other sessions (another browser, a lost phone) end; this one stays.
		if err := EndSessions(r.Context(), tx, p.User.ID, p.TokenHash); err != nil {
			return err
		}
		return audit.Record(r.Context(), tx, s.Actor(r), "user.password.change", "user", itoa(p.User.ID), nil)
	})
	if err != nil {
		return err
	}
	return httpx.NoContent(w)
}

func (s *Service) listPermissions(w http.ResponseWriter, r *http.Request) error {
	return httpx.JSON(w, http.StatusOK, api.List[perm.Permission]{Data: perm.Catalogue})
}

func (s *Service) listRoles(w http.ResponseWriter, r *http.Request) error {
	roles, err := s.Roles(r.Context())
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, api.List[api.RoleInfo]{Data: roles})
}

// RolePermissionsRequest replaces a role's permissions.
type RolePermissionsRequest struct {
	Permissions []perm.Name `json:"permissions"`
}

func (s *Service) putRolePermissions(w http.ResponseWriter, r *http.Request) error {
	var in RolePermissionsRequest
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	if in.Permissions == nil {
		return apperr.New(apperr.Invalid, "roles.permissions_required").WithField("permissions", "roles.permissions_required_field")
	}
	info, err := s.SetRolePermissionsAs(r.Context(), s.Actor(r), UserFrom(r.Context()).Role, perm.Role(r.PathValue("role")), in.Permissions)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, info)
}
