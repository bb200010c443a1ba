package web

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
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
		{"/index.html", "app", "no-store", 200},
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

// The family portal is its own page: /ortu and its client-side routes answer
// ortu.html, its files are files, and everything else keeps index.html.
func TestPortalPage(t *testing.T) {
	files := fstest.MapFS{
		"index.html":         {Data: []byte("<html>staff</html>")},
		"ortu.html":          {Data: []byte("<html>portal</html>")},
		"ortu/manifest.json": {Data: []byte(`{"start_url":"/ortu/"}`)},
		"ortu/sw.js":         {Data: []byte("self.addEventListener")},
	}
	h := HandlerFS(files)
	cases := []struct {
		path, body, cache string
		status            int
	}{
		{"/ortu", "portal", "no-store", 200},
		{"/ortu/", "portal", "no-store", 200},
		{"/ortu/masuk", "portal", "no-store", 200},
		{"/ortu/anak/5", "portal", "no-store", 200},
		{"/ortu/akun?x=1", "portal", "no-store", 200},
		{"/ortu.html", "portal", "no-store", 200},
		{"/ortu/manifest.json", "start_url", "no-cache", 200},
		{"/ortu/sw.js", "self.", "no-cache", 200},
		{"/ortu/missing.js", "", "", 404},
		{"/", "staff", "no-store", 200},
		{"/sign-in", "staff", "no-store", 200},
		{"/ortukelas", "staff", "no-store", 200}, // only the /ortu path segment
		{"/students/ortu", "staff", "no-store", 200},
		{"/lapor", "staff", "no-store", 200},
	}
	for _, c := range cases {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", c.path, nil))
		if rec.Code != c.status || !strings.Contains(rec.Body.String(), c.body) || !strings.Contains(rec.Header().Get("Cache-Control"), c.cache) {
			t.Errorf("%s: %d %q cache=%q", c.path, rec.Code, rec.Body.String(), rec.Header().Get("Cache-Control"))
		}
	}

	// A build without the portal's page (the desktop app's) keeps index.html for /ortu.
	delete(files, "ortu.html")
	rec := httptest.NewRecorder()
	HandlerFS(files).ServeHTTP(rec, httptest.NewRequest("GET", "/ortu/masuk", nil))
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), "staff") {
		t.Errorf("no ortu.html: %d %q", rec.Code, rec.Body.String())
	}
}

func TestHandlerNotBuilt(t *testing.T) {
	rec := httptest.NewRecorder()
	HandlerFS(fstest.MapFS{".keep": {}}).ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	if rec.Code != http.StatusServiceUnavailable {
		t.Errorf("no index.html: %d", rec.Code)
	}
}

func gz(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := io.WriteString(zw, s); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestPrecompressed: the build's <file>.br and <file>.gz go to browsers
// that accept them, with the original file's type and Vary on every answer.
func TestPrecompressed(t *testing.T) {
	const js = "console.log('tatib')"
	// The brotli bytes are stand-ins: the server passes them through untouched.
	brBytes := []byte("BROTLI-BYTES")
	h := HandlerFS(fstest.MapFS{
		"index.html":              {Data: []byte("<html>app</html>")},
		"index.html.gz":           {Data: gz(t, "<html>app</html>")},
		"assets/app-abc123.js":    {Data: []byte(js)},
		"assets/app-abc123.js.br": {Data: brBytes},
		"assets/app-abc123.js.gz": {Data: gz(t, js)},
		"assets/app-abc123.css":   {Data: []byte("a{}")},
		"assets/only-gz-1.svg":    {Data: []byte("<svg/>")},
		"assets/only-gz-1.svg.gz": {Data: gz(t, "<svg/>")},
	})
	do := func(method, path, acceptEncoding string, hdr ...string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(method, path, nil)
		if acceptEncoding != "" {
			req.Header.Set("Accept-Encoding", acceptEncoding)
		}
		for i := 0; i+1 < len(hdr); i += 2 {
			req.Header.Set(hdr[i], hdr[i+1])
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}

	cases := []struct {
		name, path, accept string
		encoding, ctype    string
		body               []byte
	}{
		{"BrotliPreferred", "/assets/app-abc123.js", "gzip, deflate, br", "br", "text/javascript; charset=utf-8", brBytes},
		{"GzipOnly", "/assets/app-abc123.js", "gzip, deflate", "gzip", "text/javascript; charset=utf-8", gz(t, js)},
		{"Identity", "/assets/app-abc123.js", "", "", "text/javascript; charset=utf-8", []byte(js)},
		{"BrotliRefused", "/assets/app-abc123.js", "br;q=0, gzip;q=0.5", "gzip", "text/javascript; charset=utf-8", gz(t, js)},
		{"AllRefused", "/assets/app-abc123.js", "br;q=0, gzip;q=0, *;q=0", "", "text/javascript; charset=utf-8", []byte(js)},
		{"Star", "/assets/app-abc123.js", "*", "br", "text/javascript; charset=utf-8", brBytes},
		{"CaseInsensitive", "/assets/app-abc123.js", "GZIP", "gzip", "text/javascript; charset=utf-8", gz(t, js)},
		{"BrotliMissingFallsBackToGzip", "/assets/only-gz-1.svg", "br, gzip", "gzip", "image/svg+xml", gz(t, "<svg/>")},
		{"IndexCompressed", "/", "gzip, br", "gzip", "text/html; charset=utf-8", gz(t, "<html>app</html>")},
		{"ClientRouteCompressed", "/siswa/7", "gzip", "gzip", "text/html; charset=utf-8", gz(t, "<html>app</html>")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := do("GET", c.path, c.accept)
			if rec.Code != http.StatusOK {
				t.Fatalf("status %d", rec.Code)
			}
			if got := rec.Header().Get("Content-Encoding"); got != c.encoding {
				t.Errorf("Content-Encoding %q, want %q", got, c.encoding)
			}
			if got := rec.Header().Get("Content-Type"); got != c.ctype {
				t.Errorf("Content-Type %q, want %q", got, c.ctype)
			}
			if got := rec.Header().Get("Vary"); got != "Accept-Encoding" {
				t.Errorf("Vary %q", got)
			}
			if !bytes.Equal(rec.Body.Bytes(), c.body) {
				t.Errorf("body %q, want %q", rec.Body.Bytes(), c.body)
			}
			if got := rec.Header().Get("Content-Length"); got != strconv.Itoa(len(c.body)) {
				t.Errorf("Content-Length %s, want %d", got, len(c.body))
			}
		})
	}

	t.Run("NoVariantsNoVary", func(t *testing.T) {
		rec := do("GET", "/assets/app-abc123.css", "br, gzip")
		if rec.Header().Get("Content-Encoding") != "" || rec.Header().Get("Vary") != "" || rec.Body.String() != "a{}" {
			t.Errorf("%q vary=%q %q", rec.Header().Get("Content-Encoding"), rec.Header().Get("Vary"), rec.Body.String())
		}
		if rec.Header().Get("Content-Type") != "text/css; charset=utf-8" {
			t.Errorf("Content-Type %q", rec.Header().Get("Content-Type"))
		}
	})

	t.Run("HEAD", func(t *testing.T) {
		rec := do("HEAD", "/assets/app-abc123.js", "br")
		if rec.Code != http.StatusOK || rec.Body.Len() != 0 {
			t.Fatalf("%d body %d bytes", rec.Code, rec.Body.Len())
		}
		if rec.Header().Get("Content-Encoding") != "br" || rec.Header().Get("Content-Length") != strconv.Itoa(len(brBytes)) {
			t.Errorf("encoding %q length %q", rec.Header().Get("Content-Encoding"), rec.Header().Get("Content-Length"))
		}
		if !strings.Contains(rec.Header().Get("Cache-Control"), "immutable") {
			t.Errorf("Cache-Control %q", rec.Header().Get("Cache-Control"))
		}
	})

	// A range counts bytes of what is sent: the compressed file.
	t.Run("Range", func(t *testing.T) {
		rec := do("GET", "/assets/app-abc123.js", "br", "Range", "bytes=0-5")
		if rec.Code != http.StatusPartialContent || rec.Body.String() != string(brBytes[:6]) {
			t.Fatalf("%d %q", rec.Code, rec.Body.String())
		}
		if rec.Header().Get("Content-Encoding") != "br" || rec.Header().Get("Content-Range") != "bytes 0-5/"+strconv.Itoa(len(brBytes)) {
			t.Errorf("encoding %q range %q", rec.Header().Get("Content-Encoding"), rec.Header().Get("Content-Range"))
		}
		rec = do("GET", "/assets/app-abc123.js", "", "Range", "bytes=8-")
		if rec.Code != http.StatusPartialContent || rec.Body.String() != js[8:] {
			t.Errorf("identity range: %d %q", rec.Code, rec.Body.String())
		}
	})
}

func TestAccepts(t *testing.T) {
	cases := []struct {
		header, coding string
		want           bool
	}{
		{"", "gzip", false},
		{"gzip", "gzip", true},
		{"gzip, deflate, br, zstd", "br", true},
		{"gzip;q=0", "gzip", false},
		{"gzip; q=0.0", "gzip", false},
		{"gzip;q=0.001", "gzip", true},
		{"*", "br", true},
		{"*;q=0", "br", false},
		{"*, br;q=0", "br", false},
		{"br;q=0, *", "br", false},
		{"identity", "gzip", false},
		{"x-gzip", "gzip", false},
	}
	for _, c := range cases {
		if got := accepts(c.header, c.coding); got != c.want {
			t.Errorf("accepts(%q, %q) = %v, want %v", c.header, c.coding, got, c.want)
		}
	}
}
