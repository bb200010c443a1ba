package backup

import (
	"errors"
	"net/http"
	"strings"

	"github.com/tatib/tatib/server/internal/app"
	"github.com/tatib/tatib/server/internal/auth"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/locale"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// ListLimit is how many records GET /admin/backups shows.
const ListLimit = 50

// Handler serves the backups routes.
type Handler struct {
	svc  *Service
	auth *auth.Service
	deps app.Deps
}

// Mount registers the routes.
func Mount(r *httpx.Router, d app.Deps) {
	h := &Handler{svc: &Service{DB: d.DB, URL: d.Config.DirectURL()}, auth: d.Auth, deps: d}
	h.Routes(r)
}

// Routes registers the routes.
func (h *Handler) Routes(r *httpx.Router) {
	r.Get("/admin/backups", perm.DataBackup, h.list)
	r.Post("/admin/backups", perm.DataBackup, h.create)
}

// list answers GET /admin/backups: the records, newest first, and which
// pg_dump the server would use (or what to install).
func (h *Handler) list(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	rows, err := h.svc.List(ctx, ListLimit)
	if err != nil {
		return err
	}
	tools, err := Find(ctx, h.svc.DB, h.svc.getenv, "pg_dump")
	if err != nil {
		return err
	}
	out := api.BackupList{Data: rows, PgDump: tools.Tool.Path, PgDumpVersion: tools.Tool.Version}
	if !tools.Usable() {
		if tools.Older.Path != "" {
			out.Install = locale.T(ctx, "backup.install_older", "found", tools.Older.Version, "path", tools.Older.Path, "major", tools.ServerMajor)
		} else {
			out.Install = locale.T(ctx, "backup.install", "major", tools.ServerMajor)
		}
	}
	return httpx.JSON(w, http.StatusOK, out)
}

// create answers POST /admin/backups with the dump itself. An error before
// the first byte is an ordinary error answer; after it, the download is
// broken off (the browser reports it failed) and the list says why.
func (h *Handler) create(w http.ResponseWriter, r *http.Request) error {
	via := ViaBrowser
	if strings.HasPrefix(r.Header.Get("User-Agent"), "Tatib-Desktop/") {
		via = ViaDesktop
	}
	_, err := h.svc.Dump(r.Context(), w, DumpOptions{Via: via, Actor: h.auth.Actor(r), Begin: func(b api.Backup) {
		hd := w.Header()
		hd.Set("Content-Type", "application/octet-stream")
		hd.Set("Content-Disposition", `attachment; filename="`+b.Filename+`"`)
		hd.Set("Cache-Control", "no-store")
		hd.Set("X-Tatib-Backup-Id", itoa(b.ID))
		w.WriteHeader(http.StatusOK)
	}})
	if errors.Is(err, ErrStreamFailed) {
		h.deps.Log.Error("backup failed while streaming", "err", err, "request_id", httpx.RequestID(r.Context()))
		// Without the final chunk the client sees a broken download, not a
		// complete-looking file.
		panic(http.ErrAbortHandler)
	}
	return err
}
