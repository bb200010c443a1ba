package cases

import (
	"context"
	"net/http"
	"strconv"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/app"
	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/auth"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/violation"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// Handler serves the case routes.
type Handler struct {
	store *Store
	auth  *auth.Service
	// trustProxy takes the public routes' client address from
	// X-Forwarded-For (rate limits only; never stored with a report).
	trustProxy bool
}

// Mount registers the case routes.
func Mount(r *httpx.Router, d app.Deps) {
	(&Handler{store: NewStore(d.DB), auth: d.Auth, trustProxy: d.Config.TrustProxy}).Routes(r)
}

// Routes registers the routes.
func (h *Handler) Routes(r *httpx.Router) {
	r.Get("/cases", perm.CasesView, h.list)
	r.Post("/cases", perm.CasesManage, h.create)
	r.Get("/cases/counts", perm.CasesViewCounts, h.counts)
	r.Get("/cases/team-options", perm.CasesManage, h.teamOptions)
	r.Get("/cases/{id}", perm.CasesView, h.get)
	r.Patch("/cases/{id}", perm.CasesManage, h.update)
	r.Post("/cases/{id}/participants", perm.CasesManage, h.addParticipant)
	r.Post("/cases/{id}/stage", perm.CasesManage, h.moveStage)
	r.Get("/cases/{id}/access-log", perm.CasesAccessLog, h.accessLog)
	r.Post("/cases/{id}/sessions", perm.CasesManage, h.createSession)
	r.Post("/cases/{id}/agreements", perm.CasesManage, h.createAgreement)
	r.Patch("/cases/{id}/agreements/{agreement_id}", perm.CasesManage, h.checkAgreement)
	r.Post("/cases/{id}/recovery-actions", perm.CasesManage, h.createRecovery)
	r.Post("/cases/{id}/violations", perm.CasesManage, h.recordViolation)
	r.Get("/cases/{id}/referral.pdf", perm.CasesManage, h.referralPDF)
	r.Post("/cases/{id}/referrals", perm.CasesManage, h.recordReferral)
	r.Get("/cases/{id}/report.pdf", perm.CasesView, h.reportPDF)
	r.Post("/cases/{id}/report-messages", perm.CasesManage, h.reply)
	r.Get("/cases/{id}/report-photos/{photo_id}", perm.CasesView, h.photo(false))
	r.Get("/cases/{id}/report-photos/{photo_id}/thumbnail", perm.CasesView, h.photo(true))
	r.Get("/public/reports/categories", perm.Public, h.publicCategories)
	r.Post("/public/reports", perm.Public, h.fileReport)
	r.Post("/public/reports/lookup", perm.Public, h.lookup)
	r.Post("/public/reports/messages", perm.Public, h.reporterMessage)
	r.Get("/case-categories", perm.Authenticated, h.categories)
	r.Post("/case-categories", perm.CasesManage, h.createCategory)
	r.Patch("/case-categories/{id}", perm.CasesManage, h.updateCategory)
	r.Get("/settings/cases", perm.SettingsView, h.getSettings)
	r.Put("/settings/cases", perm.SettingsManage, h.putSettings)
}

// reader builds the caller's Reader.
func (h *Handler) reader(r *http.Request) (Reader, error) { return ReaderOf(r.Context(), h.auth) }

// ReaderOf is the signed-in caller as a Reader; Manage from the role's
// permissions.
func ReaderOf(ctx context.Context, a *auth.Service) (Reader, error) {
	u := auth.UserFrom(ctx)
	manage, err := a.Can(ctx, u.Role, perm.CasesManage)
	if err != nil {
		return Reader{}, err
	}
	return Reader{UserID: u.ID, Name: u.Name, Admin: u.Role == perm.Admin, Manage: manage, HomeroomID: auth.HomeroomID(ctx)}, nil
}

// MaxOverdue is how many overdue cases the early warnings list.
const MaxOverdue = 20

// Overdue is what the early warnings show of cases: the cases whose
// current stage is past its due date that the caller may see (with
// cases.view; as the list shows them, each read logged), and with
// cases.view_counts how many cases are overdue school-wide (nil without).
func Overdue(ctx context.Context, db *sqlx.DB, a *auth.Service) ([]api.CaseSummary, *int, error) {
	role := auth.UserFrom(ctx).Role
	list := []api.CaseSummary{}
	var count *int
	s := NewStore(db)
	if ok, err := a.Can(ctx, role, perm.CasesView); err != nil {
		return nil, nil, err
	} else if ok {
		rd, err := ReaderOf(ctx, a)
		if err != nil {
			return nil, nil, err
		}
		if list, _, err = s.List(ctx, rd, ListFilter{Overdue: true, Limit: MaxOverdue}); err != nil {
			return nil, nil, err
		}
	}
	if ok, err := a.Can(ctx, role, perm.CasesViewCounts); err != nil {
		return nil, nil, err
	} else if ok {
		c, err := s.Counts(ctx)
		if err != nil {
			return nil, nil, err
		}
		count = &c.Overdue
	}
	return list, count, nil
}

func (h *Handler) list(w http.ResponseWriter, r *http.Request) error {
	rd, err := h.reader(r)
	if err != nil {
		return err
	}
	p, err := httpx.PageParams(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	f := ListFilter{Stage: q.Get("stage"), Overdue: q.Get("overdue") == "true", Limit: p.PerPage, Offset: p.Offset()}
	fields := apperr.Fields{}
	if f.Stage != "" && nextStage(f.Stage) == "" && f.Stage != api.CaseStageClosed {
		fields.Add("stage", "cases.stage.choose")
	}
	if v := q.Get("category_id"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			fields.Add("category_id", "cases.category.not_found")
		}
		f.CategoryID = n
	}
	if len(fields) > 0 {
		return invalid(fields)
	}
	data, total, err := h.store.List(r.Context(), rd, f)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, api.Page[api.CaseSummary]{Data: data, Meta: p.Meta(total)})
}

func (h *Handler) create(w http.ResponseWriter, r *http.Request) error {
	rd, err := h.reader(r)
	if err != nil {
		return err
	}
	var in api.CreateCaseRequest
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	c, err := h.store.Create(r.Context(), h.auth.Actor(r), rd, in)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusCreated, c)
}

func (h *Handler) get(w http.ResponseWriter, r *http.Request) error {
	rd, err := h.reader(r)
	if err != nil {
		return err
	}
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	c, err := h.store.Get(r.Context(), rd, id, "view")
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, c)
}

func (h *Handler) update(w http.ResponseWriter, r *http.Request) error {
	rd, err := h.reader(r)
	if err != nil {
		return err
	}
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	var in api.UpdateCaseRequest
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	c, err := h.store.Update(r.Context(), h.auth.Actor(r), rd, id, in)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, c)
}

func (h *Handler) addParticipant(w http.ResponseWriter, r *http.Request) error {
	rd, err := h.reader(r)
	if err != nil {
		return err
	}
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	var in api.CaseParticipantInput
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	c, err := h.store.AddParticipant(r.Context(), h.auth.Actor(r), rd, id, in)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusCreated, c)
}

func (h *Handler) moveStage(w http.ResponseWriter, r *http.Request) error {
	rd, err := h.reader(r)
	if err != nil {
		return err
	}
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	var in api.CaseStageRequest
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	c, err := h.store.MoveStage(r.Context(), h.auth.Actor(r), rd, id, in)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, c)
}

func (h *Handler) accessLog(w http.ResponseWriter, r *http.Request) error {
	rd, err := h.reader(r)
	if err != nil {
		return err
	}
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	out, err := h.store.AccessLog(r.Context(), rd, id)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, out)
}

func (h *Handler) counts(w http.ResponseWriter, r *http.Request) error {
	out, err := h.store.Counts(r.Context())
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, out)
}

func (h *Handler) categories(w http.ResponseWriter, r *http.Request) error {
	out, err := h.store.Categories(r.Context())
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, out)
}

func (h *Handler) createCategory(w http.ResponseWriter, r *http.Request) error {
	var in api.CaseCategoryInput
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	out, err := h.store.SaveCategory(r.Context(), h.auth.Actor(r), 0, in)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusCreated, out)
}

func (h *Handler) updateCategory(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	var in api.CaseCategoryInput
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	out, err := h.store.SaveCategory(r.Context(), h.auth.Actor(r), id, in)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, out)
}

func (h *Handler) getSettings(w http.ResponseWriter, r *http.Request) error {
	out, err := Settings(r.Context(), h.store.db)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, out)
}

func (h *Handler) putSettings(w http.ResponseWriter, r *http.Request) error {
	var in api.CaseSettings
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	out, err := h.store.SaveSettings(r.Context(), h.auth.Actor(r), in)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, out)
}

func (h *Handler) teamOptions(w http.ResponseWriter, r *http.Request) error {
	out, err := h.store.TeamOptions(r.Context())
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, out)
}

// change decodes a change of case {id} into in and runs fn.
func change[T any](h *Handler, w http.ResponseWriter, r *http.Request, status int, fn func(Reader, int64, T) (any, error)) error {
	rd, err := h.reader(r)
	if err != nil {
		return err
	}
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	var in T
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	out, err := fn(rd, id, in)
	if err != nil {
		return err
	}
	return httpx.JSON(w, status, out)
}

func (h *Handler) createSession(w http.ResponseWriter, r *http.Request) error {
	return change(h, w, r, http.StatusCreated, func(rd Reader, id int64, in api.CreateCaseSessionRequest) (any, error) {
		return h.store.CreateSession(r.Context(), h.auth.Actor(r), rd, id, in)
	})
}

func (h *Handler) createAgreement(w http.ResponseWriter, r *http.Request) error {
	return change(h, w, r, http.StatusCreated, func(rd Reader, id int64, in api.CreateCaseAgreementRequest) (any, error) {
		return h.store.CreateAgreement(r.Context(), h.auth.Actor(r), rd, id, in)
	})
}

func (h *Handler) checkAgreement(w http.ResponseWriter, r *http.Request) error {
	aid, err := httpx.IDParam(r, "agreement_id")
	if err != nil {
		return err
	}
	return change(h, w, r, http.StatusOK, func(rd Reader, id int64, in api.UpdateCaseAgreementRequest) (any, error) {
		return h.store.CheckAgreement(r.Context(), h.auth.Actor(r), rd, id, aid, in)
	})
}

func (h *Handler) createRecovery(w http.ResponseWriter, r *http.Request) error {
	return change(h, w, r, http.StatusCreated, func(rd Reader, id int64, in api.CreateCaseRecoveryRequest) (any, error) {
		return h.store.CreateRecovery(r.Context(), h.auth.Actor(r), rd, id, in)
	})
}

// recordViolation needs violations.record as well as cases.manage: it is
// a recording like POST /violations.
func (h *Handler) recordViolation(w http.ResponseWriter, r *http.Request) error {
	u := auth.UserFrom(r.Context())
	ok, err := h.auth.Can(r.Context(), u.Role, perm.ViolationsRecord)
	if err != nil {
		return err
	}
	if !ok {
		return auth.Denied(perm.ViolationsRecord)
	}
	return change(h, w, r, http.StatusCreated, func(rd Reader, id int64, req api.CreateViolationsRequest) (any, error) {
		in := violation.Record{
			StudentID: req.StudentID, Location: req.Location, Description: req.Description, Sanction: req.Sanction,
			Source: api.SourceManual, RecordedByName: u.Name, Scope: violation.ScopeOf(r.Context()),
		}
		if u.ID != 0 {
			uid := u.ID
			in.RecordedBy = &uid
		}
		if req.OccurredAt != nil {
			in.OccurredAt = *req.OccurredAt
		}
		for _, t := range req.TypeIDs {
			in.Items = append(in.Items, violation.Item{TypeID: t})
		}
		f := apperr.Fields{}
		in.Validate(f)
		if len(f) > 0 {
			return nil, &apperr.Error{Code: apperr.Invalid, Msg: apperr.M("violation.invalid"), Fields: f}
		}
		return h.store.RecordViolation(r.Context(), h.auth.Actor(r), rd, id, in)
	})
}

func (h *Handler) recordReferral(w http.ResponseWriter, r *http.Request) error {
	return change(h, w, r, http.StatusCreated, func(rd Reader, id int64, in api.CaseReferralInput) (any, error) {
		return h.store.RecordReferral(r.Context(), h.auth.Actor(r), rd, id, in)
	})
}

func (h *Handler) referralPDF(w http.ResponseWriter, r *http.Request) error {
	rd, err := h.reader(r)
	if err != nil {
		return err
	}
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	b, err := h.store.ReferralPDF(r.Context(), h.auth.Actor(r), rd, id, r.URL.Query().Get("include_identities") == "true")
	if err != nil {
		return err
	}
	return writePDF(w, "kasus-"+strconv.FormatInt(id, 10)+"-rujukan.pdf", b)
}

func (h *Handler) reportPDF(w http.ResponseWriter, r *http.Request) error {
	rd, err := h.reader(r)
	if err != nil {
		return err
	}
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	b, err := h.store.ReportPDF(r.Context(), rd, id)
	if err != nil {
		return err
	}
	return writePDF(w, "kasus-"+strconv.FormatInt(id, 10)+"-laporan.pdf", b)
}

// writePDF answers b as a PDF download named name (ASCII).
func writePDF(w http.ResponseWriter, name string, b []byte) error {
	w.Header().Set("Content-Type", "application/pdf")
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	// A case names children: no shared cache keeps it.
	w.Header().Set("Cache-Control", "private, no-store")
	w.WriteHeader(http.StatusOK)
	_, err := w.Write(b)
	return err
}

func (h *Handler) reply(w http.ResponseWriter, r *http.Request) error {
	return change(h, w, r, http.StatusCreated, func(rd Reader, id int64, in api.CaseReplyInput) (any, error) {
		return h.store.StaffReply(r.Context(), h.auth.Actor(r), rd, id, in)
	})
}

func (h *Handler) photo(thumbnail bool) httpx.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		rd, err := h.reader(r)
		if err != nil {
			return err
		}
		id, err := httpx.IDParam(r, "id")
		if err != nil {
			return err
		}
		pid, err := httpx.IDParam(r, "photo_id")
		if err != nil {
			return err
		}
		b, err := h.store.Photo(r.Context(), rd, id, pid, thumbnail)
		if err != nil {
			return err
		}
		w.Header().Set("Content-Type", http.DetectContentType(b))
		w.Header().Set("Cache-Control", "private, no-store")
		_, err = w.Write(b)
		return err
	}
}

// public marks a public answer: never cached, never indexed.
func public(w http.ResponseWriter) {
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Robots-Tag", "noindex")
}

func (h *Handler) publicCategories(w http.ResponseWriter, r *http.Request) error {
	out, err := h.store.PublicCategories(r.Context())
	if err != nil {
		return err
	}
	public(w)
	return httpx.JSON(w, http.StatusOK, out)
}

func (h *Handler) fileReport(w http.ResponseWriter, r *http.Request) error {
	if err := allow(r.Context(), h.store.db, "report", httpx.ClientAddr(r, h.trustProxy), ReportLimit); err != nil {
		return err
	}
	in, photos, err := readReport(r)
	if err != nil {
		return err
	}
	out, err := h.store.FileReport(r.Context(), in, photos)
	if err != nil {
		return err
	}
	public(w)
	return httpx.JSON(w, http.StatusCreated, out)
}

func (h *Handler) lookup(w http.ResponseWriter, r *http.Request) error {
	if err := allow(r.Context(), h.store.db, "lookup", httpx.ClientAddr(r, h.trustProxy), LookupLimit); err != nil {
		return err
	}
	var in api.PublicReportLookup
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	out, err := h.store.Lookup(r.Context(), in)
	if err != nil {
		return err
	}
	public(w)
	return httpx.JSON(w, http.StatusOK, out)
}

func (h *Handler) reporterMessage(w http.ResponseWriter, r *http.Request) error {
	if err := allow(r.Context(), h.store.db, "lookup", httpx.ClientAddr(r, h.trustProxy), LookupLimit); err != nil {
		return err
	}
	var in api.PublicReportMessageInput
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	out, err := h.store.ReporterMessage(r.Context(), in)
	if err != nil {
		return err
	}
	public(w)
	return httpx.JSON(w, http.StatusCreated, out)
}
