// Package apperr is Tatib's application error: a code, a message for people
// and optional field errors. Feature code returns these; one function in
// httpx turns a code into an HTTP status.
package apperr

import (
	"errors"
	"fmt"

	"github.com/tatib/tatib/shared/api"
)

// Codes, shared with the API's wire format.
const (
	Invalid      = api.CodeInvalid
	BadRequest   = api.CodeBadRequest
	Unauthorized = api.CodeUnauthorized
	Forbidden    = api.CodeForbidden
	NotFound     = api.CodeNotFound
	Conflict     = api.CodeConflict
	TooLarge     = api.CodeTooLarge
	RateLimited  = api.CodeRateLimited
	Internal     = api.CodeInternal
	Unavailable  = api.CodeUnavailable
)

// Error is an error a person can act on.
type Error struct {
	Code    string
	Message string
	Fields  map[string]string
	// RetryAfter, in seconds, for RateLimited.
	RetryAfter int
}

func (e *Error) Error() string {
	if len(e.Fields) > 0 {
		return fmt.Sprintf("%s: %s %v", e.Code, e.Message, e.Fields)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

// New returns an Error with a formatted message.
func New(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
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

// As returns the *Error inside err, if any.
func As(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// Fields collects field errors for one form.
type Fields map[string]string

// Add records msg for field unless the field already has a message.
func (f Fields) Add(field, msg string) {
	if _, ok := f[field]; !ok {
		f[field] = msg
	}
}

// Err returns an Invalid error when any field failed, else nil.
func (f Fields) Err() error {
	if len(f) == 0 {
		return nil
	}
	return &Error{Code: Invalid, Message: "Data tidak valid. Periksa isian yang ditandai.", Fields: f}
}
