package httpx

import (
	"bufio"
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"
)

type ctxKey int

const (
	requestIDKey ctxKey = 1
	logUserKey   ctxKey = 2
)

// SetLogUser names the signed-in user on the request's log line.
func SetLogUser(ctx context.Context, username string) {
	if p, ok := ctx.Value(logUserKey).(*string); ok {
		*p = username
	}
}

// RequestID returns the id of the request being served.
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey).(string)
	return id
}

func newID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

type recorder struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (r *recorder) WriteHeader(s int) {
	if r.status == 0 {
		r.status = s
	}
	r.ResponseWriter.WriteHeader(s)
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	n, err := r.ResponseWriter.Write(b)
	r.bytes += n
	return n, err
}

// Unwrap lets http.ResponseController reach the underlying writer
// (WebSocket hijacking, flushing).
func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// Hijack hands the connection to a WebSocket upgrader: gorilla/websocket
// asserts http.Hijacker on the writer rather than using Unwrap.
func (r *recorder) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	c, rw, err := http.NewResponseController(r.ResponseWriter).Hijack()
	if err == nil && r.status == 0 {
		r.status = http.StatusSwitchingProtocols
	}
	return c, rw, err
}

// Logging gives each request an id (X-Request-Id) and logs one line when it
// ends.
func Logging(log *slog.Logger) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			id := newID()
			w.Header().Set("X-Request-Id", id)
			rec := &recorder{ResponseWriter: w}
			start := time.Now()
			user := ""
			ctx := context.WithValue(context.WithValue(r.Context(), requestIDKey, id), logUserKey, &user)
			next.ServeHTTP(rec, r.WithContext(ctx))
			if rec.status == 0 {
				rec.status = http.StatusOK
			}
			log.Info("request", "request_id", id, "method", r.Method, "path", r.URL.Path, "user", user,
				"status", rec.status, "bytes", rec.bytes, "took", time.Since(start).Round(time.Microsecond))
		})
	}
}

// SecurityHeaders returns the middleware that sets headers every answer
// carries. The page may connect (fetch, WebSocket) to its own origin only:
// 'self', and the WebSocket form of baseURL's host for browsers whose
// 'self' does not cover ws:/wss:.
func SecurityHeaders(baseURL string) func(http.Handler) http.Handler {
	connect := "'self'"
	if u, err := url.Parse(baseURL); err == nil && u.Host != "" {
		connect += " wss://" + u.Host + " ws://" + u.Host
	}
	// 'wasm-unsafe-eval' lets the face pages compile the face engine's WebAssembly (served
	// from /face/wasm/); it allows no JavaScript eval.
	csp := "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; connect-src " + connect +
		"; frame-ancestors 'none'; base-uri 'self'; form-action 'self'"
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h := w.Header()
			h.Set("X-Content-Type-Options", "nosniff")
			h.Set("X-Frame-Options", "DENY")
			h.Set("Referrer-Policy", "same-origin")
			h.Set("Cross-Origin-Opener-Policy", "same-origin")
			h.Set("Permissions-Policy", "camera=(self), microphone=(), geolocation=()")
			h.Set("Content-Security-Policy", csp)
			if r.TLS != nil {
				h.Set("Strict-Transport-Security", "max-age=31536000")
			}
			next.ServeHTTP(w, r)
		})
	}
}

// UploadLimit raises the multipart limit of one route (exact method and
// path): a form that carries several photos needs more than one file's
// worth.
type UploadLimit struct {
	Method string
	Path   string
	Bytes  int64
	// Own: Bytes bounds every body of the route, multipart or not, and the
	// route answers its own 413 (the journal's push answers in the shape
	// the journal reads): LimitBody neither refuses nor renders for it.
	Own bool
	// ReadTimeout bounds the time to read the route's body (default
	// UploadReadTimeout for multipart bodies, BodyReadTimeout otherwise).
	ReadTimeout time.Duration
}

// How long a request body may take to arrive, from the moment its headers
// are read: a client that sends a byte a second must not hold a handler (and
// its database connection) for minutes. A 1 MiB JSON body needs 20 s at
// 400 kbit/s; an 8 MiB upload 3 minutes at 400 kbit/s (a weak mobile link).
const (
	BodyReadTimeout   = 20 * time.Second
	UploadReadTimeout = 3 * time.Minute
)

// readDeadline makes reads of the request's body fail with
// os.ErrDeadlineExceeded after d (DecodeJSON answers 408). The server
// resets the connection's deadline for the next request.
func readDeadline(w http.ResponseWriter, d time.Duration) {
	_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(d))
}

// LimitBody caps every request body: multipart bodies (file uploads) at
// upload bytes (or a route's own UploadLimit, when larger), every other body
// at n. A body that announces a larger Content-Length is refused (413)
// before it is read; one that does not (chunked) stops at the limit, and
// DecodeJSON turns the overflow into a 413. A route may lower its own limit
// further.
func LimitBody(n, upload int64, routes ...UploadLimit) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Body == nil || r.Body == http.NoBody {
				next.ServeHTTP(w, r)
				return
			}
			for _, rl := range routes {
				if rl.Own && rl.Method == r.Method && rl.Path == r.URL.Path {
					readDeadline(w, cmp.Or(rl.ReadTimeout, BodyReadTimeout))
					r.Body = http.MaxBytesReader(w, r.Body, rl.Bytes)
					next.ServeHTTP(w, r)
					return
				}
			}
			limit, timeout := n, BodyReadTimeout
			if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err == nil && strings.HasPrefix(mt, "multipart/") {
				limit, timeout = max(n, upload), UploadReadTimeout
				for _, rl := range routes {
					if rl.Method == r.Method && rl.Path == r.URL.Path {
						limit = max(limit, rl.Bytes)
						timeout = max(timeout, rl.ReadTimeout)
					}
				}
			} else {
				for _, rl := range routes {
					if rl.Method == r.Method && rl.Path == r.URL.Path && rl.ReadTimeout > 0 {
						timeout = rl.ReadTimeout
					}
				}
			}
			readDeadline(w, timeout)
			if r.ContentLength > limit {
				Error(w, r, &tooLargeErr{limit})
				return
			}
			r.Body = http.MaxBytesReader(w, r.Body, limit)
			next.ServeHTTP(w, r)
		})
	}
}

// ClientAddr returns the client's address: the socket peer, or the first
// X-Forwarded-For entry when trustProxy is set and it is an IP address.
func ClientAddr(r *http.Request, trustProxy bool) string {
	if trustProxy {
		if f := r.Header.Get("X-Forwarded-For"); f != "" {
			first, _, _ := strings.Cut(f, ",")
			if a, err := netip.ParseAddr(strings.TrimSpace(first)); err == nil {
				return a.WithZone("").String()
			}
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
