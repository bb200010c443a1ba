package users

import (
	"net/http"
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
		return &apperr.Error{Code: apperr.Invalid, Msg: apperr.M("Filter peran tidak valid."), Fields: apperr.Fields{"role": apperr.M("Peran tidak dikenal.")}}
	}
	switch q.Get("active") {
	case "true", "1":
		t := true
		f.Active = &t
	case "false", "0":
		b := false
		f.Active = &b
	}
	p := httpx.PageParams(r)
	list, total, err := h.store.List(r.Context(), f, p)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, api.Page[api.User]{Data: list, Meta: p.Meta(total)})
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
	u, err := h.store.Create(r.Context(), h.auth.Actor(r), in)
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
	u, err := h.store.Update(r.Context(), h.auth.Actor(r), id, in)
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
	res, err := h.store.Delete(r.Context(), h.auth.Actor(r), id)
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
	if err := h.store.ResetPassword(r.Context(), h.auth.Actor(r), id, in); err != nil {
		return err
	}
	return httpx.NoContent(w)
}
