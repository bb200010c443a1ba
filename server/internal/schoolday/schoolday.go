// Package schoolday is where Tatib's school days are anchored: the
// Asia/Jakarta zone, loaded once (with the zone database embedded, so the
// host's own zone files do not matter), and a school day's form on the wire,
// YYYY-MM-DD. Every package that turns an instant into a school day, or a
// day into instants, uses Zone rather than loading the zone itself (a test
// keeps it so).
package schoolday

import (
	"time"
	_ "time/tzdata" // Asia/Jakarta whatever the host has
)

// Zone is Asia/Jakarta (WIB, UTC+7 without daylight saving since 1964).
var Zone = func() *time.Location {
	l, err := time.LoadLocation("Asia/Jakarta")
	if err != nil {
		return time.FixedZone("WIB", 7*3600)
	}
	return l
}()

// Layout is how a school day crosses the API and the database: 2026-11-27.
const Layout = time.DateOnly

// Of returns the school day (YYYY-MM-DD) that instant t falls on in Jakarta.
func Of(t time.Time) string { return t.In(Zone).Format(Layout) }

// Midnight returns the start of t's school day, in Zone.
func Midnight(t time.Time) time.Time {
	y, m, d := t.In(Zone).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, Zone)
}

// Parse reads a YYYY-MM-DD school day as its Jakarta midnight.
func Parse(day string) (time.Time, error) { return time.ParseInLocation(Layout, day, Zone) }
