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
	"github.com/tatib/tatib/server/internal/schoolday"
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
	// TrustProxy takes the client address of the verification lookups'
	// limit from X-Forwarded-For (TATIB_TRUST_PROXY).
	TrustProxy bool
	// Limit bounds the public verification lookups per client address.
	Limit Limit
}

// NewHandler returns a Handler.
func NewHandler(s *Store, a Actors) *Handler {
	return &Handler{store: s, auth: a, Limit: DefaultLimit}
}

// Routes registers the routes.
func (h *Handler) Routes(r *httpx.Router) {
	r.Get("/warning-letters", perm.WarningLettersView, h.list)
	r.Post("/warning-letters/print", perm.WarningLettersManage, h.printBatch)
	r.Get("/warning-letters/{id}", perm.WarningLettersView, h.get)
	r.Post("/warning-letters/{id}/status", perm.WarningLettersManage, h.setStatus)
	r.Post("/warning-letters/{id}/send", perm.WarningLettersManage, h.send)
	r.Get("/warning-letters/{id}/pdf", perm.WarningLettersView, h.pdf)
	r.Get("/academic-year", perm.Authenticated, h.academicYear)
	r.Get("/settings/letters", perm.SettingsView, h.getSettings)
	r.Put("/settings/letters", perm.SettingsManage, h.putSettings)
	r.Get("/public/letters/{code}", perm.Public, h.publicLetter)
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

// pdf answers the letter as a PDF download. A downloaded letter may be
// printed from then on, so it gets its number and verification code now if
// it has none (a withdrawn letter never does); its status does not move:
// printing is its own step (POST …/status "printed" or a batch print).
func (h *Handler) pdf(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	ctx := r.Context()
	prof, logo, err := h.letterhead(r)
	if err != nil {
		return err
	}
	b, ps, err := h.store.Print(ctx, scope(ctx), h.auth.Actor(r), []int64{id}, PrintOptions{}, func(ps []Printout) ([]byte, error) {
		return Render(ps[0], prof, logo)
	})
	if err != nil {
		return err
	}
	return writePDF(w, FileName(ps[0].Level, ps[0].StudentName, ps[0].IssuedAt), b)
}

// letterhead loads what every letter's head shows.
func (h *Handler) letterhead(r *http.Request) (school.Profile, []byte, error) {
	prof, err := school.LoadProfile(r.Context(), h.store.db)
	if err != nil {
		return school.Profile{}, nil, err
	}
	logo, err := school.LoadLogo(r.Context(), h.store.db)
	return prof, logo, err
}

// writePDF answers b as a PDF download named name.
func writePDF(w http.ResponseWriter, name string, b []byte) error {
	w.Header().Set("Content-Type", "application/pdf")
	w.Header().Set("Content-Disposition", ContentDisposition(name))
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	// A letter names a child and their violations: no shared cache keeps it.
	w.Header().Set("Cache-Control", "private, no-store")
	w.WriteHeader(http.StatusOK)
	_, err := w.Write(b)
	return err
}

// PrintRequest is POST /warning-letters/print: the letters to print as
// one PDF.
type PrintRequest struct {
	IDs []int64 `json:"ids"`
}

// Validate checks the ids and drops repeats, keeping the first.
func (in *PrintRequest) Validate() error {
	f := apperr.Fields{}
	switch {
	case len(in.IDs) == 0:
		f.Add("ids", "letter.print.ids_required")
	case len(in.IDs) > MaxBatch:
		f.Add("ids", "letter.print.too_many", "max", MaxBatch)
	}
	seen := map[int64]bool{}
	ids := in.IDs[:0:0]
	for _, id := range in.IDs {
		if id <= 0 {
			f.Add("ids", "letter.filter.id")
			break
		}
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	in.IDs = ids
	return f.Err()
}

// printBatch answers the letters as one PDF, each on new pages, and marks
// them printed: drafts move to printed, every letter without a number gets
// one. A withdrawn letter among them refuses the whole batch.
func (h *Handler) printBatch(w http.ResponseWriter, r *http.Request) error {
	var in PrintRequest
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	if err := in.Validate(); err != nil {
		return err
	}
	ctx := r.Context()
	prof, logo, err := h.letterhead(r)
	if err != nil {
		return err
	}
	now := time.Now()
	b, _, err := h.store.Print(ctx, scope(ctx), h.auth.Actor(r), in.IDs, PrintOptions{Batch: true}, func(ps []Printout) ([]byte, error) {
		return RenderBatch(ps, prof, logo, now)
	})
	if err != nil {
		return err
	}
	return writePDF(w, BatchFileName(len(in.IDs), now), b)
}

// BatchFileName is the download name of a batch: "Surat-Peringatan-
// <day>-<n>-surat.pdf".
func BatchFileName(n int, at time.Time) string {
	return "Surat-Peringatan-" + schoolday.Of(at) + "-" + strconv.Itoa(n) + "-surat.pdf"
}

func (h *Handler) getSettings(w http.ResponseWriter, r *http.Request) error {
	s, err := LoadSettings(r.Context(), h.store.db)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, described(s))
}

func (h *Handler) putSettings(w http.ResponseWriter, r *http.Request) error {
	var in Settings
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	s, err := h.store.SaveSettings(r.Context(), h.auth.Actor(r), in)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, described(s))
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
	return "SP" + strconv.Itoa(level) + "-" + name + "-" + schoolday.Of(issued) + ".pdf"
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
