package earlywarning

import (
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/app"
	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/auth"
	"github.com/tatib/tatib/server/internal/cases"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/locale"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/violation"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// Handler serves the early warnings page.
type Handler struct {
	db *sqlx.DB
	// auth, when set, adds the overdue case stages (package cases).
	auth *auth.Service
	// now is the clock "today" is taken from (its Jakarta day).
	now func() time.Time
}

// NewHandler returns a Handler.
func NewHandler(db *sqlx.DB) *Handler { return &Handler{db: db, now: time.Now} }

// Mount registers the routes.
func Mount(r *httpx.Router, d app.Deps) {
	h := NewHandler(d.DB)
	h.auth = d.Auth
	h.Routes(r)
}

// Routes registers the routes.
func (h *Handler) Routes(r *httpx.Router) {
	r.Get("/early-warnings", perm.EarlyWarningsView, h.list)
}

// list answers GET /early-warnings?source=&kind=&class_id=&page=&per_page=.
// A homeroom teacher sees their class only; asking for another class is
// 404, as it is for a class that does not exist.
func (h *Handler) list(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	q := r.URL.Query()
	source, ok := violation.ParseSource(q.Get("source"))
	if !ok {
		return apperr.New(apperr.Invalid, "form.invalid").WithField("source", "violationlist.filter.source")
	}
	kind := q.Get("kind")
	if kind != "" && !slices.Contains(api.EarlyWarningKinds, kind) {
		return apperr.New(apperr.Invalid, "earlywarning.kind.invalid").WithField("kind", "earlywarning.kind.choose")
	}
	if kind != "" && !slices.Contains(api.EarlyWarningKindsOf[source], kind) {
		return apperr.New(apperr.Invalid, "earlywarning.kind.invalid").WithField("kind", "earlywarning.kind.not_in_source",
			"kind", locale.Key("earlywarning.kind_name."+kind), "source", locale.Key("earlywarning.source_name."+source))
	}
	var classID int64
	if v := q.Get("class_id"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1 {
			return apperr.New(apperr.Invalid, "earlywarning.class.invalid").WithField("class_id", "earlywarning.class.invalid")
		}
		classID = n
	}
	paging, err := httpx.PageParams(r)
	if err != nil {
		return err
	}
	homeroom := auth.HomeroomID(ctx)
	if classID != 0 {
		var id int64
		err := h.db.GetContext(ctx, &id, `SELECT id FROM classes WHERE id = $1 AND ($2::bigint = 0 OR homeroom_teacher_id = $2)`, classID, homeroom)
		if err != nil {
			return pg.Error(err, "entity.class")
		}
	}
	p, err := Load(ctx, h.db, homeroom, classID, h.now())
	if err != nil {
		return err
	}
	p.Source = source
	counts, err := CountsFor(ctx, h.db, p)
	if err != nil {
		return err
	}
	rows, total, err := List(ctx, h.db, p, kind, paging.PerPage, (paging.Page-1)*paging.PerPage)
	if err != nil {
		return err
	}
	latest, err := LatestSchoolDay(ctx, h.db, p.Today)
	if err != nil {
		return err
	}
	out := api.EarlyWarningPage{Data: rows, Meta: paging.Meta(total), Counts: counts,
		Threshold: p.Points, Source: source, Kinds: api.EarlyWarningKindsOf[source], Rules: p.Rules(), LatestSchoolDay: latest,
		CaseStagesOverdue: []api.CaseSummary{}}
	if h.auth != nil {
		if out.CaseStagesOverdue, out.CaseStagesOverdueCount, err = cases.Overdue(ctx, h.db, h.auth); err != nil {
			return err
		}
	}
	return httpx.JSON(w, http.StatusOK, out)
}
