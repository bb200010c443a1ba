package report

import (
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/app"
	"github.com/tatib/tatib/server/internal/auth"
	"github.com/tatib/tatib/server/internal/cases"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/letter"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// Handler serves the report's routes.
type Handler struct {
	store *Store
	// now is the clock of "this month" and of the generation time.
	now func() time.Time
	// auth answers whether the caller may see case counts (nil: never).
	auth *auth.Service
}

// NewHandler returns a Handler.
func NewHandler(s *Store) *Handler { return &Handler{store: s, now: time.Now} }

// Mount registers the routes.
func Mount(r *httpx.Router, d app.Deps) {
	h := NewHandler(NewStore(d.DB))
	h.auth = d.Auth
	h.Routes(r)
}

// Routes registers the routes.
func (h *Handler) Routes(r *httpx.Router) {
	r.Get("/reports/violation-recap", perm.ReportsView, h.json)
	r.Get("/reports/violation-recap.pdf", perm.ReportsView, h.pdf)
}

// scope is the caller's: their homeroom class, and whether they hold
// cases.view_counts (the report's cases section).
func (h *Handler) scope(ctx context.Context) (Scope, error) {
	sc := Scope{HomeroomID: auth.HomeroomID(ctx)}
	if h.auth == nil {
		return sc, nil
	}
	ok, err := h.auth.Can(ctx, auth.UserFrom(ctx).Role, perm.CasesViewCounts)
	sc.CaseCounts = ok
	return sc, err
}

// parse loads the profile (the academic year's first day) and reads the
// query.
func (h *Handler) parse(r *http.Request) (Query, school.Profile, error) {
	prof, err := school.LoadProfile(r.Context(), h.store.db)
	if err != nil {
		return Query{}, prof, err
	}
	q, err := ParseQuery(r.URL.Query(), h.now(), prof)
	return q, prof, err
}

func (h *Handler) json(w http.ResponseWriter, r *http.Request) error {
	q, prof, err := h.parse(r)
	if err != nil {
		return err
	}
	sc, err := h.scope(r.Context())
	if err != nil {
		return err
	}
	out, err := h.store.Recap(r.Context(), sc, q, prof, h.now())
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "private, no-store")
	return httpx.JSON(w, http.StatusOK, out)
}

func (h *Handler) pdf(w http.ResponseWriter, r *http.Request) error {
	q, prof, err := h.parse(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	logo, err := school.LoadLogo(ctx, h.store.db)
	if err != nil {
		return err
	}
	now := h.now()
	// The headers go out with the first byte of the file: until then an
	// error (a refused scope, a database failure) is still an error answer.
	lw := &lazyWriter{w: w}
	lw.start = func(rep api.ViolationRecap) {
		w.Header().Set("Content-Type", "application/pdf")
		w.Header().Set("Content-Disposition", letter.ContentDisposition(FileName(rep)))
		// The report names children and their violations.
		w.Header().Set("Cache-Control", "private, no-store")
		w.WriteHeader(http.StatusOK)
	}
	sc, err := h.scope(ctx)
	if err != nil {
		return err
	}
	_, err = h.store.PDF(ctx, sc, q, prof, logo, now, lw)
	return err
}

// lazyWriter writes the response's headers when the first byte comes.
type lazyWriter struct {
	w       io.Writer
	rep     api.ViolationRecap
	start   func(api.ViolationRecap)
	started bool
}

func (l *lazyWriter) Write(p []byte) (int, error) {
	if !l.started {
		l.started = true
		l.start(l.rep)
	}
	return l.w.Write(p)
}

// FileName is the download name: "rekap-pelanggaran-<scope>-<from>-<to>.pdf",
// with "-perilaku" or "-absensi" before ".pdf" for one source.
func FileName(rep api.ViolationRecap) string {
	scope := "sekolah"
	switch rep.Scope.Kind {
	case api.RecapScopeClass:
		scope = slug(rep.Scope.ClassName)
	case api.RecapScopeGrade:
		scope = "tingkat-" + itoa(rep.Scope.Grade)
	case api.RecapScopeDepartment:
		scope = slug(rep.Scope.DepartmentName)
	}
	source := ""
	switch rep.Source {
	case api.SourceBehaviour:
		source = "-perilaku"
	case api.SourceAttendance:
		source = "-absensi"
	}
	return "rekap-pelanggaran-" + scope + "-" + rep.Period.From + "-" + rep.Period.To + source + ".pdf"
}

// Recap is the JSON report: the summary and one page of detail rows.
func (s *Store) Recap(ctx context.Context, sc Scope, q Query, prof school.Profile, now time.Time) (api.ViolationRecap, error) {
	var out api.ViolationRecap
	err := s.readOnly(ctx, func(tx *sqlx.Tx) error {
		p, err := s.resolve(ctx, tx, sc, q, prof.YearStartOf(q.To))
		if err != nil {
			return err
		}
		out = head(p, now)
		if err := summary(ctx, tx, p, &out); err != nil {
			return err
		}
		if err := caseCounts(ctx, tx, sc, p, &out); err != nil {
			return err
		}
		out.Details, err = details(ctx, tx, p, q.DetailOffset, q.DetailLimit)
		return err
	})
	return out, err
}

// PDF writes the report's PDF to w and returns its number of pages.
func (s *Store) PDF(ctx context.Context, sc Scope, q Query, prof school.Profile, logo []byte, now time.Time, w io.Writer) (int, error) {
	pages := 0
	err := s.readOnly(ctx, func(tx *sqlx.Tx) error {
		p, err := s.resolve(ctx, tx, sc, q, prof.YearStartOf(q.To))
		if err != nil {
			return err
		}
		rep := head(p, now)
		if err := summary(ctx, tx, p, &rep); err != nil {
			return err
		}
		if err := caseCounts(ctx, tx, sc, p, &rep); err != nil {
			return err
		}
		if lw, ok := w.(*lazyWriter); ok {
			lw.rep = rep
		}
		pages, err = Render(w, Document{Recap: rep, Profile: prof, Logo: logo, Generated: now},
			func(fn func(api.RecapDetailRow) error) error { return eachDetail(ctx, tx, p, fn) })
		return err
	})
	return pages, err
}

// caseCounts adds the period's cases, counted, for a caller with
// cases.view_counts on the whole school's report. A class, grade or
// department report has none: a handful of cases in one class would point
// at the children in them (docs/cases.md).
func caseCounts(ctx context.Context, tx *sqlx.Tx, sc Scope, p plan, out *api.ViolationRecap) error {
	if !sc.CaseCounts || p.scope.Kind != api.RecapScopeSchool {
		return nil
	}
	c, err := cases.PeriodCounts(ctx, tx, p.q.From, p.q.To)
	if err != nil {
		return err
	}
	out.Cases = &c
	return nil
}

func head(p plan, now time.Time) api.ViolationRecap {
	return api.ViolationRecap{Period: p.q.Period, Scope: p.scope, Source: p.q.Source, Details: []api.RecapDetailRow{},
		DetailOffset: p.q.DetailOffset, DetailLimit: p.q.DetailLimit, GeneratedAt: now.UTC().Truncate(time.Second)}
}

func itoa(n int) string { return strconv.Itoa(n) }

// slug is s lower-cased with every run of other than letters and digits
// as one dash: "X RPL 1" → "x-rpl-1".
func slug(s string) string {
	out := strings.Join(strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}), "-")
	if out == "" {
		return "kelas"
	}
	return out
}
