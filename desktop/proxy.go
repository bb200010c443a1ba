package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/tatib/tatib/shared/api"
)

// APIProxy sends the page's /api/ requests to the configured Tatib server as
// bearer-token requests. The token never reaches the page's storage: the
// proxy takes it from the sign-in answer, keeps it in the Session and adds
// it to every request; cookies are dropped both ways. A 401 ends the
// session, so the page shows the sign-in form.
type APIProxy struct {
	Settings *SettingsStore
	Session  *Session
	Log      *slog.Logger
	// OnSignedOut is called after a 401 or a sign-out ended the session.
	OnSignedOut func()

	rp *httputil.ReverseProxy
}

const (
	loginPath  = "/api/v1/auth/login"
	logoutPath = "/api/v1/auth/logout"
)

// NewAPIProxy returns the proxy.
func NewAPIProxy(settings *SettingsStore, session *Session, log *slog.Logger) *APIProxy {
	p := &APIProxy{Settings: settings, Session: session, Log: log}
	p.rp = &httputil.ReverseProxy{
		Rewrite:        p.rewrite,
		ModifyResponse: p.modifyResponse,
		ErrorHandler:   p.errorHandler,
		Transport: &http.Transport{
			Proxy:                 http.ProxyFromEnvironment,
			ResponseHeaderTimeout: 2 * time.Minute, // big exports take a while
			IdleConnTimeout:       90 * time.Second,
			MaxIdleConnsPerHost:   8,
		},
	}
	return p
}

// ServeHTTP proxies one request.
func (p *APIProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// The front end sends its UI language on every call: texts not tied to
	// a request (dialog titles, popups, the next start's menu) follow it.
	// The header itself goes on to the server unchanged.
	if al := r.Header.Get("Accept-Language"); al != "" {
		if err := p.Settings.NoteLang(ParseLang(al)); err != nil {
			p.Log.Warn("desktop: remember UI language", "err", err)
		}
	}
	base := p.Settings.ServerURL()
	if base == "" {
		writeAPIError(w, r, http.StatusServiceUnavailable, "desktop.server_not_set")
		return
	}
	target, err := url.Parse(base)
	if err != nil {
		writeAPIError(w, r, http.StatusServiceUnavailable, "desktop.server_saved_invalid", "url", base)
		return
	}
	ctx := withTarget(r.Context(), target)
	p.rp.ServeHTTP(w, r.WithContext(ctx))
}

func (p *APIProxy) rewrite(pr *httputil.ProxyRequest) {
	pr.SetURL(targetFrom(pr.In.Context()))
	h := pr.Out.Header
	// No ambient credentials: the server must see a bearer-token request,
	// not a cross-site cookie request from wails://wails.
	for _, k := range []string{"Cookie", "Origin", "Referer", "Sec-Fetch-Site", "Sec-Fetch-Mode", "Sec-Fetch-Dest", "Authorization"} {
		h.Del(k)
	}
	if tok := p.Session.Token(); tok != "" {
		h.Set("Authorization", "Bearer "+tok)
		// Remember which token this request used for modifyResponse.
		pr.Out = pr.Out.WithContext(withUsedToken(pr.Out.Context(), tok))
	}
	h.Set("User-Agent", "Tatib-Desktop/"+version)
}

func (p *APIProxy) modifyResponse(res *http.Response) error {
	res.Header.Del("Set-Cookie")
	req := res.Request
	switch {
	case res.StatusCode == http.StatusUnauthorized && req.URL.Path != loginPath:
		p.expire(usedToken(req.Context()))
	case req.Method == http.MethodPost && req.URL.Path == logoutPath && res.StatusCode < 300:
		p.expire(usedToken(req.Context()))
	case req.Method == http.MethodPost && req.URL.Path == loginPath && res.StatusCode == http.StatusOK:
		body, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
		res.Body.Close()
		if err != nil {
			return err
		}
		var lr api.LoginResponse
		if err := json.Unmarshal(body, &lr); err == nil && lr.Token != "" {
			if err := p.Session.SignIn(lr.Token); err != nil {
				p.Log.Warn("desktop: keep session token", "err", err)
			}
		}
		// The page gets the answer unchanged.
		res.Body = io.NopCloser(bytes.NewReader(body))
		res.ContentLength = int64(len(body))
		res.Header.Set("Content-Length", strconv.Itoa(len(body)))
	}
	return nil
}

func (p *APIProxy) expire(used string) {
	if err := p.Session.Expire(used); err != nil {
		p.Log.Warn("desktop: forget session token", "err", err)
	}
	if p.OnSignedOut != nil && p.Session.Token() == "" {
		p.OnSignedOut()
	}
}

func (p *APIProxy) errorHandler(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, r.Context().Err()) && r.Context().Err() != nil {
		return // the page went away
	}
	p.Log.Warn("desktop: server unreachable", "url", p.Settings.ServerURL(), "err", err)
	writeAPIError(w, r, http.StatusBadGateway, "desktop.server_unreachable", "url", p.Settings.ServerURL())
}

// writeAPIError answers like the server does when the server itself cannot
// answer: {"error":{"code":"unavailable","message","message_code","params"}},
// the message in the request's language.
func writeAPIError(w http.ResponseWriter, r *http.Request, status int, key string, kv ...any) {
	w.Header().Set("Cache-Control", "no-store")
	writeJSONError(w, r, status, api.CodeUnavailable, key, kv...)
}

// isAPIPath reports whether the page's request belongs to the server.
func isAPIPath(path string) bool { return path == "/api" || strings.HasPrefix(path, "/api/") }
