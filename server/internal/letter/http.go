package letter

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// Actors names the audit actor of a request (auth.Service does).
type Actors interface {
	Actor(r *http.Request) audit.Actor
}

// Handler serves the warning-letter routes.
type Handler struct {
	store *Store
	auth  Actors
}

// NewHandler returns a Handler.
func NewHandler(s *Store, a Actors) *Handler { return &Handler{store: s, auth: a} }

// Routes registers the routes.
func (h *Handler) Routes(r *httpx.Router) {
	r.Get("/warning-letters", perm.WarningLettersView, h.list)
	r.Get("/warning-letters/{id}", perm.WarningLettersView, h.get)
	r.Post("/warning-letters/{id}/status", perm.WarningLettersManage, h.setStatus)
	r.Get("/warning-letters/{id}/pdf", perm.WarningLettersView, h.pdf)
	r.Get("/academic-year", perm.Authenticated, h.academicYear)
}

// parseFilter reads the list's query; every bad value is a field error.
func parseFilter(r *http.Request) (Filter, error) {
	q := r.URL.Query()
	fe := apperr.Fields{}
	var f Filter
	id := func(name string) int64 {
		v := strings.TrimSpace(q.Get(name))
		if v == "" {
			return 0
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			fe.Add(name, "letter.filter.id")
			return 0
		}
		return n
	}
	f.StudentID = id("student_id")
	f.ClassID = id("class_id")
	if v := strings.TrimSpace(q.Get("level")); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 100 {
			fe.Add("level", "letter.filter.level")
		}
		f.Level = n
	}
	if v := strings.TrimSpace(q.Get("status")); v != "" {
		if !validStatus(v) {
			fe.Add("status", "letter.filter.status")
		}
		f.Status = v
	}
	date := func(name string) *time.Time {
		v := strings.TrimSpace(q.Get(name))
		if v == "" {
			return nil
		}
		t, err := time.Parse(time.DateOnly, v)
		if err != nil {
			fe.Add(name, "letter.filter.date")
			return nil
		}
		return &t
	}
	f.From, f.To = date("from"), date("to")
	if v := strings.TrimSpace(q.Get("academic_year")); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 2000 || n > 2100 {
			fe.Add("academic_year", "letter.filter.academic_year")
		}
		f.AcademicYear = n
	}
	if f.From != nil && f.To != nil && f.To.Before(*f.From) {
		fe.Add("to", "letter.filter.date_order")
	}
	if len(fe) > 0 {
		return f, &apperr.Error{Code: apperr.Invalid, Msg: apperr.M("letter.filter.invalid"), Fields: fe}
	}
	return f, nil
}

func (h *Handler) list(w http.ResponseWriter, r *http.Request) error {
	f, err := parseFilter(r)
	if err != nil {
		return err
	}
	p, err := httpx.PageParams(r)
	if err != nil {
		return err
	}
	list, total, err := h.store.List(r.Context(), scope(r.Context()), f, p.PerPage, p.Offset())
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, api.Page[Letter]{Data: list, Meta: p.Meta(total)})
}

func (h *Handler) get(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	l, err := h.store.Get(r.Context(), scope(r.Context()), id)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, l)
}

// StatusRequest moves a letter one step.
type StatusRequest struct {
	Status string `json:"status"`
}

func (h *Handler) setStatus(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	var in StatusRequest
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	l, err := h.store.SetStatus(r.Context(), scope(r.Context()), h.auth.Actor(r), id, strings.TrimSpace(in.Status))
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, l)
}

// pdf answers the letter as a PDF download. Making the PDF changes
// nothing: printing is its own step (POST …/status "printed"), taken when
// the letter has really been printed.
func (h *Handler) pdf(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	ctx := r.Context()
	p, err := h.store.Printout(ctx, scope(ctx), id)
	if err != nil {
		return err
	}
	prof, err := school.LoadProfile(ctx, h.store.db)
	if err != nil {
		return err
	}
	logo, err := school.LoadLogo(ctx, h.store.db)
	if err != nil {
		return err
	}
	b, err := Render(p, prof, logo)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/pdf")
	w.Header().Set("Content-Disposition", ContentDisposition(FileName(p.Level, p.StudentName, p.IssuedAt)))
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	// A letter names a child and their violations: no shared cache keeps it.
	w.Header().Set("Cache-Control", "private, no-store")
	w.WriteHeader(http.StatusOK)
	_, err = w.Write(b)
	return err
}

// FileName is the download name of a letter: "SP1-<student>-<issue day>.pdf",
// the name with its spaces as dashes.
func FileName(level int, student string, issued time.Time) string {
	name := strings.Join(strings.FieldsFunc(student, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}), "-")
	if name == "" {
		name = "siswa"
	}
	return "SP" + strconv.Itoa(level) + "-" + name + "-" + issued.In(jakarta).Format(time.DateOnly) + ".pdf"
}

// ContentDisposition is an attachment header for name: an ASCII filename
// (diacritics dropped, anything else non-ASCII as "_") for old clients and
// filename* with the UTF-8 name (RFC 6266).
func ContentDisposition(name string) string {
	var ascii strings.Builder
	for _, r := range norm.NFD.String(name) {
		switch {
		case unicode.Is(unicode.Mn, r):
		case r < 0x80 && r >= 0x20 && r != '"' && r != '\\':
			ascii.WriteRune(r)
		default:
			ascii.WriteByte('_')
		}
	}
	return `attachment; filename="` + ascii.String() + `"; filename*=UTF-8''` + url.PathEscape(name)
}
