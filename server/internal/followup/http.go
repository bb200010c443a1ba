package followup

import (
	"net/http"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/app"
	"github.com/tatib/tatib/server/internal/auth"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// Handler serves the setting and the user's source.
type Handler struct {
	db   *sqlx.DB
	auth *auth.Service
}

// Mount registers the routes.
func Mount(r *httpx.Router, d app.Deps) { (&Handler{db: d.DB, auth: d.Auth}).Routes(r) }

// Routes registers the routes. Anyone signed in has a source of their own.
func (h *Handler) Routes(r *httpx.Router) {
	r.Get("/settings/attendance-follow-up", perm.SettingsView, h.getSetting)
	r.Put("/settings/attendance-follow-up", perm.SettingsManage, h.putSetting)
	r.Get("/preferences/violation-source", perm.Authenticated, h.getPreference)
	r.Put("/preferences/violation-source", perm.Authenticated, h.putPreference)
}

func (h *Handler) getSetting(w http.ResponseWriter, r *http.Request) error {
	s, err := Load(r.Context(), h.db)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, s)
}

func (h *Handler) putSetting(w http.ResponseWriter, r *http.Request) error {
	var in api.AttendanceFollowUp
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	s, err := Save(r.Context(), h.db, h.auth.Actor(r), in)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, s)
}

func (h *Handler) getPreference(w http.ResponseWriter, r *http.Request) error {
	u := auth.UserFrom(r.Context())
	p, err := Preference(r.Context(), h.db, u.ID, u.Role)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, p)
}

func (h *Handler) putPreference(w http.ResponseWriter, r *http.Request) error {
	var in api.ViolationSourceInput
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	u := auth.UserFrom(r.Context())
	p, err := SavePreference(r.Context(), h.db, u.ID, u.Role, in)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, p)
}
