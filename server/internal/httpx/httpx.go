// Package httpx adapts handlers that return errors, decodes and encodes JSON,
// renders every API error in one place and keeps the route table with each
// route's permission.
package httpx

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/shared/api"
)

// HandlerFunc is an HTTP handler that returns an error for Error to render.
type HandlerFunc func(w http.ResponseWriter, r *http.Request) error

// Logger is used for errors that reach the renderer; main replaces it.
var Logger = slog.Default()

// ServeHTTP makes HandlerFunc an http.Handler.
func (f HandlerFunc) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if err := f(w, r); err != nil {
		Error(w, r, err)
	}
}

// Status maps an application error code to its HTTP status. It is the only
// place that knows this mapping.
func Status(code string) int {
	switch code {
	case apperr.Invalid:
		return http.StatusUnprocessableEntity
	case apperr.BadRequest:
		return http.StatusBadRequest
	case apperr.Unauthorized:
		return http.StatusUnauthorized
	case apperr.Forbidden:
		return http.StatusForbidden
	case apperr.NotFound:
		return http.StatusNotFound
	case apperr.Conflict:
		return http.StatusConflict
	case apperr.TooLarge:
		return http.StatusRequestEntityTooLarge
	case apperr.RateLimited:
		return http.StatusTooManyRequests
	case apperr.Unavailable:
		return http.StatusServiceUnavailable
	default:
		return http.StatusInternalServerError
	}
}

// Error renders err as {"error":{...}}. Errors without a code are logged and
// shown as a generic internal error.
func Error(w http.ResponseWriter, r *http.Request, err error) {
	e, ok := apperr.As(err)
	if !ok {
		Logger.Error("request failed", "request_id", RequestID(r.Context()), "method", r.Method, "path", r.URL.Path, "err", err)
		e = &apperr.Error{Code: apperr.Internal, Message: "Terjadi kesalahan pada server. Coba lagi; bila berulang, hubungi admin."}
	}
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(e.RetryAfter))
	}
	_ = JSON(w, Status(e.Code), api.ErrorBody{Error: api.ErrorDetail{Code: e.Code, Message: e.Message, Fields: e.Fields}})
}

// JSON writes v with status.
func JSON(w http.ResponseWriter, status int, v any) error {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	if v == nil {
		return nil
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// NoContent answers 204.
func NoContent(w http.ResponseWriter) error {
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// DecodeJSON reads the body into v. A body over the server's limit is
// TooLarge; anything that is not valid JSON of the right shape is BadRequest
// with a message saying what was wrong.
func DecodeJSON(r *http.Request, v any) error {
	if ct := r.Header.Get("Content-Type"); ct != "" && !strings.HasPrefix(ct, "application/json") && !strings.Contains(ct, "+json") {
		return apperr.New(apperr.BadRequest, "Isi permintaan harus JSON (Content-Type: application/json), bukan %q.", ct)
	}
	dec := json.NewDecoder(r.Body)
	if err := dec.Decode(v); err != nil {
		return decodeError(err)
	}
	if dec.More() {
		return apperr.New(apperr.BadRequest, "Isi permintaan berisi lebih dari satu nilai JSON.")
	}
	return nil
}

func decodeError(err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return apperr.New(apperr.TooLarge, "Isi permintaan melebihi batas %d byte.", tooBig.Limit)
	case errors.Is(err, io.EOF):
		return apperr.New(apperr.BadRequest, "Isi permintaan kosong; diharapkan JSON.")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return apperr.New(apperr.BadRequest, "JSON terpotong: isi permintaan berakhir sebelum waktunya.")
	case errors.As(err, &syn):
		return apperr.New(apperr.BadRequest, "JSON tidak valid pada posisi %d: %s.", syn.Offset, syn.Error())
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			field = "(isi)"
		}
		return &apperr.Error{Code: apperr.BadRequest,
			Message: fmt.Sprintf("Kolom %q harus bertipe %s, bukan %s.", field, typ.Type.String(), typ.Value),
			Fields:  map[string]string{field: fmt.Sprintf("harus bertipe %s", typ.Type.String())}}
	default:
		return apperr.New(apperr.BadRequest, "Isi permintaan tidak dapat dibaca: %v.", err)
	}
}

// Paging is the page and page size of a list request.
type Paging struct {
	Page    int
	PerPage int
}

// Offset is the number of rows before this page.
func (p Paging) Offset() int { return (p.Page - 1) * p.PerPage }

// PageParams reads ?page= and ?per_page= (default 20, at most 100).
func PageParams(r *http.Request) Paging {
	p := Paging{Page: 1, PerPage: 20}
	if n, err := strconv.Atoi(r.URL.Query().Get("page")); err == nil && n > 0 {
		p.Page = n
	}
	if n, err := strconv.Atoi(r.URL.Query().Get("per_page")); err == nil && n > 0 {
		p.PerPage = min(n, 100)
	}
	return p
}

// Meta builds the page description for total rows.
func (p Paging) Meta(total int) api.PageMeta {
	last := (total + p.PerPage - 1) / p.PerPage
	if last < 1 {
		last = 1
	}
	return api.PageMeta{Page: p.Page, PerPage: p.PerPage, Total: total, LastPage: last}
}

// IDParam reads a positive integer path parameter.
func IDParam(r *http.Request, name string) (int64, error) {
	v := r.PathValue(name)
	if v == "" {
		v = chiParam(r, name)
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		return 0, apperr.New(apperr.NotFound, "Data dengan id %q tidak ditemukan.", v)
	}
	return n, nil
}
