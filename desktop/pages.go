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
	"path"
	"strings"
	"time"

	"github.com/tatib/tatib/shared/api"
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
				pg.renderSetup(w, "", "")
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
		pg.renderSetup(w, pg.Settings.ServerURL(), "")
	case http.MethodPost:
		var in struct {
			URL string `json:"url"`
		}
		if err := json.NewDecoder(io.LimitReader(r.Body, 4096)).Decode(&in); err != nil {
			writeJSONError(w, http.StatusBadRequest, api.CodeBadRequest, "Permintaan tidak valid.")
			return
		}
		u, err := NormalizeServerURL(in.URL)
		if err != nil {
			writeJSONError(w, http.StatusUnprocessableEntity, api.CodeInvalid, err.Error())
			return
		}
		probe := pg.Probe
		if probe == nil {
			probe = probeServer
		}
		if err := probe(r.Context(), u); err != nil {
			writeJSONError(w, http.StatusUnprocessableEntity, api.CodeInvalid, err.Error())
			return
		}
		if err := pg.SetServer(u); err != nil {
			writeJSONError(w, http.StatusInternalServerError, api.CodeInternal, "Alamat server tidak dapat disimpan: "+err.Error())
			return
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		_ = json.NewEncoder(w).Encode(map[string]string{"url": u})
	default:
		writeJSONError(w, http.StatusMethodNotAllowed, api.CodeBadRequest, "Metode tidak didukung.")
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

func (pg *Pages) renderSetup(w http.ResponseWriter, current, notice string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_ = setupPage.Execute(w, map[string]string{"URL": current, "Notice": notice, "Version": version})
}

func writeJSONError(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(api.ErrorBody{Error: api.ErrorDetail{Code: code, Message: msg}})
}

// probeServer asks serverURL who is signed in: a Tatib server answers JSON
// (401 with an error body, since nobody is).
func probeServer(ctx context.Context, serverURL string) error {
	ctx, cancel := context.WithTimeout(ctx, 8*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, serverURL+"/api/v1/auth/me", nil)
	if err != nil {
		return errors.New("Alamat server tidak valid.")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return errors.New("Server Tatib tidak dapat dihubungi di " + serverURL + ". Periksa alamat dan jaringan.")
	}
	defer res.Body.Close()
	var body map[string]json.RawMessage
	if err := json.NewDecoder(io.LimitReader(res.Body, 1<<16)).Decode(&body); err != nil ||
		(res.StatusCode != http.StatusUnauthorized && res.StatusCode != http.StatusOK) {
		return errors.New("Alamat " + serverURL + " menjawab, tetapi bukan server Tatib.")
	}
	return nil
}
