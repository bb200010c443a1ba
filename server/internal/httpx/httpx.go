// Package httpx adapts handlers that return errors, decodes and encodes JSON,
// renders every API error in one place and keeps the route table with each
// route's permission.
package httpx

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"os"
	"reflect"
	"strconv"
	"strings"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/locale"
	"github.com/tatib/tatib/server/internal/pg"
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
	case apperr.MethodNotAllowed:
		return http.StatusMethodNotAllowed
	case apperr.Conflict:
		return http.StatusConflict
	case apperr.TooLarge:
		return http.StatusRequestEntityTooLarge
	case apperr.UnsupportedMediaType:
		return http.StatusUnsupportedMediaType
	case apperr.RequestTimeout:
		return http.StatusRequestTimeout
	case apperr.RateLimited:
		return http.StatusTooManyRequests
	case apperr.Unavailable:
		return http.StatusServiceUnavailable
	default:
		return http.StatusInternalServerError
	}
}

// Error renders err as {"error":{...}}. Errors without a code are logged
// (through pg.Redact: a database error may quote a parameter, such as a
// session token's hash); a database that cannot be reached is shown as
// Unavailable (503), anything else as a generic internal error.
func Error(w http.ResponseWriter, r *http.Request, err error) {
	e, ok := apperr.As(err)
	switch {
	case ok:
	case pg.IsUnavailable(err):
		Logger.Warn("database unavailable", "request_id", RequestID(r.Context()), "method", r.Method, "path", r.URL.Path, "err", pg.Redact(err))
		e = apperr.New(apperr.Unavailable, "server.database_unavailable")
	default:
		Logger.Error("request failed", "request_id", RequestID(r.Context()), "method", r.Method, "path", r.URL.Path, "err", pg.Redact(err))
		e = apperr.New(apperr.Internal, "server.internal")
	}
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(e.RetryAfter))
	}
	_ = JSON(w, Status(e.Code), api.ErrorBody{Error: Detail(locale.FromContext(r.Context()), e)})
}

// Detail renders e in lang for the wire.
func Detail(lang locale.Lang, e *apperr.Error) api.ErrorDetail {
	d := api.ErrorDetail{Code: e.Code, Message: locale.Render(lang, e.Msg.Key, e.Msg.Params), MessageCode: e.Msg.Key, Params: e.Msg.Params}
	if len(e.Fields) > 0 {
		d.Fields = make(map[string]string, len(e.Fields))
		d.FieldCodes = make(map[string]api.MessageID, len(e.Fields))
		for f, m := range e.Fields {
			d.Fields[f] = locale.Render(lang, m.Key, m.Params)
			d.FieldCodes[f] = api.MessageID{Code: m.Key, Params: m.Params}
		}
	}
	return d
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

// DecodeJSON reads the body into v. A body of another media type is
// UnsupportedMediaType, refused before it is read; a body over the server's
// limit is TooLarge; text holding NUL ("\u0000", which PostgreSQL cannot
// store) is Invalid naming the field; anything else that is not valid JSON
// of the right shape is BadRequest with a message saying what was wrong.
func DecodeJSON(r *http.Request, v any) error {
	if ct := r.Header.Get("Content-Type"); ct != "" && !isJSON(ct) {
		return apperr.New(apperr.UnsupportedMediaType, "request.not_json", "content_type", CleanHeader(ct, 100))
	}
	// Read it whole first (LimitBody bounds it): so a body over the limit
	// is 413 even when a JSON value ends before the limit, and NUL can be
	// looked for in the text.
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return decodeError(err)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(v); err != nil {
		return decodeError(err)
	}
	if dec.More() {
		return apperr.New(apperr.BadRequest, "request.json_trailing")
	}
	if hasNUL(body) {
		return nulError(body)
	}
	return nil
}

// isJSON reports whether the media type of a Content-Type header is
// application/json or application/<something>+json.
func isJSON(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return false
	}
	sub, ok := strings.CutPrefix(mt, "application/")
	return ok && (sub == "json" || (strings.HasSuffix(sub, "+json") && len(sub) > len("+json")))
}

func decodeError(err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return apperr.New(apperr.TooLarge, "request.too_large", "limit", tooBig.Limit)
	case errors.Is(err, os.ErrDeadlineExceeded):
		return apperr.New(apperr.RequestTimeout, "request.body_timeout")
	case errors.Is(err, io.EOF):
		return apperr.New(apperr.BadRequest, "request.empty")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return apperr.New(apperr.BadRequest, "request.json_truncated")
	case errors.As(err, &syn):
		return apperr.New(apperr.BadRequest, "request.json_syntax", "offset", syn.Offset)
	case errors.As(err, &typ):
		want := jsonKind(typ.Type.Kind())
		if typ.Field == "" {
			return apperr.New(apperr.BadRequest, "request.json_body_type", "want", locale.Key(want), "got", typ.Value)
		}
		return apperr.New(apperr.BadRequest, "request.json_type", "field", typ.Field, "want", locale.Key(want), "got", typ.Value).
			WithField(typ.Field, "request.field_type", "want", locale.Key(want))
	default:
		return apperr.New(apperr.BadRequest, "request.unreadable")
	}
}

// Paging is the page and page size of a list request.
type Paging struct {
	Page    int
	PerPage int
}

// Offset is the number of rows before this page.
func (p Paging) Offset() int { return (p.Page - 1) * p.PerPage }

// Page limits: a page past MaxPage is refused rather than turned into an
// offset the database cannot use.
const (
	MaxPage    = 100000
	MaxPerPage = 100
)

// PageParams reads ?page= (default 1, at most MaxPage) and ?per_page=
// (default 20, at most MaxPerPage). A value that is not a whole number in
// range is Invalid naming the parameter.
func PageParams(r *http.Request) (Paging, error) {
	p := Paging{Page: 1, PerPage: 20}
	q := r.URL.Query()
	f := apperr.Fields{}
	if v := q.Get("page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > MaxPage {
			f.Add("page", "request.field_range", "min", 1, "max", MaxPage)
		} else {
			p.Page = n
		}
	}
	if v := q.Get("per_page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > MaxPerPage {
			f.Add("per_page", "request.field_range", "min", 1, "max", MaxPerPage)
		} else {
			p.PerPage = n
		}
	}
	if len(f) > 0 {
		return p, &apperr.Error{Code: apperr.Invalid, Msg: apperr.M("request.bad_paging"), Fields: f}
	}
	return p, nil
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
		return 0, apperr.New(apperr.NotFound, "request.id_not_found", "id", v)
	}
	return n, nil
}

// jsonKind names the JSON type a Go kind expects, as a catalogue key.
func jsonKind(k reflect.Kind) string {
	switch k {
	case reflect.Bool:
		return "type.boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "type.integer"
	case reflect.Float32, reflect.Float64:
		return "type.number"
	case reflect.String:
		return "type.string"
	case reflect.Slice, reflect.Array:
		return "type.array"
	default:
		return "type.object"
	}
}
