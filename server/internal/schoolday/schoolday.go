// Package schoolday is where Tatib's school days are anchored: the
// Asia/Jakarta zone, loaded once and unexported (with the zone database
// embedded, so the host's own zone files do not matter), and a school
// day's forms.
//
// A school day has two forms:
//   - on the wire and in the database, YYYY-MM-DD (Layout; a date column;
//     shared/api carries dates as strings);
//   - in Go, a Date: a calendar day with no zone of its own (DateOf, Today,
//     ParseDate, NewDate). It compares with ==, counts days with AddDays,
//     AddDate and DaysSince, formats with String, reads and writes JSON and
//     text as YYYY-MM-DD, scans a date column and goes to SQL as
//     YYYY-MM-DD.
//
// An instant (a timestamptz, time.Now) becomes a school day through DateOf
// (Of for its YYYY-MM-DD); a Date becomes an instant through Start (its
// 00:00 WIB), End (the next day's Start) or At (a wall-clock time on it).
// Where a package needs the Jakarta wall clock of an instant (an hour on a
// document, a time of day for a schedule), In and Clock give it.
// No package loads or builds the zone itself: a test keeps it so.
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
