package portal

import (
	"net/http"
	"strconv"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/app"
	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/auth"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/letter"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// Handler serves the portal's routes and the staff's guardian routes.
type Handler struct {
	d   app.Deps
	svc *Service
}

// Mount registers the routes.
func Mount(r *httpx.Router, d app.Deps) {
	h := &Handler{d: d, svc: NewService(d.DB, d.Config.TrustProxy, d.Config.Secure())}
	h.Routes(r)
}

// Routes registers the routes. Every perm.Guardian route goes through the
// portal's own session check (g); staff routes name staff permissions.
func (h *Handler) Routes(r *httpx.Router) {
	g := h.svc.Guard
	r.Post("/portal/auth/request-code", perm.Public, h.requestCode)
	r.Post("/portal/auth/verify", perm.Public, h.verify)
	r.Post("/portal/register", perm.Public, h.register)
	r.Post("/portal/auth/student", perm.Public, h.studentSignIn)
	r.Get("/portal/config", perm.Public, h.config)
	r.Post("/portal/auth/logout", perm.Guardian, g(h.logout))
	r.Post("/portal/auth/logout-all", perm.Guardian, g(h.logoutAll))
	r.Get("/portal/me", perm.Guardian, g(h.me))
	r.Post("/portal/consent/withdraw", perm.Guardian, g(h.withdraw))
	r.Get("/portal/children", perm.Guardian, g(h.children))
	r.Get("/portal/children/{id}", perm.Guardian, g(h.child))
	r.Get("/portal/children/{id}/attendance", perm.Guardian, g(h.attendance))
	r.Get("/portal/letters/{id}/pdf", perm.Guardian, g(h.letterPDF))
	r.Post("/portal/letters/{id}/acknowledge", perm.Guardian, g(h.acknowledge))
	r.Get("/portal/messages", perm.Guardian, g(h.messages))
	r.Get("/portal/push/key", perm.Guardian, g(h.pushKey))
	r.Post("/portal/push-subscriptions", perm.Guardian, g(h.subscribe))
	r.Get("/portal/preferences", perm.Guardian, g(h.preferences))
	r.Put("/portal/preferences", perm.Guardian, g(h.savePreferences))
	r.Get("/portal/children/{id}/excuses", perm.Guardian, g(h.childExcuses))
	r.Post("/portal/children/{id}/excuses", perm.Guardian, g(h.submitExcuse))

	r.Get("/excuses", perm.AttendanceView, h.excuses)
	r.Post("/excuses/{id}/approve", perm.AttendanceRecord, h.approve)
	r.Post("/excuses/{id}/refuse", perm.AttendanceRecord, h.refuse)
	r.Get("/excuses/{id}/photos/{n}", perm.AttendanceView, h.photo)

	r.Get("/guardians", perm.GuardiansView, h.list)
	r.Post("/guardians", perm.GuardiansManage, h.add)
	r.Post("/guardians/{id}/activation-code", perm.GuardiansManage, h.activationCode)
	r.Post("/guardians/{id}/revoke-sessions", perm.GuardiansManage, h.revokeSessions)
	r.Post("/guardians/{id}/verify", perm.GuardiansManage, h.verifyLink)
	r.Get("/guardians/code-requests", perm.GuardiansView, h.codeRequests)
	r.Get("/guardians/sessions", perm.GuardiansView, h.sessions)
	r.Get("/guardians/registrations", perm.GuardiansView, h.registrations)
	r.Post("/students/{id}/portal-code", perm.GuardiansManage, h.studentCode)
	r.Post("/warning-letters/{id}/activation-pdf", perm.GuardiansManage, h.letterActivation)
	r.Get("/settings/portal", perm.SettingsView, h.getSettings)
	r.Put("/settings/portal", perm.SettingsManage, h.putSettings)
}

func (h *Handler) addr(r *http.Request) string { return httpx.ClientAddr(r, h.d.Config.TrustProxy) }

func (h *Handler) requestCode(w http.ResponseWriter, r *http.Request) error {
	var in api.PortalCodeRequest
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	out, err := h.svc.RequestCode(r.Context(), in.Phone, h.addr(r))
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusAccepted, out)
}

func (h *Handler) verify(w http.ResponseWriter, r *http.Request) error {
	var in api.PortalVerifyRequest
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	out, token, err := h.svc.Verify(r.Context(), in, h.addr(r), r.UserAgent())
	if err != nil {
		return err
	}
	http.SetCookie(w, h.svc.cookie(token, int(SessionMaxAge.Seconds())))
	return httpx.JSON(w, http.StatusOK, out)
}

func (h *Handler) logout(w http.ResponseWriter, r *http.Request) error {
	if err := h.svc.SignOut(r.Context(), From(r.Context()), false); err != nil {
		return err
	}
	http.SetCookie(w, h.svc.cookie("", -1))
	return httpx.NoContent(w)
}

func (h *Handler) logoutAll(w http.ResponseWriter, r *http.Request) error {
	if err := h.svc.SignOut(r.Context(), From(r.Context()), true); err != nil {
		return err
	}
	http.SetCookie(w, h.svc.cookie("", -1))
	return httpx.NoContent(w)
}

func (h *Handler) me(w http.ResponseWriter, r *http.Request) error {
	return httpx.JSON(w, http.StatusOK, From(r.Context()).Guardian)
}

func (h *Handler) withdraw(w http.ResponseWriter, r *http.Request) error {
	if err := h.svc.Withdraw(r.Context(), From(r.Context())); err != nil {
		return err
	}
	http.SetCookie(w, h.svc.cookie("", -1))
	return httpx.NoContent(w)
}

func (h *Handler) children(w http.ResponseWriter, r *http.Request) error {
	out, err := Children(r.Context(), h.d.DB, From(r.Context()).viewer(), h.svc.now())
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, map[string]any{"data": out})
}

func (h *Handler) child(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	out, err := Child(r.Context(), h.d.DB, From(r.Context()).viewer(), id, h.svc.now())
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, out)
}

func (h *Handler) attendance(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	out, err := Attendance(r.Context(), h.d.DB, From(r.Context()).viewer(), id, r.URL.Query().Get("month"), h.svc.now())
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, map[string]any{"data": out})
}

// letterPDF renders the letter as the school printed it, without printing
// it again: the guardian's download never numbers or moves a letter.
func (h *Handler) letterPDF(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	ctx := r.Context()
	if _, err := letterOf(ctx, h.d.DB, From(ctx).viewer(), id); err != nil {
		return err
	}
	p, err := letter.NewStore(h.d.DB).Printout(ctx, letter.Scope{}, id)
	if err != nil {
		return err
	}
	prof, err := school.LoadProfile(ctx, h.d.DB)
	if err != nil {
		return err
	}
	logo, err := school.LoadLogo(ctx, h.d.DB)
	if err != nil {
		return err
	}
	b, err := letter.Render(p, prof, logo)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/pdf")
	w.Header().Set("Content-Disposition", letter.ContentDisposition(letter.FileName(p.Level, p.StudentName, p.IssuedAt)))
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.Header().Set("Cache-Control", "private, no-store")
	w.WriteHeader(http.StatusOK)
	_, err = w.Write(b)
	return err
}

func (h *Handler) acknowledge(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	at, err := Acknowledge(r.Context(), h.d.DB, From(r.Context()), id)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, map[string]any{"letter_id": id, "acknowledged_at": at})
}

func (h *Handler) messages(w http.ResponseWriter, r *http.Request) error {
	out, err := Messages(r.Context(), h.d.DB, From(r.Context()))
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, map[string]any{"data": out})
}

func (h *Handler) childExcuses(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	out, err := ChildExcuses(r.Context(), h.d.DB, From(r.Context()).viewer(), id)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, map[string]any{"data": out})
}

func (h *Handler) submitExcuse(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	in, photos, err := readExcuse(r)
	if err != nil {
		return err
	}
	out, err := SubmitExcuse(r.Context(), h.d.DB, From(r.Context()), id, in, photos, h.svc.now())
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusCreated, out)
}

func (h *Handler) excuses(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	f := ExcuseFilter{Status: q.Get("status"), Homeroom: auth.HomeroomID(r.Context())}
	if f.Status != "" && f.Status != api.ExcusePending && f.Status != api.ExcuseApproved && f.Status != api.ExcuseRefused {
		return apperr.Fields{"status": apperr.M("portal.excuse.status")}.Err()
	}
	if v := q.Get("class_id"); v != "" {
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil || id <= 0 {
			return apperr.Fields{"class_id": apperr.M("portal.class_invalid")}.Err()
		}
		f.ClassID = id
	}
	out, err := ListExcuses(r.Context(), h.d.DB, f)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, map[string]any{"data": out})
}

func (h *Handler) approve(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	out, err := ApproveExcuse(r.Context(), h.d.DB, h.d.Auth.Actor(r), auth.HomeroomID(r.Context()), id)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, out)
}

func (h *Handler) refuse(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	var in api.ExcuseRefusal
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	out, err := RefuseExcuse(r.Context(), h.d.DB, h.d.Auth.Actor(r), auth.HomeroomID(r.Context()), id, in.Reason)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, out)
}

func (h *Handler) photo(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	n, err := httpx.IDParam(r, "n")
	if err != nil {
		return err
	}
	b, err := ExcusePhoto(r.Context(), h.d.DB, auth.HomeroomID(r.Context()), id, int(min(n, 100)), r.URL.Query().Get("thumbnail") == "1")
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "image/jpeg")
	w.Header().Set("Cache-Control", "private, max-age=3600")
	_, err = w.Write(b)
	return err
}

func (h *Handler) register(w http.ResponseWriter, r *http.Request) error {
	var in api.PortalRegistration
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	out, err := h.svc.Register(r.Context(), in, h.addr(r))
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusAccepted, out)
}

func (h *Handler) verifyLink(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	var in api.GuardianVerification
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	if err := Verify(r.Context(), h.d.DB, h.d.Auth.Actor(r), auth.HomeroomID(r.Context()), id, in); err != nil {
		return err
	}
	return httpx.NoContent(w)
}

func (h *Handler) codeRequests(w http.ResponseWriter, r *http.Request) error {
	out, err := CodeRequests(r.Context(), h.d.DB, auth.HomeroomID(r.Context()))
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, map[string]any{"data": out})
}

func (h *Handler) sessions(w http.ResponseWriter, r *http.Request) error {
	out, err := Sessions(r.Context(), h.d.DB, auth.HomeroomID(r.Context()), h.svc.now())
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, map[string]any{"data": out})
}

func (h *Handler) registrations(w http.ResponseWriter, r *http.Request) error {
	out, err := Registrations(r.Context(), h.d.DB, auth.HomeroomID(r.Context()))
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, map[string]any{"data": out})
}

func (h *Handler) studentSignIn(w http.ResponseWriter, r *http.Request) error {
	var in api.PortalStudentSignIn
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	out, token, err := h.svc.StudentSignIn(r.Context(), in, h.addr(r), r.UserAgent())
	if err != nil {
		return err
	}
	http.SetCookie(w, h.svc.cookie(token, int(SessionMaxAge.Seconds())))
	return httpx.JSON(w, http.StatusOK, out)
}

// config tells the sign-in screen what the school offers; nothing else.
func (h *Handler) config(w http.ResponseWriter, r *http.Request) error {
	set, err := LoadSettings(r.Context(), h.d.DB)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, set)
}

func (h *Handler) studentCode(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	out, err := h.svc.IssueStudentCode(r.Context(), h.d.Auth.Actor(r), auth.HomeroomID(r.Context()), id)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusCreated, out)
}

func (h *Handler) getSettings(w http.ResponseWriter, r *http.Request) error {
	set, err := LoadSettings(r.Context(), h.d.DB)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, set)
}

func (h *Handler) putSettings(w http.ResponseWriter, r *http.Request) error {
	var in api.PortalSettings
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	if err := SaveSettings(r.Context(), h.d.DB, h.d.Auth.Actor(r), in); err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, in)
}

func (h *Handler) pushKey(w http.ResponseWriter, r *http.Request) error {
	out, err := PublicPushKey(r.Context(), h.d.DB)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, out)
}

func (h *Handler) subscribe(w http.ResponseWriter, r *http.Request) error {
	var in api.PushSubscription
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	if err := Subscribe(r.Context(), h.d.DB, From(r.Context()), in); err != nil {
		return err
	}
	return httpx.NoContent(w)
}

func (h *Handler) list(w http.ResponseWriter, r *http.Request) error {
	f := GuardianFilter{Homeroom: auth.HomeroomID(r.Context()), Pending: r.URL.Query().Get("status") == api.GuardianLinkPending}
	if v := r.URL.Query().Get("student_id"); v != "" {
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil || id <= 0 {
			return apperr.Fields{"student_id": apperr.M("portal.student_required")}.Err()
		}
		f.StudentID = id
	}
	// Students without a guardian get theirs from the parent contact first.
	if err := pg.InTx(r.Context(), h.d.DB, func(tx *sqlx.Tx) error { return SeedFromStudents(r.Context(), tx) }); err != nil {
		return err
	}
	out, err := ListGuardians(r.Context(), h.d.DB, f)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, map[string]any{"data": out})
}

func (h *Handler) add(w http.ResponseWriter, r *http.Request) error {
	var in api.GuardianInput
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	out, err := AddGuardian(r.Context(), h.d.DB, h.d.Auth.Actor(r), auth.HomeroomID(r.Context()), in)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusCreated, out)
}

func (h *Handler) activationCode(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	out, err := h.svc.IssueActivationCode(r.Context(), h.d.Auth.Actor(r), auth.HomeroomID(r.Context()), id)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusCreated, out)
}

func (h *Handler) revokeSessions(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	if err := RevokeSessions(r.Context(), h.d.DB, h.d.Auth.Actor(r), auth.HomeroomID(r.Context()), id); err != nil {
		return err
	}
	return httpx.NoContent(w)
}

func (h *Handler) preferences(w http.ResponseWriter, r *http.Request) error {
	out, err := Preferences(r.Context(), h.d.DB, From(r.Context()))
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, out)
}

func (h *Handler) savePreferences(w http.ResponseWriter, r *http.Request) error {
	var in api.NotificationPrefsInput
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	out, err := SavePreferences(r.Context(), h.d.DB, From(r.Context()), in)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, out)
}
