package datareset

import (
	"net/http"
	"strings"

	"github.com/tatib/tatib/server/internal/app"
	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/auth"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// Handler serves the reset routes.
type Handler struct {
	store *Store
	auth  *auth.Service
}

// NewHandler returns a Handler.
func NewHandler(s *Store, a *auth.Service) *Handler { return &Handler{store: s, auth: a} }

// Mount registers the routes.
func Mount(r *httpx.Router, d app.Deps) { NewHandler(NewStore(d.DB), d.Auth).Routes(r) }

// Routes registers the routes. data.reset is admin-only: no other role can
// hold it, whatever the role access rights say.
func (h *Handler) Routes(r *httpx.Router) {
	r.Get("/admin/reset", perm.DataReset, h.info)
	r.Post("/admin/reset", perm.DataReset, h.reset)
}

func (h *Handler) info(w http.ResponseWriter, r *http.Request) error {
	out, err := h.store.Info(r.Context())
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, out)
}

// reset checks every field before anything is removed: the sets (known,
// with what they require), the school's name typed exactly, the caller's
// own password (throttled like a sign-in). Any wrong field is a 422 naming
// it and nothing is touched.
func (h *Handler) reset(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	var in api.ResetRequest
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	f := apperr.Fields{}
	chosen := Choose(f, in.Sets)
	p, err := school.LoadProfile(ctx, h.store.db)
	if err != nil {
		return err
	}
	switch name := strings.TrimSpace(in.SchoolName); {
	case strings.TrimSpace(p.Name) == "":
		// Nothing to type yet: the profile must name the school first.
		f.Add("school_name", "datareset.school_name_unset")
	case name == "":
		f.Add("school_name", "datareset.school_name_required")
	case name != strings.TrimSpace(p.Name):
		f.Add("school_name", "datareset.school_name_wrong")
	}
	if in.Password == "" {
		f.Add("password", "datareset.password_required")
	} else {
		ok, err := h.auth.ConfirmPassword(r, in.Password)
		if err != nil {
			return err
		}
		if !ok {
			f.Add("password", "datareset.password_wrong")
		}
	}
	if err := f.Err(); err != nil {
		return err
	}
	out, err := h.store.Reset(ctx, h.auth.Actor(r), chosen)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, out)
}
