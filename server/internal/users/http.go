package users

import (
	"net/http"
	"slices"
	"strings"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/auth"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// Handler serves /users.
type Handler struct {
	store *Store
	auth  *auth.Service
}

// NewHandler returns a Handler.
func NewHandler(s *Store, a *auth.Service) *Handler { return &Handler{store: s, auth: a} }

// Routes registers the user routes.
func (h *Handler) Routes(r *httpx.Router) {
	r.Get("/users", perm.UsersView, h.list)
	r.Post("/users", perm.UsersManage, h.create)
	r.Get("/users/{id}", perm.UsersView, h.get)
	r.Patch("/users/{id}", perm.UsersManage, h.update)
	r.Delete("/users/{id}", perm.UsersManage, h.delete)
	r.Post("/users/{id}/reset-password", perm.UsersResetPassword, h.resetPassword)
}

func (h *Handler) list(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	f := Filter{Q: strings.TrimSpace(q.Get("q")), Role: perm.Role(q.Get("role"))}
	if f.Role != "" && !f.Role.Valid() {
		return apperr.New(apperr.Invalid, "users.role_filter_invalid").WithField("role", "users.role_unknown")
	}
	switch q.Get("active") {
	case "true", "1":
		t := true
		f.Active = &t
	case "false", "0":
		b := false
		f.Active = &b
	}
	p, err := httpx.PageParams(r)
	if err != nil {
		return err
	}
	list, total, err := h.store.List(r.Context(), f, p)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, api.Page[User]{Data: list, Meta: p.Meta(total)})
}

func (h *Handler) get(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	u, err := h.store.Get(r.Context(), h.store.db, id)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, u)
}

func (h *Handler) create(w http.ResponseWriter, r *http.Request) error {
	var in CreateInput
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	c, err := h.caller(r)
	if err != nil {
		return err
	}
	u, err := h.store.Create(r.Context(), c, in)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusCreated, u)
}

func (h *Handler) update(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	var in UpdateInput
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	c, err := h.caller(r)
	if err != nil {
		return err
	}
	u, err := h.store.Update(r.Context(), c, id, in)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, u)
}

func (h *Handler) delete(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	c, err := h.caller(r)
	if err != nil {
		return err
	}
	release := false
	switch r.URL.Query().Get("release_class") {
	case "true", "1":
		release = true
	}
	res, err := h.store.Delete(r.Context(), c, id, release)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, res)
}

func (h *Handler) resetPassword(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	var in ResetPasswordInput
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	c, err := h.caller(r)
	if err != nil {
		return err
	}
	if err := h.store.ResetPassword(r.Context(), c, id, in); err != nil {
		return err
	}
	return httpx.NoContent(w)
}

// caller describes who asks: an admin by role, or the roles whose
// permissions are all among the caller's own.
func (h *Handler) caller(r *http.Request) (Caller, error) {
	ctx := r.Context()
	role := auth.UserFrom(ctx).Role
	c := Caller{Actor: h.auth.Actor(r), Admin: role == perm.Admin, Roles: map[perm.Role]bool{}}
	if c.Admin {
		return c, nil
	}
	own, err := h.auth.Permissions(ctx, role)
	if err != nil {
		return Caller{}, err
	}
	for _, other := range perm.Roles {
		if other == perm.Admin {
			continue
		}
		names, err := h.auth.Permissions(ctx, other)
		if err != nil {
			return Caller{}, err
		}
		c.Roles[other] = !slices.ContainsFunc(names, func(n perm.Name) bool { return !slices.Contains(own, n) })
	}
	return c, nil
}
