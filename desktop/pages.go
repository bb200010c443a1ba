package main

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"html/template"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/client"
)

// The app's own pages live here, not in the React app, so that choosing the
// server works whatever state the front end is in.

//go:embed setup.html
var setupHTML string

var setupPage = template.Must(template.New("setup").Parse(setupHTML))

const setupPath = "/desktop/setup"

// Pages routes the asset server's requests: /api/ to the proxy, the
// server-address page, and the front end (with a fallback to index.html
// for the SPA's own paths).
type Pages struct {
	Proxy    *APIProxy
	Settings *SettingsStore
	Session  *Session
	Assets   fs.FS
	// SPA is true when Assets is the real front end, whose own paths fall
	// back to index.html.
	SPA bool
	// Probe checks that a URL answers like a Tatib server; nil uses probeServer.
	Probe func(ctx context.Context, serverURL string) error
}

// Middleware is the assetserver.Middleware of the app.
func (pg *Pages) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		switch {
		case isAPIPath(p):
			pg.Proxy.ServeHTTP(w, r)
		case p == setupPath || p == setupPath+"/":
			pg.setup(w, r)
		case r.Method != http.MethodGet || strings.HasPrefix(p, "/wails/"):
			next.ServeHTTP(w, r)
		case p == "/" || p == "/index.html":
			if pg.Settings.ServerURL() == "" {
				pg.renderSetup(w, r, "")
				return
			}
			next.ServeHTTP(w, r)
		case path.Ext(p) == "" && pg.SPA:
			// A page of the SPA opened directly (reload on /pelanggaran):
			// the asset server only adds its runtime scripts to "/", so add
			// them here.
			pg.serveIndex(w)
		default:
			next.ServeHTTP(w, r)
		}
	})
}

func (pg *Pages) serveIndex(w http.ResponseWriter) {
	b, err := fs.ReadFile(pg.Assets, "index.html")
	if err != nil {
		http.Error(w, "index.html", http.StatusNotFound)
		return
	}
	const scripts = `<script src="/wails/ipc.js"></script><script src="/wails/runtime.js"></script>`
	if i := bytes.Index(b, []byte("</head>")); i >= 0 && !bytes.Contains(b, []byte("/wails/runtime.js")) {
		b = append(b[:i:i], append([]byte(scripts), b[i:]...)...)
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write(b)
}

func (pg *Pages) setup(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet:
		pg.renderSetup(w, r, pg.Settings.ServerURL())
	case http.MethodPost:
		var in struct {
			URL string `json:"url"`
		}
		if err := json.NewDecoder(io.LimitReader(r.Body, 4096)).Decode(&in); err != nil {
			writeJSONError(w, r, http.StatusBadRequest, api.CodeBadRequest, "desktop.bad_request")
			return
		}
		u, err := NormalizeServerURL(in.URL)
		if err != nil {
			writeTextError(w, r, http.StatusUnprocessableEntity, api.CodeInvalid, err)
			return
		}
		probe := pg.Probe
		if probe == nil {
			probe = probeServer
		}
		if err := probe(r.Context(), u); err != nil {
			writeTextError(w, r, http.StatusUnprocessableEntity, api.CodeInvalid, err)
			return
		}
		if err := pg.SetServer(u); err != nil {
			writeJSONError(w, r, http.StatusInternalServerError, api.CodeInternal, "desktop.server_not_saved", "error", err.Error())
			return
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		_ = json.NewEncoder(w).Encode(map[string]string{"url": u})
	default:
		writeJSONError(w, r, http.StatusMethodNotAllowed, api.CodeBadRequest, "desktop.method_not_allowed")
	}
}

// SetServer remembers the server; a different server ends the session,
// since its token means nothing there.
func (pg *Pages) SetServer(u string) error {
	if old := pg.Settings.ServerURL(); old != u && old != "" {
		if err := pg.Session.SignOut(); err != nil {
			return err
		}
	}
	return pg.Settings.Update(func(s *Settings) { s.ServerURL = u })
}

// renderSetup shows the server-address page in the page's language: the
// ?lang= of the language switch, else the UI language the front end last
// sent, else the request's Accept-Language (WebKitGTK sends the system
// locale for page loads).
func (pg *Pages) renderSetup(w http.ResponseWriter, r *http.Request, current string) {
	lang := pg.pageLang(r)
	other := LangEN
	if lang == LangEN {
		other = LangID
	}
	t := func(key string) string { return T(lang, key) }
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_ = setupPage.Execute(w, map[string]string{"URL": current, "Version": version,
		"Lang": string(lang), "OtherLang": string(other), "OtherLangName": t("desktop.setup.other_language"),
		"Title": t("desktop.setup.title"), "Intro": t("desktop.setup.intro"), "Label": t("desktop.setup.label"),
		"Save": t("desktop.setup.save"), "Failed": t("desktop.setup.failed")})
}

func (pg *Pages) pageLang(r *http.Request) Lang {
	switch l := Lang(r.URL.Query().Get("lang")); l {
	case LangID, LangEN:
		return l
	}
	switch l := pg.Settings.Get().Language; l {
	case LangID, LangEN:
		return l
	}
	return ParseLang(r.Header.Get("Accept-Language"))
}

// writeJSONError answers {"error":{"code","message","message_code","params"}}
// like the server, the message rendered in the request's language.
func writeJSONError(w http.ResponseWriter, r *http.Request, status int, code, key string, kv ...any) {
	lang := ParseLang(r.Header.Get("Accept-Language"))
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Add("Vary", "Accept-Language")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(api.ErrorBody{Error: api.ErrorDetail{Code: code,
		Message: T(lang, key, kv...), MessageCode: key, Params: params(kv...)}})
}

// writeTextError answers with one of the app's own messages; any other
// error is a bad address.
func writeTextError(w http.ResponseWriter, r *http.Request, status int, code string, err error) {
	var te *textError
	if !errors.As(err, &te) {
		te = newTextError("desktop.server_url_invalid")
	}
	writeJSONError(w, r, status, code, te.key, te.kv...)
}

// probeServer asks serverURL who is signed in, through the shared API
// client: a Tatib server answers JSON (401 with an error body, since nobody
// is); anything else is not Tatib.
func probeServer(ctx context.Context, serverURL string) error {
	ctx, cancel := context.WithTimeout(ctx, 8*time.Second)
	defer cancel()
	if _, err := url.ParseRequestURI(serverURL); err != nil {
		return newTextError("desktop.server_url_invalid")
	}
	_, err := client.New(serverURL).Me(ctx)
	var (
		apiErr *client.Error
		netErr *url.Error
	)
	switch {
	case err == nil:
		return nil
	case errors.As(err, &netErr):
		return newTextError("desktop.server_probe_unreachable", "url", serverURL)
	case !errors.As(err, &apiErr):
		// It answered, but not with JSON (a router's page, say).
		return newTextError("desktop.server_not_tatib", "url", serverURL)
	case apiErr.Status == http.StatusUnauthorized && client.Answered(err):
		return nil
	default:
		return newTextError("desktop.server_not_tatib", "url", serverURL)
	}
}
