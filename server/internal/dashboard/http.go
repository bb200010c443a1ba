package dashboard

import (
	"context"
	"net/http"
	"slices"
	"time"

	"github.com/tatib/tatib/server/internal/app"
	"github.com/tatib/tatib/server/internal/auth"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/shared/perm"
)

// Permissions gives a role's permissions (the auth service).
type Permissions interface {
	Permissions(ctx context.Context, r perm.Role) ([]perm.Name, error)
}

// Handler serves the dashboard and its calendar.
type Handler struct {
	store *Store
	perms Permissions
	// now is the clock "today" is taken from (Jakarta).
	now func() time.Time
}

// NewHandler returns a Handler.
func NewHandler(s *Store, p Permissions) *Handler { return &Handler{store: s, perms: p, now: time.Now} }

// Mount registers the routes.
func Mount(r *httpx.Router, d app.Deps) { NewHandler(NewStore(d.DB), d.Auth).Routes(r) }

// Routes registers the routes. The calendar shows violations only, so it
// asks for their list's permission.
func (h *Handler) Routes(r *httpx.Router) {
	r.Get("/dashboard", perm.DashboardView, h.dashboard)
	r.Get("/dashboard/violation-calendar", perm.ViolationsView, h.calendar)
}

// scope is the caller's scope with the request's source.
func scope(r *http.Request) (Scope, error) {
	src, err := ParseSource(r.URL.Query())
	return Scope{HomeroomID: auth.HomeroomID(r.Context()), Source: src}, err
}

// SectionsFor is what a role with names may see: each section needs the
// permission of the list it summarises; the caseload is the counselor's.
func SectionsFor(role perm.Role, names []perm.Name) Sections {
	has := func(n perm.Name) bool { return slices.Contains(names, n) }
	return Sections{
		Violations: has(perm.ViolationsView),
		Caseload:   role == perm.BK && has(perm.ViolationsView),
		// Shown to a homeroom teacher (their class) while the school gives
		// them attendance follow-up.
		AttendanceFollowUp: role == perm.WaliKelas && has(perm.ViolationsView),
		Letters:            has(perm.WarningLettersView),
		Attendance:         has(perm.AttendanceView),
		EarlyWarnings:      has(perm.EarlyWarningsView),
		// The failures are for whoever can retry them.
		ParentMessagesFailed: has(perm.ParentMessagesManage),
		// Counts only: no case and no name (docs/cases.md).
		Cases:        has(perm.CasesViewCounts),
		Achievements: has(perm.AchievementsView),
	}
}

func (h *Handler) dashboard(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	role := auth.UserFrom(ctx).Role
	sc, err := scope(r)
	if err != nil {
		return err
	}
	names, err := h.perms.Permissions(ctx, role)
	if err != nil {
		return err
	}
	out, err := h.store.Dashboard(ctx, sc, SectionsFor(role, names), h.now())
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, out)
}

func (h *Handler) calendar(w http.ResponseWriter, r *http.Request) error {
	m, err := ParseMonth(r.URL.Query(), h.now())
	if err != nil {
		return err
	}
	sc, err := scope(r)
	if err != nil {
		return err
	}
	out, err := h.store.Calendar(r.Context(), sc, m)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, out)
}
