package school

import (
	"net/http"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/auth"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/shared/perm"
)

// Handler serves the school profile and logo routes.
type Handler struct {
	db   *sqlx.DB
	auth *auth.Service
}

// Routes registers the routes on r.
func (h *Handler) Routes(r *httpx.Router) {
	r.Get("/settings/school", perm.SettingsView, h.getProfile)
	r.Put("/settings/school", perm.SettingsManage, h.putProfile)
	r.Get("/school/public", perm.Public, h.publicProfile)
	r.Put("/settings/school/logo", perm.SettingsManage, h.putLogo)
	r.Delete("/settings/school/logo", perm.SettingsManage, h.deleteLogo)
	r.Get("/school/logo", perm.Public, h.getLogo)
}

func (h *Handler) getProfile(w http.ResponseWriter, r *http.Request) error {
	p, err := LoadProfile(r.Context(), h.db)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, p)
}

// PublicProfile is what the sign-in page may show before anyone signs in:
// the school's name and nothing else of the profile.
type PublicProfile struct {
	Name    string  `json:"name"`
	LogoURL *string `json:"logo_url"`
}

func (h *Handler) publicProfile(w http.ResponseWriter, r *http.Request) error {
	p, err := LoadProfile(r.Context(), h.db)
	if err != nil {
		return err
	}
	out := PublicProfile{Name: p.Name}
	l, found, err := logoInfo(r.Context(), h.db)
	if err != nil {
		return err
	}
	if found {
		out.LogoURL = &l.URL
	}
	return httpx.JSON(w, http.StatusOK, out)
}

func (h *Handler) putProfile(w http.ResponseWriter, r *http.Request) error {
	var in Profile
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	p, err := SaveProfile(r.Context(), h.db, h.auth.Actor(r), in)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, p)
}
