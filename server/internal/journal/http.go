package journal

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/app"
	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/auth"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/locale"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/server/internal/timing"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// SyncPath is the push route under /api/v1 (its body limit is its own).
const SyncPath = "/attendance/sync"

// AfterSync applies, in a student sync's transaction, the entries parked
// for students that sync brought in (a studentsync.AfterSyncFunc, wired by
// api.New).
func AfterSync(ctx context.Context, tx *sqlx.Tx) error {
	_, err := ApplyParked(ctx, tx)
	return err
}

// Handler serves the journal routes.
type Handler struct {
	store      *Store
	db         *sqlx.DB
	auth       *auth.Service
	log        *slog.Logger
	trustProxy bool
	// slots holds a token for each push being read or applied (gate.go).
	slots chan struct{}
}

// Mount registers the journal routes.
func Mount(r *httpx.Router, d app.Deps) {
	h := &Handler{store: NewStore(d.DB), db: d.DB, auth: d.Auth, log: d.Log, trustProxy: d.Config.TrustProxy,
		slots: make(chan struct{}, MaxPushesAtOnce)}
	if h.log == nil {
		h.log = slog.Default()
	}
	// Sync and ping are the journal's: no session, the journal token is
	// checked here.
	r.Post(SyncPath, perm.Public, h.sync)
	r.Get("/attendance/ping", perm.Public, h.ping)
	r.Get("/settings/journal-token", perm.SettingsManage, h.getToken)
	r.Post("/settings/journal-token", perm.SettingsManage, h.regenerate)
	r.Get("/settings/journal-pushes", perm.SettingsManage, h.pushes)
	r.Get("/settings/journal-parked", perm.SettingsManage, h.parked)
	r.Get("/settings/journal-auth-failures", perm.SettingsManage, h.authFailures)
}

func (h *Handler) authFailures(w http.ResponseWriter, r *http.Request) error {
	out, err := h.store.AuthFailures(r.Context(), h.db)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, out)
}

// givenToken is the token a request presents: header X-Journal-Token,
// Authorization: Bearer, query token, then the body's token field (read
// by fromBody, nil for none).
func givenToken(r *http.Request, fromBody func() string) string {
	if t := strings.TrimSpace(r.Header.Get("X-Journal-Token")); t != "" {
		return t
	}
	// A bearer that signed someone in is a session, not the journal's.
	if t := auth.BearerToken(r); t != "" && auth.From(r.Context()) == nil {
		return t
	}
	if t := strings.TrimSpace(r.URL.Query().Get("token")); t != "" {
		return t
	}
	if fromBody != nil {
		return fromBody()
	}
	return ""
}

// checkToken is nil when given is the journal token, else Unauthorized
// saying what is wrong.
func (h *Handler) checkToken(ctx context.Context, given string) error {
	st, found, err := loadToken(ctx, h.db)
	switch {
	case err != nil:
		return err
	case !found:
		return apperr.New(apperr.Unauthorized, "journal.token_not_configured")
	case given == "":
		return apperr.New(apperr.Unauthorized, "journal.token_missing")
	case !tokenMatches(given, st.Token):
		return apperr.New(apperr.Unauthorized, "journal.token_invalid")
	}
	return nil
}

// sync is POST /attendance/sync. Every answer, including refusals, is in
// the shape the E-Jurnal reads, and every push is logged.
func (h *Handler) sync(w http.ResponseWriter, r *http.Request) error {
	start := time.Now()
	// The stages' times go out in the Server-Timing header of an applied
	// push (the benchmark's breakdown); a few clock reads.
	ctx, stages := timing.Start(r.Context(), start)
	p := &pushLog{Address: httpx.ClientAddr(r, h.trustProxy)}
	if r.ContentLength > MaxRequestBytes {
		return h.refuse(w, r, p, start, tooLarge())
	}
	// The token before the body (gate.go): from a header or the query, else
	// from the body's first bytes; a wrong one costs no more than those.
	checked := false
	if given := givenToken(r, nil); given != "" {
		if err := h.checkToken(ctx, given); err != nil {
			return h.refuse(w, r, p, start, err)
		}
		checked = true
	}
	prefix, rest := peekPrefix(http.MaxBytesReader(w, r.Body, MaxRequestBytes))
	if !checked {
		if t, ok := tokenInPrefix(prefix); ok {
			if err := h.checkToken(ctx, t); err != nil {
				return h.refuse(w, r, p, start, err)
			}
			checked = true
		}
	}
	release, err := h.waitTurn(ctx)
	if err != nil {
		return h.refuse(w, r, p, start, err)
	}
	defer release()
	body, err := io.ReadAll(rest)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return h.refuse(w, r, p, start, tooLarge())
		}
		return h.refuse(w, r, p, start, apperr.New(apperr.BadRequest, "journal.body_unreadable"))
	}
	stages.Mark("read")
	// One decode serves the token and the entries of a well-formed body.
	var fast *PushBody
	if lb, ok := decodeFast(bytes.TrimSpace(body)); ok {
		fast = &lb
	}
	fromBody := func() string {
		if fast != nil {
			if fast.Token.ok {
				return fast.Token.s
			}
			return ""
		}
		return bodyToken(body)
	}
	if !checked {
		if err := h.checkToken(ctx, givenToken(r, fromBody)); err != nil {
			return h.refuse(w, r, p, start, err)
		}
	}
	prof, err := school.LoadProfile(ctx, h.db)
	if err != nil {
		return h.refuse(w, r, p, start, err)
	}
	earliest := prof.JournalEarliest(schoolday.DateOf(now())).String()
	entries, n, err := parseBatch(body, prof.LessonHoursPerDay, earliest, fast)
	p.Entries = n
	if err != nil {
		return h.refuse(w, r, p, start, err)
	}
	stages.Mark("decode")
	actor := Actor
	actor.Address = p.Address
	res, err := h.store.Apply(ctx, entries, p, actor)
	if err != nil {
		return h.refuse(w, r, p, start, err)
	}
	stages.Mark("commit")
	w.Header().Set("Server-Timing", stages.Header())
	msg := locale.T(ctx, "journal.sync_ok", "entries", n, "created", res.Created, "updated", res.Updated,
		"unchanged", res.Unchanged, "unmatched", res.Unmatched)
	return httpx.JSON(w, http.StatusOK, api.JournalSyncResponse{Success: true, Message: msg, Results: res})
}

func tooLarge() error {
	return apperr.New(apperr.TooLarge, "journal.too_large", "max_mb", MaxRequestBytes>>20, "max_entries", MaxEntries)
}

// refuse answers err in the journal's shape and logs the push.
func (h *Handler) refuse(w http.ResponseWriter, r *http.Request, p *pushLog, start time.Time, err error) error {
	e := h.appErr(r, err)
	switch e.Code {
	case apperr.Unauthorized:
		p.Outcome = OutcomeUnauthorized
	case apperr.TooLarge:
		p.Outcome = OutcomeTooLarge
	case apperr.Invalid, apperr.BadRequest:
		p.Outcome = OutcomeRejected
	default:
		p.Outcome = OutcomeFailed
	}
	p.ErrorCode, p.ErrorParams, p.Duration = e.Msg.Key, e.Msg.Params, time.Since(start)
	var be *batchErr
	if errors.As(err, &be) {
		p.Errors = be.fields[:min(len(be.fields), maxLogged)]
	}
	// The answer goes out whatever happens to the log line. A refused token
	// is counted apart: a flood of them never evicts a real push.
	logCtx := context.WithoutCancel(r.Context())
	if p.Outcome == OutcomeUnauthorized {
		if lerr := h.store.LogAuthFailure(logCtx, p.Address, p.ErrorCode, time.Now()); lerr != nil {
			h.log.Warn("journal: log refused token", "err", lerr)
		}
	} else if lerr := h.store.LogPush(logCtx, p); lerr != nil {
		h.log.Warn("journal: log push", "err", lerr)
	}
	return h.answer(w, r, e, be)
}

// appErr turns err into the application error to answer, as httpx.Error
// does: a database that cannot be reached is Unavailable, anything
// without a code an internal error (logged).
func (h *Handler) appErr(r *http.Request, err error) *apperr.Error {
	if e, ok := apperr.As(err); ok {
		return e
	}
	if pg.IsUnavailable(err) {
		return apperr.New(apperr.Unavailable, "server.database_unavailable")
	}
	h.log.Error("journal request failed", "request_id", httpx.RequestID(r.Context()), "path", r.URL.Path, "err", err)
	return apperr.New(apperr.Internal, "server.internal")
}

func (h *Handler) answer(w http.ResponseWriter, r *http.Request, e *apperr.Error, be *batchErr) error {
	lang := locale.FromContext(r.Context())
	d := httpx.Detail(lang, e)
	out := api.JournalFailure{Message: d.Message, Error: d}
	if be != nil {
		// Laravel's shape, which the E-Jurnal's own code knows:
		// "attendances.3.status": ["..."].
		out.Errors = make(map[string][]string, len(be.fields))
		for _, f := range be.fields {
			k := strings.NewReplacer("[", ".", "]", "").Replace(f.Field)
			out.Errors[k] = append(out.Errors[k], d.Fields[f.Field])
		}
	}
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(e.RetryAfter))
	}
	return httpx.JSON(w, httpx.Status(e.Code), out)
}

// ping is GET /attendance/ping: whether the token works, and the school.
func (h *Handler) ping(w http.ResponseWriter, r *http.Request) error {
	if err := h.checkToken(r.Context(), givenToken(r, nil)); err != nil {
		return h.answer(w, r, h.appErr(r, err), nil)
	}
	prof, err := school.LoadProfile(r.Context(), h.db)
	if err != nil {
		return h.answer(w, r, h.appErr(r, err), nil)
	}
	return httpx.JSON(w, http.StatusOK, api.JournalPingResponse{Success: true, School: prof.Name, ServerTime: schoolday.In(time.Now()).Truncate(time.Second)})
}

func (h *Handler) getToken(w http.ResponseWriter, r *http.Request) error {
	t, err := LoadToken(r.Context(), h.db)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, t)
}

func (h *Handler) regenerate(w http.ResponseWriter, r *http.Request) error {
	t, err := RegenerateToken(r.Context(), h.db, h.auth.Actor(r))
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, t)
}

func (h *Handler) pushes(w http.ResponseWriter, r *http.Request) error {
	pg, err := httpx.PageParams(r)
	if err != nil {
		return err
	}
	list, total, err := h.store.Pushes(r.Context(), locale.FromContext(r.Context()), pg.PerPage, pg.Offset())
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, api.Page[api.JournalPush]{Data: list, Meta: pg.Meta(total)})
}

func (h *Handler) parked(w http.ResponseWriter, r *http.Request) error {
	pg, err := httpx.PageParams(r)
	if err != nil {
		return err
	}
	list, total, err := h.store.Parked(r.Context(), locale.FromContext(r.Context()), pg.PerPage, pg.Offset())
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, api.Page[api.ParkedAttendance]{Data: list, Meta: pg.Meta(total)})
}
