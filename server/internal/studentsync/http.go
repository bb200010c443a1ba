package studentsync

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/auth"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// Handler serves the student-affairs sync routes.
type Handler struct {
	db     *sqlx.DB
	syncer *Syncer
	auth   *auth.Service
}

// Routes registers the routes on r.
func (h *Handler) Routes(r *httpx.Router) {
	r.Post("/students/sync", perm.StudentsSync, h.startSync)
	r.Get("/students/sync/status", perm.StudentsSync, h.syncStatus)
	r.Get("/students/sync/latest", perm.StudentsSync, h.latestSync)
	r.Get("/students/sync/{id}", perm.StudentsSync, h.getSync)
	r.Get("/students/syncs", perm.StudentsSync, h.listSyncs)
	r.Get("/settings/student-affairs", perm.SettingsManage, h.getStudentAffairs)
	r.Put("/settings/student-affairs", perm.SettingsManage, h.putStudentAffairs)
	r.Post("/settings/student-affairs/test", perm.SettingsManage, h.testStudentAffairs)
}

func (h *Handler) startSync(w http.ResponseWriter, r *http.Request) error {
	run, err := h.syncer.Start(r.Context(), h.auth.Actor(r), TriggerManual)
	if err != nil {
		return err
	}
	w.Header().Set("Location", "/api/v1/students/sync/"+strconv.FormatInt(run.ID, 10))
	return httpx.JSON(w, http.StatusAccepted, run)
}

func (h *Handler) getSync(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	run, err := GetSync(r.Context(), h.db, id)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, run)
}

// SyncStatus tells the Students screen whether a sync can run, without
// revealing the connection (its URL and token are for settings.manage).
type SyncStatus struct {
	Configured bool   `json:"configured"`
	Schedule   string `json:"schedule"` // daily HH:MM (Asia/Jakarta), or ""
}

func (h *Handler) syncStatus(w http.ResponseWriter, r *http.Request) error {
	cfg, err := LoadStudentAffairs(r.Context(), h.db)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, SyncStatus{Configured: cfg.URL != "", Schedule: cfg.Schedule})
}

func (h *Handler) latestSync(w http.ResponseWriter, r *http.Request) error {
	run, err := LatestSync(r.Context(), h.db)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, run)
}

func (h *Handler) listSyncs(w http.ResponseWriter, r *http.Request) error {
	p, err := httpx.PageParams(r)
	if err != nil {
		return err
	}
	list, total, err := ListSyncs(r.Context(), h.db, p.PerPage, p.Offset())
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, api.Page[SyncRun]{Data: list, Meta: p.Meta(total)})
}

func (h *Handler) getStudentAffairs(w http.ResponseWriter, r *http.Request) error {
	s, err := LoadStudentAffairs(r.Context(), h.db)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, s)
}

func (h *Handler) putStudentAffairs(w http.ResponseWriter, r *http.Request) error {
	var in StudentAffairsInput
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	s, err := SaveStudentAffairs(r.Context(), h.db, h.auth.Actor(r), in)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, s)
}

// testStudentAffairs tests the stored connection, or the URL and token in
// the body (so the screen can test before saving; an absent token means the
// stored one).
func (h *Handler) testStudentAffairs(w http.ResponseWriter, r *http.Request) error {
	cfg, err := LoadStudentAffairs(r.Context(), h.db)
	if err != nil {
		return err
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return apperr.New(apperr.BadRequest, "request.unreadable")
	}
	if len(bytes.TrimSpace(body)) > 0 {
		var in struct {
			URL   *string `json:"url"`
			Token *string `json:"token"`
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		if err := httpx.DecodeJSON(r, &in); err != nil {
			return err
		}
		if in.URL != nil {
			cfg.URL = strings.TrimSpace(*in.URL)
		}
		if in.Token != nil {
			cfg.Token = strings.TrimSpace(*in.Token)
		}
	}
	ctx, cancel := context.WithTimeout(r.Context(), RequestTimeout+5*time.Second)
	defer cancel()
	return httpx.JSON(w, http.StatusOK, TestConnection(ctx, cfg, h.syncer.allowLocal))
}
