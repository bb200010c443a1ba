package pg

import (
	"database/sql"
	"database/sql/driver"
	"errors"
	"net"
	"strings"
	"syscall"

	"github.com/lib/pq"
)

// IsUnavailable reports whether err means the database cannot be reached
// right now (down, restarting, refusing connections, unreachable), as
// opposed to a fault in the statement or the data. Such errors are shown
// as "try again later" (503), not as a server fault.
func IsUnavailable(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, driver.ErrBadConn) || errors.Is(err, sql.ErrConnDone) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) {
		return true
	}
	var pe *pq.Error
	if errors.As(err, &pe) {
		switch {
		case pe.Code == "57P01", pe.Code == "57P02", pe.Code == "57P03", // shutting down, crashed, starting up
			pe.Code == "53300",                       // too many connections
			strings.HasPrefix(string(pe.Code), "08"): // connection exception
			return true
		}
		return false
	}
	// lib/pq reports a failed dial (refused, timed out, no route, unknown
	// host) as the dialer's *net.OpError.
	var oe *net.OpError
	return errors.As(err, &oe)
}
