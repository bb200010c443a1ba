// Package apperr is Tatib's application error: a code that decides the HTTP
// status, a message for people given as a catalogue key with parameters
// (rendered in the request's language by httpx, see package locale) and
// optional field errors in the same form.
package apperr

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/tatib/tatib/shared/api"
)

// Codes, shared with the API's wire format.
const (
	Invalid              = api.CodeInvalid
	BadRequest           = api.CodeBadRequest
	Unauthorized         = api.CodeUnauthorized
	Forbidden            = api.CodeForbidden
	NotFound             = api.CodeNotFound
	MethodNotAllowed     = api.CodeMethodNotAllowed
	Conflict             = api.CodeConflict
	TooLarge             = api.CodeTooLarge
	UnsupportedMediaType = api.CodeUnsupportedMediaType
	RequestTimeout       = api.CodeRequestTimeout
	RateLimited          = api.CodeRateLimited
	Internal             = api.CodeInternal
	Unavailable          = api.CodeUnavailable
)

// Msg is a message for people: a catalogue key and its named parameters.
type Msg struct {
	Key    string
	Params map[string]any
}

// M returns the message key with parameters given as name, value pairs:
// M("users.username_taken", "username", u).
func M(key string, kv ...any) Msg {
	return Msg{Key: key, Params: params(kv)}
}

func (m Msg) String() string {
	if len(m.Params) == 0 {
		return m.Key
	}
	names := make([]string, 0, len(m.Params))
	for k := range m.Params {
		names = append(names, k)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString(m.Key)
	for _, k := range names {
		fmt.Fprintf(&b, " %s=%v", k, m.Params[k])
	}
	return b.String()
}

func params(kv []any) map[string]any {
	if len(kv) < 2 {
		return nil
	}
	m := make(map[string]any, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		name, ok := kv[i].(string)
		if !ok {
			name = fmt.Sprint(kv[i])
		}
		m[name] = kv[i+1]
	}
	return m
}

// Error is an error a person can act on.
type Error struct {
	Code string
	// Msg is the message for people.
	Msg Msg
	// Fields are per-field messages of a form.
	Fields Fields
	// RetryAfter, in seconds, for RateLimited.
	RetryAfter int
}

func (e *Error) Error() string {
	if len(e.Fields) > 0 {
		names := make([]string, 0, len(e.Fields))
		for k := range e.Fields {
			names = append(names, k)
		}
		sort.Strings(names)
		parts := make([]string, len(names))
		for i, k := range names {
			parts[i] = k + ": " + e.Fields[k].String()
		}
		return fmt.Sprintf("%s: %s [%s]", e.Code, e.Msg, strings.Join(parts, "; "))
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Msg)
}

// New returns an Error with the message key and its parameters as name,
// value pairs.
func New(code, key string, kv ...any) *Error {
	return &Error{Code: code, Msg: M(key, kv...)}
}

// WithField adds a field message and returns e.
func (e *Error) WithField(field, key string, kv ...any) *Error {
	if e.Fields == nil {
		e.Fields = Fields{}
	}
	e.Fields.Add(field, key, kv...)
	return e
}

// Code returns the code of err, Internal for errors that carry none and ""
// for nil.
func Code(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return Internal
}

// Key returns the message key of err ("" when it carries none).
func Key(err error) string {
	if e, ok := As(err); ok {
		return e.Msg.Key
	}
	return ""
}

// As returns the *Error inside err, if any.
func As(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// Fields collects field errors for one form.
type Fields map[string]Msg

// Add records the message key for field unless the field already has one.
func (f Fields) Add(field, key string, kv ...any) {
	if _, ok := f[field]; !ok {
		f[field] = M(key, kv...)
	}
}

// Err returns an Invalid error when any field failed, else nil.
func (f Fields) Err() error {
	if len(f) == 0 {
		return nil
	}
	return &Error{Code: Invalid, Msg: M("form.invalid"), Fields: f}
}
