package handling

import (
	"net/http"

	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/violation"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// Actors names the audit actor of a request (auth.Service does).
type Actors interface {
	Actor(r *http.Request) audit.Actor
}

// Handler serves the handling routes.
type Handler struct {
	store *Store
	auth  Actors
}

// NewHandler returns a Handler.
func NewHandler(s *Store, a Actors) *Handler { return &Handler{store: s, auth: a} }

// Routes registers the routes.
func (h *Handler) Routes(r *httpx.Router) {
	r.Post("/violations/{id}/handlings", perm.HandlingsCreate, h.create)
	r.Post("/violations/{id}/resolve", perm.HandlingsResolve, h.resolve)
	r.Post("/violations/{id}/reopen", perm.HandlingsReopen, h.reopen)
	r.Delete("/handlings/{id}", perm.HandlingsDelete, h.delete)
	r.Post("/handlings", perm.HandlingsCreate, h.createShared)
	r.Post("/handlings/{id}/resolve", perm.HandlingsResolve, h.resolveShared)
	r.Get("/classes/{id}/attendance-violations/open", perm.HandlingsResolveAttendance, h.openAttendance)
	r.Post("/classes/{id}/attendance-violations/resolve", perm.HandlingsResolveAttendance, h.resolveAttendance)
}

func (h *Handler) create(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	var in api.CreateHandlingRequest
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	out, err := h.store.Create(r.Context(), h.auth.Actor(r), violation.ScopeOf(r.Context()), id, in)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusCreated, out)
}

func (h *Handler) resolve(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	v, err := h.store.Resolve(r.Context(), h.auth.Actor(r), violation.ScopeOf(r.Context()), id)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, v)
}

func (h *Handler) reopen(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	v, err := h.store.Reopen(r.Context(), h.auth.Actor(r), violation.ScopeOf(r.Context()), id)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, v)
}

func (h *Handler) delete(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	if err := h.store.Delete(r.Context(), h.auth.Actor(r), violation.ScopeOf(r.Context()), id); err != nil {
		return err
	}
	return httpx.NoContent(w)
}

func (h *Handler) createShared(w http.ResponseWriter, r *http.Request) error {
	var in api.CreateSharedHandlingRequest
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	out, err := h.store.CreateShared(r.Context(), h.auth.Actor(r), violation.ScopeOf(r.Context()), in)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusCreated, out)
}

func (h *Handler) resolveShared(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	out, err := h.store.ResolveShared(r.Context(), h.auth.Actor(r), violation.ScopeOf(r.Context()), id)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, out)
}

func (h *Handler) openAttendance(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	q := r.URL.Query()
	out, err := h.store.OpenAttendance(r.Context(), violation.ScopeOf(r.Context()), id, q.Get("from"), q.Get("to"), q.Get("kind"))
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, out)
}

func (h *Handler) resolveAttendance(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	var in api.ResolveAttendanceRequest
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	out, err := h.store.ResolveAttendance(r.Context(), h.auth.Actor(r), violation.ScopeOf(r.Context()), id, in)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, out)
}
