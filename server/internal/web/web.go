// Package web serves the embedded front-end build: hashed assets with long
// cache headers, index.html without caching, and index.html for every
// client-side route except the family portal's: /ortu and /ortu/* get
// ortu.html, the portal's own entry (frontend/ortu.html, docs/portal.md). Files the build precompressed (<file>.br, <file>.gz)
// go to browsers that accept them, so a school's slow network carries a
// third of the bytes and the server spends no CPU compressing.
package web

import (
	"bytes"
	"embed"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"
)

// dist holds the Vite build, copied here by the Makefile. A committed
// placeholder keeps `go build` working before the front end is built.
//
//go:embed all:dist
var dist embed.FS

// Handler returns the handler of the embedded build.
func Handler() http.Handler {
	sub, _ := fs.Sub(dist, "dist")
	return HandlerFS(sub)
}

// encodings are the precompressed variants, best first, with the suffix
// the build gives their files (frontend/scripts/precompress.mjs).
var encodings = []struct{ name, suffix string }{
	{"br", ".br"},
	{"gzip", ".gz"},
}

// HandlerFS serves the build in sub.
func HandlerFS(sub fs.FS) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		p := strings.TrimPrefix(path.Clean(r.URL.Path), "/")
		page := pageFor(sub, p)
		if p != "" && p != page {
			if st, err := fs.Stat(sub, p); err == nil && !st.IsDir() {
				cache := "no-cache"
				if strings.HasPrefix(p, "assets/") {
					// Vite puts a content hash in every name under assets/.
					cache = "public, max-age=31536000, immutable"
				}
				serveFile(w, r, sub, p, cache)
				return
			}
			if strings.HasPrefix(p, "assets/") || path.Ext(p) != "" {
				http.NotFound(w, r)
				return
			}
		}
		if _, err := fs.Stat(sub, page); err != nil {
			http.Error(w, "front end not built: run make run (or make frontend)", http.StatusServiceUnavailable)
			return
		}
		serveFile(w, r, sub, page, "no-store")
	})
}

// portalPage is the family portal's entry page, answered for /ortu and every
// client-side route under it, so a guardian's phone never downloads the staff
// app. A build without it (or a request outside /ortu) gets index.html.
const portalPage = "ortu.html"

// pageFor names the HTML page that answers the cleaned path p when p is not
// a file of the build.
func pageFor(sub fs.FS, p string) string {
	if p == "ortu" || p == portalPage || strings.HasPrefix(p, "ortu/") {
		if _, err := fs.Stat(sub, portalPage); err == nil {
			return portalPage
		}
	}
	return "index.html"
}

// serveFile answers with name, or with its precompressed variant when the
// request accepts that encoding. The Content-Type is always name's own;
// ranges and conditional requests apply to the bytes actually sent.
func serveFile(w http.ResponseWriter, r *http.Request, sub fs.FS, name, cache string) {
	h := w.Header()
	h.Set("Cache-Control", cache)
	ctype := mime.TypeByExtension(path.Ext(name))
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	h.Set("Content-Type", ctype)

	file, encoding := name, ""
	varies := false
	for _, e := range encodings {
		if _, err := fs.Stat(sub, name+e.suffix); err != nil {
			continue
		}
		varies = true
		if encoding == "" && accepts(r.Header.Get("Accept-Encoding"), e.name) {
			file, encoding = name+e.suffix, e.name
		}
	}
	if varies {
		// Caches must keep the variants apart even when this answer is the plain file.
		h.Add("Vary", "Accept-Encoding")
	}
	if encoding != "" {
		h.Set("Content-Encoding", encoding)
	}

	content, err := open(sub, file)
	if err != nil {
		http.Error(w, "could not read "+name, http.StatusInternalServerError)
		return
	}
	if c, ok := content.(io.Closer); ok {
		defer c.Close()
	}
	if encoding != "" && r.Header.Get("Range") == "" {
		// ServeContent leaves the length out of encoded answers, as if they were
		// compressed on the fly; these are files of known size.
		if size, err := content.Seek(0, io.SeekEnd); err == nil {
			if _, err := content.Seek(0, io.SeekStart); err == nil {
				h.Set("Content-Length", strconv.FormatInt(size, 10))
			}
		}
	}
	// The embedded files have no modification time; the hashed names and
	// Cache-Control do the caching, so only the name is passed on.
	http.ServeContent(w, r, name, time.Time{}, content)
}

// open returns file as a ReadSeeker; embed.FS files already are one.
func open(sub fs.FS, file string) (io.ReadSeeker, error) {
	f, err := sub.Open(file)
	if err != nil {
		return nil, err
	}
	if rs, ok := f.(io.ReadSeeker); ok {
		return rs, nil
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, err
	}
	return bytes.NewReader(b), nil
}

// accepts reports whether an Accept-Encoding header allows coding: named
// with a non-zero q, or covered by "*" with a non-zero q when not named.
func accepts(header, coding string) bool {
	star := false
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		name = strings.ToLower(strings.TrimSpace(name))
		if name != coding && name != "*" {
			continue
		}
		ok := qualityAboveZero(params)
		if name == coding {
			return ok
		}
		star = ok
	}
	return star
}

// qualityAboveZero reads the q parameter of an Accept-Encoding entry; a
// missing or unreadable q counts as 1.
func qualityAboveZero(params string) bool {
	for _, p := range strings.Split(params, ";") {
		k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
		if strings.EqualFold(strings.TrimSpace(k), "q") {
			q, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			return err != nil || q > 0
		}
	}
	return true
}
