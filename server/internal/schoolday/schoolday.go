// Package schoolday is where Tatib's school days are anchored: the
// Asia/Jakarta zone, loaded once (with the zone database embedded, so the
// host's own zone files do not matter), and a school day's forms.
//
// A school day has two forms and no others:
//   - on the wire and in the database, YYYY-MM-DD (Layout; a date column);
//   - in Go, a time.Time at midnight UTC of that calendar date (Day, Today,
//     ParseDay), so AddDate, Weekday, comparisons and formatting give the
//     same day on any host, and a date column scans into the same form.
//
// An instant (a timestamptz, time.Now) becomes a school day through Day; a
// school day becomes the instant it starts in Jakarta through Start. Every
// package uses these rather than loading the zone or building midnights
// itself (a test keeps it so).
package schoolday

import (
	"time"
	_ "time/tzdata" // Asia/Jakarta whatever the host has
)

// zone is Asia/Jakarta (WIB, UTC+7 without daylight saving since 1964).
// It stays unexported: other packages reach it only through DateOf,
// Date.Start/At, In and Clock.
var zone = func() *time.Location {
	l, err := time.LoadLocation("Asia/Jakarta")
	if err != nil {
		return time.FixedZone("WIB", 7*3600)
	}
	return l
}()

// Layout is how a school day crosses the API and the database: 2026-11-27.
const Layout = time.DateOnly

// Of returns the school day (YYYY-MM-DD) that instant t falls on in Jakarta.
func Of(t time.Time) string { return t.In(zone).Format(Layout) }

// Day returns the school day that instant t falls on in Jakarta, as
// midnight UTC of that date.
func Day(t time.Time) time.Time {
	y, m, d := t.In(zone).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// ParseDay reads a YYYY-MM-DD school day as midnight UTC of that date.
func ParseDay(day string) (time.Time, error) { return time.Parse(Layout, day) }

// Start returns the instant school day d (any time.Time; only its date
// counts) starts in Jakarta.
func Start(d time.Time) time.Time {
	y, m, dd := d.Date()
	return time.Date(y, m, dd, 0, 0, 0, 0, zone)
}
