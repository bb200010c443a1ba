package pg

import (
	"errors"
	"log/slog"
	"regexp"
	"strings"

	"github.com/lib/pq"
)

// Classes of SQLSTATE whose messages name only things from the statement's
// text or the schema (constraints, columns, relations, types), never a
// value: kept whole. The values of an integrity violation are in its
// Detail, which pq.Error's text leaves out.
var keptClasses = map[string]bool{
	"08": true, // connection exception
	"0A": true, // feature not supported
	"23": true, // integrity constraint violation
	"25": true, // invalid transaction state
	"28": true, // invalid authorization
	"3D": true, // invalid catalog name
	"40": true, // serialization failure, deadlock
	"42": true, // syntax error or access rule violation
	"53": true, // insufficient resources
	"55": true, // object not in prerequisite state (lock not available)
	"57": true, // operator intervention (shutdown, cancel)
}

var quoted = regexp.MustCompile(`"[^"]*"`)

// Redact returns err's text fit for a log: the messages of PostgreSQL's
// errors that may quote a parameter's value (invalid input syntax for
// type bigint: "…", value "…" is out of range) lose the value, and every
// database error says its SQLSTATE. A parameter may be a session token's
// hash or a student's data; the log keeps neither.
func Redact(err error) string {
	if err == nil {
		return ""
	}
	s := err.Error()
	var pe *pq.Error
	if !errors.As(err, &pe) {
		return s
	}
	msg := pe.Message
	if !keptClasses[string(pe.Code.Class())] {
		msg, _, _ = strings.Cut(msg, ": ")
		msg = quoted.ReplaceAllString(msg, `"…"`)
	}
	safe := "pq: " + msg + " (SQLSTATE " + string(pe.Code) + " " + pe.Code.Name() + ")"
	if full := pe.Error(); strings.Contains(s, full) {
		return strings.ReplaceAll(s, full, safe)
	}
	return safe
}

// RedactAttr is a slog ReplaceAttr that logs every error value through
// Redact.
func RedactAttr(_ []string, a slog.Attr) slog.Attr {
	if a.Value.Kind() != slog.KindAny {
		return a
	}
	if err, ok := a.Value.Any().(error); ok {
		return slog.String(a.Key, Redact(err))
	}
	return a
}
