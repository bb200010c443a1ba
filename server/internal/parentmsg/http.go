package parentmsg

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/app"
	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/auth"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/locale"
	"github.com/tatib/tatib/server/internal/netguard"
	"github.com/tatib/tatib/server/internal/parentmsg/gateway"
	"github.com/tatib/tatib/server/internal/phone"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// Handler serves the messaging settings and the delivery log.
type Handler struct {
	db    *sqlx.DB
	auth  *auth.Service
	store *Store
	// client sends the test message (nil: the gateway's own, bounded by
	// its timeout).
	client *http.Client
	now    func() time.Time
}

// NewHandler returns a Handler.
func NewHandler(db *sqlx.DB, a *auth.Service) *Handler {
	// The client's dialer refuses the server's own addresses unless
	// TATIB_ALLOW_LOCAL_SOURCES allows them; each send is bounded by the
	// gateway's own timeout (at most a minute).
	return &Handler{db: db, auth: a, store: NewStore(db), now: time.Now,
		client: netguard.Client(time.Duration(MaxTimeout+1)*time.Second, netguard.LocalAllowed())}
}

// Mount registers the routes.
func Mount(r *httpx.Router, d app.Deps) { NewHandler(d.DB, d.Auth).Routes(r) }

// Routes registers the routes.
func (h *Handler) Routes(r *httpx.Router) {
	r.Get("/settings/messaging", perm.SettingsView, h.getSettings)
	r.Put("/settings/messaging", perm.SettingsManage, h.putSettings)
	r.Post("/settings/messaging/test", perm.SettingsManage, h.test)
	r.Post("/settings/messaging/preview", perm.SettingsManage, h.preview)
	r.Get("/parent-messages", perm.ParentMessagesView, h.list)
	r.Post("/parent-messages/retry-failed", perm.ParentMessagesManage, h.retryFailed)
	r.Get("/parent-messages/{id}", perm.ParentMessagesView, h.get)
	r.Post("/parent-messages/{id}/retry", perm.ParentMessagesManage, h.retry)
	r.Post("/parent-messages/{id}/cancel", perm.ParentMessagesManage, h.cancel)
}

// statusName is a status as people read it, a message parameter.
func statusName(status string) locale.Key { return locale.Key("parentmsg.status." + status) }

// phoneProblem is a phone problem as people read it, a message parameter.
func phoneProblem(p phone.Problem) locale.Key { return locale.Key("parentmsg.phone." + string(p)) }

// renderProblem is a phone problem in the request's language.
func renderProblem(ctx context.Context, p phone.Problem) string {
	return locale.T(ctx, "parentmsg.phone."+string(p))
}

// reader is the caller as the delivery log sees them.
func (h *Handler) reader(ctx context.Context) (Reader, error) {
	full, err := h.auth.Can(ctx, auth.UserFrom(ctx).Role, perm.ParentMessagesManage)
	if err != nil {
		return Reader{}, err
	}
	return Reader{HomeroomID: auth.HomeroomID(ctx), FullNumbers: full}, nil
}

func (h *Handler) getSettings(w http.ResponseWriter, r *http.Request) error {
	s, err := Load(r.Context(), h.db)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, s.Wire())
}

func (h *Handler) putSettings(w http.ResponseWriter, r *http.Request) error {
	var in SettingsInput
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	s, err := SaveSettings(r.Context(), h.db, h.auth.Actor(r), in)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, s.Wire())
}

// test sends one message through the stored gateway, or through the one in
// the request (its absent secrets the stored ones), and answers exactly
// what came back. A gateway that answered is 200 whatever it said.
func (h *Handler) test(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	var in api.MessagingTestRequest
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	stored, err := Load(ctx, h.db)
	if err != nil {
		return err
	}
	f := apperr.Fields{}
	number, problem := phone.Normalize(in.Phone)
	if problem != phone.None {
		f.Add("phone", "parentmsg.phone."+string(problem))
	}
	in.Message = strings.TrimSpace(in.Message)
	if utf8.RuneCountInString(in.Message) > MaxTemplate {
		f.Add("message", "parentmsg.field.too_long", "max", MaxTemplate)
	}
	g := stored.Gateway
	if in.Gateway != nil {
		g = mergeGateway(*in.Gateway, stored.Gateway)
		validateGateway(f, g)
	}
	if err := f.Err(); err != nil {
		return err
	}
	if g.Kind == "" || g.BaseURL == "" {
		return apperr.New(apperr.Invalid, "parentmsg.test.no_gateway")
	}
	gw, err := gateway.New(sendConfig(g), h.client)
	if err != nil {
		return apperr.New(apperr.Invalid, "parentmsg.test.no_gateway")
	}
	text := in.Message
	if text == "" {
		profile, err := school.LoadProfile(ctx, h.db)
		if err != nil {
			return err
		}
		// In Indonesian, as parents read every message.
		text = locale.Render(locale.ID, "parentmsg.test.default_message", locale.Params("school", profile.Name))
		if strings.TrimSpace(profile.Name) == "" {
			text = locale.Render(locale.ID, "parentmsg.test.default_message_unnamed", nil)
		}
	}
	// The send is bounded by the gateway's timeout; the extra second lets
	// the client report its own timeout rather than ours.
	sendCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), g.Timeout()+time.Second)
	defer cancel()
	res := gw.Send(sendCtx, gateway.Message{Phone: number, Text: text})
	out := api.MessagingTestResult{Outcome: string(res.Outcome), Phone: number, HTTPStatus: res.HTTPStatus, Answer: res.Answer,
		MessageID: res.MessageID, DurationMS: res.Duration.Milliseconds(), Summary: summary(ctx, res)}
	if err := audit.Record(ctx, h.db, h.auth.Actor(r), "settings.messaging.test", "setting", SettingsKey, map[string]any{
		"gateway": g.Kind, "base_url": g.BaseURL, "phone": phone.Mask(number), "outcome": out.Outcome,
		"http_status": out.HTTPStatus, "reason": res.Reason, "from_form": in.Gateway != nil,
	}); err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, out)
}

// reasons are the gateway's classified reasons the catalogue explains.
var reasons = []string{"ok", "bad_token", "not_on_whatsapp", "invalid_number", "timeout", "unreachable", "server_error",
	"rate_limited", "rejected", "bad_answer"}

// summary explains a send's result in the request's language.
func summary(ctx context.Context, res gateway.Result) string {
	if slices.Contains(reasons, res.Reason) {
		return locale.T(ctx, "parentmsg.reason."+res.Reason)
	}
	switch res.Outcome {
	case gateway.Sent, gateway.Permanent, gateway.Temporary, gateway.RateLimited:
		return locale.T(ctx, "parentmsg.outcome."+string(res.Outcome))
	}
	return locale.T(ctx, "parentmsg.reason.bad_answer")
}

func (h *Handler) preview(w http.ResponseWriter, r *http.Request) error {
	var in api.MessagingPreviewRequest
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	f := apperr.Fields{}
	if !slices.Contains(Events, in.Event) {
		f.Add("event", "parentmsg.event.choose")
	}
	in.Template = strings.ReplaceAll(in.Template, "\r\n", "\n")
	switch {
	case strings.TrimSpace(in.Template) == "":
		f.Add("template", "parentmsg.template.required")
	case utf8.RuneCountInString(in.Template) > MaxTemplate:
		f.Add("template", "parentmsg.field.too_long", "max", MaxTemplate)
	default:
		if u := Unknown(in.Template); len(u) > 0 {
			f.Add("template", "parentmsg.template.unknown", "names", braced(u))
		}
	}
	if in.StudentID < 1 {
		f.Add("student_id", "parentmsg.preview.student_required")
	}
	if err := f.Err(); err != nil {
		return err
	}
	out, err := Preview(r.Context(), h.db, in.Event, in.Template, in.StudentID, h.now())
	if err != nil {
		return err
	}
	if out.PhoneIssue == "" && out.Phone != "" {
		// settings.manage is not parent_messages.manage: the number shows
		// as the delivery log would show it to this caller.
		rd, err := h.reader(r.Context())
		if err != nil {
			return err
		}
		if !rd.FullNumbers {
			out.Phone = phone.Mask(out.Phone)
		}
	}
	return httpx.JSON(w, http.StatusOK, out)
}

// validDay reports whether s is a date written "YYYY-MM-DD".
func validDay(s string) bool {
	_, err := time.Parse(time.DateOnly, s)
	return err == nil
}

// parseFilter reads the delivery log's query, field by field.
func parseFilter(r *http.Request) (LogFilter, error) {
	q := r.URL.Query()
	f := apperr.Fields{}
	lf := LogFilter{Status: q.Get("status"), Event: q.Get("event"), From: q.Get("from"), To: q.Get("to"), Page: 1}
	if lf.Status != "" && !slices.Contains(Statuses, lf.Status) {
		f.Add("status", "parentmsg.list.status")
	}
	if lf.Event != "" && !slices.Contains(Events, lf.Event) {
		f.Add("event", "parentmsg.event.choose")
	}
	for _, p := range []struct {
		name string
		to   *int64
	}{{"student_id", &lf.StudentID}, {"class_id", &lf.ClassID}} {
		if v := q.Get(p.name); v != "" {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n < 1 {
				f.Add(p.name, "parentmsg.list.id")
			}
			*p.to = n
		}
	}
	for _, p := range []struct{ name, v string }{{"from", lf.From}, {"to", lf.To}} {
		if p.v != "" && !validDay(p.v) {
			f.Add(p.name, "parentmsg.list.date")
		}
	}
	if lf.From != "" && lf.To != "" && validDay(lf.From) && validDay(lf.To) && lf.To < lf.From {
		f.Add("to", "parentmsg.list.range")
	}
	if v := q.Get("page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > httpx.MaxPage {
			f.Add("page", "request.field_range", "min", 1, "max", httpx.MaxPage)
		}
		lf.Page = n
	}
	if len(f) > 0 {
		return lf, &apperr.Error{Code: apperr.Invalid, Msg: apperr.M("parentmsg.list.invalid"), Fields: f}
	}
	return lf, nil
}

func (h *Handler) list(w http.ResponseWriter, r *http.Request) error {
	lf, err := parseFilter(r)
	if err != nil {
		return err
	}
	rd, err := h.reader(r.Context())
	if err != nil {
		return err
	}
	out, err := h.store.List(r.Context(), rd, lf)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, out)
}

func (h *Handler) get(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	rd, err := h.reader(r.Context())
	if err != nil {
		return err
	}
	out, err := h.store.Get(r.Context(), rd, id)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, out)
}

func (h *Handler) retry(w http.ResponseWriter, r *http.Request) error {
	return h.change(w, r, h.store.Retry)
}

func (h *Handler) cancel(w http.ResponseWriter, r *http.Request) error {
	return h.change(w, r, h.store.Cancel)
}

func (h *Handler) change(w http.ResponseWriter, r *http.Request,
	fn func(context.Context, audit.Actor, Reader, int64) (api.ParentMessageDetail, error)) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	rd, err := h.reader(r.Context())
	if err != nil {
		return err
	}
	out, err := fn(r.Context(), h.auth.Actor(r), rd, id)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, out)
}

func (h *Handler) retryFailed(w http.ResponseWriter, r *http.Request) error {
	rd, err := h.reader(r.Context())
	if err != nil {
		return err
	}
	n, err := h.store.RetryFailed(r.Context(), h.auth.Actor(r), rd)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, map[string]int{"count": n})
}
