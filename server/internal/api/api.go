// Package api assembles Tatib's HTTP server: middleware, every feature's
// routes under /api/v1, the OpenAPI document, health checks and the front
// end.
package api

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/tatib/tatib/server/internal/achievement"
	"github.com/tatib/tatib/server/internal/app"
	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/attendance"
	"github.com/tatib/tatib/server/internal/attendancerecap"
	"github.com/tatib/tatib/server/internal/backup"
	"github.com/tatib/tatib/server/internal/cases"
	"github.com/tatib/tatib/server/internal/config"
	"github.com/tatib/tatib/server/internal/dashboard"
	"github.com/tatib/tatib/server/internal/datareset"
	"github.com/tatib/tatib/server/internal/earlywarning"
	"github.com/tatib/tatib/server/internal/face"
	"github.com/tatib/tatib/server/internal/followup"
	"github.com/tatib/tatib/server/internal/handling"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/journal"
	"github.com/tatib/tatib/server/internal/letter"
	"github.com/tatib/tatib/server/internal/locale"
	"github.com/tatib/tatib/server/internal/notify"
	"github.com/tatib/tatib/server/internal/parentmsg"
	"github.com/tatib/tatib/server/internal/pointspolicy"
	"github.com/tatib/tatib/server/internal/portal"
	"github.com/tatib/tatib/server/internal/report"
	"github.com/tatib/tatib/server/internal/roster"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/server/internal/studentsync"
	"github.com/tatib/tatib/server/internal/users"
	"github.com/tatib/tatib/server/internal/violation"
	"github.com/tatib/tatib/server/internal/violationtype"
	"github.com/tatib/tatib/server/internal/web"
	"github.com/tatib/tatib/shared/perm"
)

// Prefix is the versioned API root.
const Prefix = "/api/v1"

// Deps are what the server is built from.
type Deps = app.Deps

// Server is the assembled HTTP handler with its route table.
type Server struct {
	http.Handler
	Router *httpx.Router
	// Hub is the notifications' hub Mount gave the routes; the server
	// runs it (Hub.Run) with its other background loops.
	Hub *notify.Hub
	// Syncer is the student sync the routes start; the server runs its
	// schedule (Syncer.RunSchedule).
	Syncer *studentsync.Syncer
}

// New builds the server.
func New(d Deps) *Server {
	root := chi.NewRouter()
	root.Use(httpx.Logging(d.Log), httpx.SecurityHeaders(d.Config.BaseURL), locale.Middleware, recoverer(d.Log))

	root.Get("/healthz", func(w http.ResponseWriter, r *http.Request) {
		_ = httpx.JSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	root.Get("/readyz", func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		if err := d.DB.PingContext(ctx); err != nil {
			httpx.Error(w, r, apperr.New(apperr.Unavailable, "server.database_unavailable"))
			return
		}
		_ = httpx.JSON(w, http.StatusOK, map[string]string{"status": "ready"})
	})

	var router *httpx.Router
	// Features with state of their own are built once here, for their
	// routes and for the server's background loops.
	hub := notify.New(d)
	syncer := studentsync.NewSyncer(d.DB, d.Log, journal.AfterSync)
	root.Route(Prefix, func(ar chi.Router) {
		upload := d.Config.MaxUploadBytes
		if upload == 0 {
			upload = config.DefaultMaxUploadBytes
		}
		// The violation form carries up to five phone photos.
		photos := httpx.UploadLimit{Method: http.MethodPost, Path: Prefix + "/violations", Bytes: violation.MaxRequestBytes}
		achievementPhotos := httpx.UploadLimit{Method: http.MethodPost, Path: Prefix + "/achievements", Bytes: achievement.MaxRequestBytes}
		// A journal push carries a whole school day and answers its own 413.
		journalPush := httpx.UploadLimit{Method: http.MethodPost, Path: Prefix + journal.SyncPath, Bytes: journal.MaxRequestBytes, Own: true, ReadTimeout: 2 * time.Minute}
		// An anonymous report carries up to three photos.
		report := httpx.UploadLimit{Method: http.MethodPost, Path: Prefix + "/public/reports", Bytes: cases.MaxReportBytes}
		ar.Use(httpx.CleanText, httpx.LimitBody(d.Config.MaxBodyBytes, upload, photos, achievementPhotos, journalPush, report), d.Auth.Middleware)
		router = httpx.NewRouter(ar, Prefix, d.Auth.Guard)
		router.Get("/openapi.json", perm.Public, serveOpenAPI)
		mount(router, d, hub, syncer)
		ar.NotFound(func(w http.ResponseWriter, r *http.Request) {
			httpx.Error(w, r, apperr.New(apperr.NotFound, "request.route_not_found", "path", r.URL.Path))
		})
		ar.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
			allow := allowed(ar, r)
			w.Header().Set("Allow", strings.Join(allow, ", "))
			httpx.Error(w, r, apperr.New(apperr.MethodNotAllowed, "request.method_not_allowed",
				"method", httpx.CleanHeader(r.Method, 20), "path", r.URL.Path, "allowed", strings.Join(allow, ", ")))
		})
	})
	root.Handle("/api/*", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		httpx.Error(w, r, apperr.New(apperr.NotFound, "request.route_not_found", "path", r.URL.Path))
	}))
	// The public page a letter's QR code opens: no sign-in, no front end.
	verify := letter.VerifyPage(d)
	root.Get("/verifikasi", verify.ServeHTTP)
	root.Get(letter.VerifyPath+"{code}", verify.ServeHTTP)
	root.Handle("/*", web.Handler())
	return &Server{Handler: root, Router: router, Hub: hub, Syncer: syncer}
}

// mount registers every feature's routes. Features are added here, one
// line each, one package per URL prefix. Prefixes shared on purpose:
//   - /students: roster serves the students themselves (/students,
//     /students/{id}); studentsync /students/sync* and /students/syncs; a
//     student's sub-resource belongs to the feature it names (face,
//     violation's points and years, achievement, attendancerecap's
//     calendar, portal's code);
//   - /violations: violation serves the violations (and their list),
//     handling a violation's handling (/handlings, /resolve, /reopen);
//   - /settings: each feature serves its own settings page
//     (/settings/school in school, /settings/student-affairs in
//     studentsync, /settings/face in face, and so on).
func mount(r *httpx.Router, d Deps, hub *notify.Hub, syncer *studentsync.Syncer) {
	d.Auth.Routes(r)
	users.NewHandler(users.NewStore(d.DB), d.Auth).Routes(r)
	auditRoutes(r, d)
	school.Mount(r, d)
	roster.Mount(r, d)
	studentsync.Mount(r, d, syncer)
	violationtype.Mount(r, d)
	violation.Mount(r, d)
	achievement.Mount(r, d)
	pointspolicy.Mount(r, d)
	handling.Mount(r, d)
	letter.Mount(r, d)
	journal.Mount(r, d)
	attendance.Mount(r, d)
	attendancerecap.Mount(r, d)
	notify.Mount(r, d, hub)
	report.Mount(r, d)
	earlywarning.Mount(r, d)
	dashboard.Mount(r, d)
	followup.Mount(r, d)
	parentmsg.Mount(r, d)
	face.Mount(r, d)
	datareset.Mount(r, d)
	backup.Mount(r, d)
	cases.Mount(r, d)
	portal.Mount(r, d)
}

// allowed lists the methods the route of r's path serves, for Allow.
func allowed(routes chi.Routes, r *http.Request) []string {
	path := r.URL.RawPath
	if path == "" {
		path = r.URL.Path
	}
	if rctx := chi.RouteContext(r.Context()); rctx != nil && rctx.RoutePath != "" {
		path = rctx.RoutePath
	} else {
		path = strings.TrimPrefix(path, Prefix)
	}
	var out []string
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		if routes.Match(chi.NewRouteContext(), m, path) {
			out = append(out, m)
		}
	}
	return out
}

func recoverer(log *slog.Logger) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			defer func() {
				if v := recover(); v != nil {
					if v == http.ErrAbortHandler {
						panic(v)
					}
					log.Error("panic", "request_id", httpx.RequestID(r.Context()), "panic", v)
					httpx.Error(w, r, apperr.New(apperr.Internal, "server.internal"))
				}
			}()
			next.ServeHTTP(w, r)
		})
	}
}
