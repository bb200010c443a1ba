package main

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
)

// The set-up page's probe tells a Tatib server (a 401 in Tatib's error
// shape from /api/v1/auth/me) from any other web server and from an
// address nobody answers, through the shared API client.
func TestProbeServer(t *testing.T) {
	tatib := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/v1/auth/me" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write([]byte(`{"error":{"code":"unauthorized","message":"Silakan masuk."}}`))
	}))
	defer tatib.Close()
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "nope", http.StatusUnauthorized)
	}))
	defer other.Close()
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte("<html>router</html>"))
	}))
	defer page.Close()
	gone := httptest.NewServer(http.NotFoundHandler())
	goneURL := gone.URL
	gone.Close()

	for _, c := range []struct {
		url, key string
	}{
		{tatib.URL, ""},
		{other.URL, "desktop.server_not_tatib"},
		{page.URL, "desktop.server_not_tatib"},
		{goneURL, "desktop.server_probe_unreachable"},
		{"not a url", "desktop.server_url_invalid"},
	} {
		err := probeServer(context.Background(), c.url)
		var te *textError
		switch {
		case c.key == "" && err != nil:
			t.Errorf("%s: %v, want a Tatib server", c.url, err)
		case c.key != "" && (!errors.As(err, &te) || te.key != c.key):
			t.Errorf("%s: %v, want %s", c.url, err, c.key)
		}
	}
}
