package web

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
)

func TestHandler(t *testing.T) {
	h := HandlerFS(fstest.MapFS{
		"index.html":           {Data: []byte("<html>app</html>")},
		"assets/app-abc123.js": {Data: []byte("console.log(1)")},
		"favicon.svg":          {Data: []byte("<svg/>")},
	})
	get := func(path string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		return rec
	}
	cases := []struct {
		path, body, cache string
		status            int
	}{
		{"/", "app", "no-store", 200},
		{"/pengguna/12", "app", "no-store", 200}, // client-side route
		{"/assets/app-abc123.js", "console", "immutable", 200},
		{"/favicon.svg", "svg", "no-cache", 200},
		{"/assets/missing.js", "", "", 404}, // never index.html for a missing asset
		{"/gambar.png", "", "", 404},
	}
	for _, c := range cases {
		rec := get(c.path)
		if rec.Code != c.status || !strings.Contains(rec.Body.String(), c.body) || !strings.Contains(rec.Header().Get("Cache-Control"), c.cache) {
			t.Errorf("%s: %d %q cache=%q", c.path, rec.Code, rec.Body.String(), rec.Header().Get("Cache-Control"))
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("POST", "/", nil))
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d", rec.Code)
	}
}
