package letter

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"html/template"
	"math"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"
	"unicode"

	"github.com/go-chi/chi/v5"

	"github.com/tatib/tatib/server/internal/app"
	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/locale"
	"github.com/tatib/tatib/server/internal/pdfdoc"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/shared/api"
)

// Limit bounds the public verification lookups of one client address: at
// most N in each Window. The page and the JSON share it.
type Limit struct {
	N      int
	Window time.Duration
}

// DefaultLimit lets a family check its letters as often as it likes and an
// office behind one address a good few, while a guesser gets 30 codes in
// ten minutes against 2^60.
var DefaultLimit = Limit{N: 30, Window: 10 * time.Minute}

// allow counts one lookup of addr and refuses it past the limit
// (RateLimited, with the seconds to wait). The count lives in the
// database, so every replica shares it; old windows are pruned when a new
// one starts.
func (h *Handler) allow(ctx context.Context, addr string) error {
	lim := h.Limit
	if lim.N <= 0 || lim.Window <= 0 {
		lim = DefaultLimit
	}
	var row struct {
		Hits     int       `db:"hits"`
		Start    time.Time `db:"window_start"`
		Inserted bool      `db:"inserted"`
		Now      time.Time `db:"now"`
	}
	const q = `INSERT INTO letter_verify_lookups (address, window_start, hits)
		VALUES ($1, date_bin(make_interval(secs => $2), now(), timestamptz '2000-01-01 00:00:00+00'), 1)
		ON CONFLICT (address, window_start) DO UPDATE SET hits = letter_verify_lookups.hits + 1
		RETURNING hits, window_start, xmax = 0 AS inserted, now() AS now`
	if err := h.store.db.GetContext(ctx, &row, q, addr, lim.Window.Seconds()); err != nil {
		return fmt.Errorf("letter: verify limit: %w", err)
	}
	if row.Inserted {
		if _, err := h.store.db.ExecContext(ctx, `DELETE FROM letter_verify_lookups WHERE window_start < $1`,
			row.Start.Add(-lim.Window)); err != nil {
			return fmt.Errorf("letter: verify limit prune: %w", err)
		}
	}
	if row.Hits > lim.N {
		wait := row.Start.Add(lim.Window).Sub(row.Now)
		return &apperr.Error{Code: apperr.RateLimited, RetryAfter: max(1, int(math.Ceil(wait.Seconds()))),
			Msg: apperr.M("letter.verify.rate_limited", "minutes", max(1, int(math.Ceil(wait.Minutes()))))}
	}
	return nil
}

// PublicLetter is what anyone holding a letter's code may learn.
type PublicLetter = api.PublicLetter

// lookup finds the letter of code; an unknown or malformed code is the
// same NotFound, after the same query.
func (h *Handler) lookup(ctx context.Context, code string) (PublicLetter, error) {
	var row struct {
		Number    string         `db:"number"`
		Level     int            `db:"level"`
		Name      string         `db:"name"`
		IssuedAt  time.Time      `db:"issued_at"`
		Status    string         `db:"status"`
		Student   string         `db:"student"`
		YearStart schoolday.Date `db:"academic_year_start"`
		Levels    api.Levels     `db:"levels_covered"`
	}
	const q = `SELECT wl.number, wl.level, wl.name, wl.levels_covered, wl.issued_at, wl.status, s.full_name AS student, wl.academic_year_start
		FROM warning_letters wl JOIN students s ON s.id = wl.student_id
		WHERE wl.verify_code = $1 AND wl.number IS NOT NULL`
	c := normalizeCode(code)
	if !codeRE.MatchString(c) {
		// Not a code at all (or not UTF-8, or with NUL, which the database
		// refuses): the same query, for nothing, like any unknown code.
		c = ""
	}
	err := h.store.db.GetContext(ctx, &row, q, c)
	if errors.Is(err, sql.ErrNoRows) {
		return PublicLetter{}, apperr.New(apperr.NotFound, "letter.verify.not_found")
	}
	if err != nil {
		return PublicLetter{}, fmt.Errorf("letter: verify: %w", err)
	}
	prof, err := school.LoadProfile(ctx, h.store.db)
	if err != nil {
		return PublicLetter{}, err
	}
	name := row.Name
	if strings.TrimSpace(name) == "" {
		name = fmt.Sprintf("SP %d", row.Level)
	}
	return PublicLetter{
		School: prof.Name, Number: row.Number, Level: row.Level, LevelName: name, LevelsCovered: row.Levels,
		Date: schoolday.Of(row.IssuedAt), Status: row.Status,
		StatusLabel: locale.T(ctx, "letter.verify.state."+row.Status), StudentInitials: Initials(row.Student),
		AcademicYear: YearLabel(row.YearStart),
	}, nil
}

// codeRE is what a stored verification code looks like.
var codeRE = regexp.MustCompile(`^[A-Z2-7]{12}$`)

// publicLetter is GET /public/letters/{code}: the facts as JSON.
func (h *Handler) publicLetter(w http.ResponseWriter, r *http.Request) error {
	if err := h.allow(r.Context(), httpx.ClientAddr(r, h.TrustProxy)); err != nil {
		return err
	}
	l, err := h.lookup(r.Context(), chi.URLParam(r, "code"))
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Robots-Tag", "noindex")
	return httpx.JSON(w, http.StatusOK, l)
}

// Initials are the first letters of a name's words, "A. F." for "Ahmad
// Fauzi": enough for a family to see the letter is their child's, too
// little to tell anyone else who it is.
func Initials(name string) string {
	var parts []string
	for _, word := range strings.Fields(name) {
		for _, r := range word {
			if unicode.IsLetter(r) {
				parts = append(parts, string(unicode.ToUpper(r))+".")
				break
			}
		}
	}
	return strings.Join(parts, " ")
}

// VerifyPage serves the public verification page, /verifikasi/{code}, and
// /verifikasi with a form to type a code. It needs no sign-in and no
// front end: a parent's phone opens it from the QR code.
func VerifyPage(d app.Deps) http.Handler {
	s := NewStore(d.DB)
	h := NewHandler(s, d.Auth)
	h.TrustProxy = d.Config.TrustProxy
	return http.HandlerFunc(h.page)
}

// page renders the verification page in the request's language (?lang=
// id or en overrides Accept-Language).
func (h *Handler) page(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	switch r.URL.Query().Get("lang") {
	case "en":
		ctx = locale.WithLang(ctx, locale.EN)
	case "id":
		ctx = locale.WithLang(ctx, locale.ID)
	}
	lang := locale.FromContext(ctx)
	code := chi.URLParam(r, "code")
	if code == "" {
		// The form's answer: on to the code's own page.
		if typed := normalizeCode(r.URL.Query().Get("code")); typed != "" && len(typed) <= 64 {
			http.Redirect(w, r, VerifyPath+url.PathEscape(typed)+langQuery(r), http.StatusSeeOther)
			return
		}
	}
	shown := normalizeCode(code)
	if !codeRE.MatchString(shown) {
		shown = ""
	}
	v := pageView{Lang: string(lang), Code: GroupCode(shown), Path: r.URL.Path}
	t := func(key string, kv ...any) string { return locale.T(ctx, key, kv...) }
	v.Title, v.Other, v.OtherLabel = t("letter.verify.title"), "en", "English"
	if lang == locale.EN {
		v.Other, v.OtherLabel = "id", "Bahasa Indonesia"
	}
	v.Ask, v.Submit, v.CodeLabel = t("letter.verify.ask"), t("letter.verify.submit"), t("letter.verify.code")
	status := http.StatusOK
	if code != "" {
		err := h.allow(ctx, httpx.ClientAddr(r, h.TrustProxy))
		var l PublicLetter
		if err == nil {
			l, err = h.lookup(ctx, code)
		}
		e, known := apperr.As(err)
		switch {
		case err == nil:
			v.Found = true
			v.Issued = t("letter.verify.issued", "school", l.School)
			if strings.TrimSpace(l.School) == "" {
				v.Issued = t("letter.verify.issued_unnamed")
			}
			if l.Status == "withdrawn" {
				v.Warning = t("letter.verify.withdrawn")
			}
			date, _ := time.Parse(time.DateOnly, l.Date)
			v.Rows = [][2]string{
				{t("letter.verify.number"), l.Number},
				{t("letter.verify.level"), l.LevelName},
				{t("letter.verify.date"), dayName(lang, date)},
				{t("letter.verify.status"), l.StatusLabel},
				{t("letter.verify.student"), l.StudentInitials},
				{t("letter.verify.year"), l.AcademicYear},
			}
		case known:
			status = httpx.Status(e.Code)
			v.Warning = locale.Render(lang, e.Msg.Key, e.Msg.Params)
			if e.RetryAfter > 0 {
				w.Header().Set("Retry-After", fmt.Sprint(e.RetryAfter))
			}
		default:
			httpx.Logger.Error("verification page", "request_id", httpx.RequestID(ctx), "err", err)
			status = http.StatusInternalServerError
			v.Warning = t("server.internal")
		}
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Robots-Tag", "noindex")
	w.WriteHeader(status)
	_ = pageTemplate.Execute(w, v)
}

// langQuery keeps a chosen ?lang= across the form's redirect.
func langQuery(r *http.Request) string {
	if l := r.URL.Query().Get("lang"); l == "en" || l == "id" {
		return "?lang=" + l
	}
	return ""
}

// dayName is a date as people read it: "27 November 2026".
func dayName(lang locale.Lang, t time.Time) string {
	if lang == locale.EN {
		return t.Format("2 January 2006")
	}
	return pdfdoc.DateID(t)
}

type pageView struct {
	Lang, Title, Code, Path string
	Other, OtherLabel       string
	Ask, Submit, CodeLabel  string
	Found                   bool
	Issued, Warning         string
	Rows                    [][2]string
}

var pageTemplate = template.Must(template.New("verify").Parse(`<!doctype html>
<html lang="{{.Lang}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>{{.Title}}</title>
<style>
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:#f4f5f7;color:#1a1b1e}
main{max-width:34rem;margin:0 auto;padding:1.5rem 1rem}
h1{font-size:1.35rem;margin:0 0 1rem}
.card{background:#fff;border:1px solid #dee2e6;border-radius:8px;padding:1rem 1.25rem;margin-bottom:1rem}
.ok{border-left:6px solid #2f9e44}.warn{border-left:6px solid #e8590c}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.4rem 1rem;margin:.75rem 0 0}
dt{color:#495057}dd{margin:0;font-weight:600;overflow-wrap:anywhere}
@media (max-width:30rem){dl{grid-template-columns:1fr;gap:.15rem}dd{margin-bottom:.5rem}}
form{display:flex;gap:.5rem;flex-wrap:wrap}
input{flex:1 1 12rem;font-size:1rem;padding:.6rem;border:1px solid #ced4da;border-radius:6px;text-transform:uppercase}
button{font-size:1rem;padding:.6rem 1rem;border:0;border-radius:6px;background:#1c7ed6;color:#fff;min-height:44px}
nav{font-size:.9rem;text-align:right}a{color:#1864ab}
</style>
</head>
<body>
<main>
<nav><a href="{{.Path}}?lang={{.Other}}" hreflang="{{.Other}}">{{.OtherLabel}}</a></nav>
<h1>{{.Title}}</h1>
{{if .Found}}<section class="card ok" data-testid="verify-result">
<p><strong>{{.Issued}}</strong></p>
{{if .Warning}}<p data-testid="verify-warning">{{.Warning}}</p>{{end}}
<dl>{{range .Rows}}<dt>{{index . 0}}</dt><dd>{{index . 1}}</dd>{{end}}</dl>
</section>
{{else if .Warning}}<section class="card warn" role="alert" data-testid="verify-warning"><p>{{.Warning}}</p></section>{{end}}
<section class="card">
<form method="get" action="/verifikasi">
<label for="code">{{.Ask}}</label>
<input id="code" name="code" value="{{.Code}}" autocomplete="off" aria-label="{{.CodeLabel}}" maxlength="20">
<input type="hidden" name="lang" value="{{.Lang}}">
<button type="submit">{{.Submit}}</button>
</form>
</section>
</main>
</body>
</html>
`))
