package schoolday

import (
	"bytes"
	"database/sql/driver"
	"fmt"
	"time"
)

// Date is a school day: a calendar date in Jakarta, with no time of day and
// no zone of its own. It holds midnight UTC of that date, so Dates compare
// with == and give the same day on any host. The zero Date is no day at
// all: IsZero reports it, String gives "", JSON gives null and SQL NULL.
type Date struct{ t time.Time }

// NewDate returns the school day y-m-d, normalised as time.Date does
// (31 April is 1 May).
func NewDate(y int, m time.Month, d int) Date { return Date{time.Date(y, m, d, 0, 0, 0, 0, time.UTC)} }

// DateOf returns the school day instant t falls on in Jakarta.
func DateOf(t time.Time) Date { return NewDate(t.In(zone).Date()) }

// Today is the school day it is now in Jakarta.
func Today() Date { return DateOf(time.Now()) }

// DateFromDay returns the school day of a calendar date held as a
// time.Time (a date column, midnight UTC): only its date in its own
// location counts, never the instant.
func DateFromDay(t time.Time) Date {
	if t.IsZero() {
		return Date{}
	}
	return NewDate(t.Date())
}

// ParseDate reads a school day written YYYY-MM-DD, strictly: four-digit
// year, two-digit month and day, a real date, nothing around it.
func ParseDate(s string) (Date, error) {
	t, err := time.Parse(Layout, s)
	if err != nil || len(s) != len(Layout) {
		return Date{}, fmt.Errorf("schoolday: %q is not a YYYY-MM-DD date", s)
	}
	return Date{t}, nil
}

// MonthLayout is how a month crosses the API: 2026-11.
const MonthLayout = "2006-01"

// ParseMonth reads a month written YYYY-MM, strictly (four-digit year,
// two-digit month, nothing around it), as its first day.
func ParseMonth(s string) (Date, error) {
	t, err := time.Parse(MonthLayout, s)
	if err != nil || len(s) != len(MonthLayout) {
		return Date{}, fmt.Errorf("schoolday: %q is not a YYYY-MM month", s)
	}
	return Date{t}, nil
}

// MustParseDate is ParseDate for constants and tests; it panics on a bad date.
func MustParseDate(s string) Date {
	d, err := ParseDate(s)
	if err != nil {
		panic(err)
	}
	return d
}

// IsZero reports whether d is the zero Date (no day).
func (d Date) IsZero() bool { return d.t.IsZero() }

// String is d as YYYY-MM-DD, or "" for the zero Date.
func (d Date) String() string {
	if d.IsZero() {
		return ""
	}
	return d.t.Format(Layout)
}

// MonthString is d's month as YYYY-MM, or "" for the zero Date.
func (d Date) MonthString() string {
	if d.IsZero() {
		return ""
	}
	return d.t.Format(MonthLayout)
}

// Time is d as midnight UTC of its date, for a library that takes a
// time.Time (a spreadsheet date cell, a month's layout): a calendar date,
// not the instant the day starts (that is Start).
func (d Date) Time() time.Time { return d.t }

// Date returns d's year, month and day.
func (d Date) Date() (year int, month time.Month, day int) { return d.t.Date() }

// Year, Month and Day are d's calendar parts.
func (d Date) Year() int             { return d.t.Year() }
func (d Date) Month() time.Month     { return d.t.Month() }
func (d Date) Day() int              { return d.t.Day() }
func (d Date) Weekday() time.Weekday { return d.t.Weekday() }

// Start is the instant d begins in Jakarta (its 00:00 WIB).
func (d Date) Start() time.Time { return d.At(0, 0) }

// End is the instant d ends in Jakarta: the start of the next day.
func (d Date) End() time.Time { return d.AddDays(1).Start() }

// At is the instant of wall-clock hour:min on d in Jakarta.
func (d Date) At(hour, min int) time.Time {
	y, m, dd := d.t.Date()
	return time.Date(y, m, dd, hour, min, 0, 0, zone)
}

// In returns instant t as Jakarta's wall clock shows it, for formatting an
// hour or a date in a document (the same instant; only its zone differs).
func In(t time.Time) time.Time { return t.In(zone) }

// Clock returns the hour and minute Jakarta's wall clock shows at instant t.
func Clock(t time.Time) (hour, min int) {
	h, m, _ := t.In(zone).Clock()
	return h, m
}

// AddDays returns the day n days after d (before, for negative n).
func (d Date) AddDays(n int) Date { return Date{d.t.AddDate(0, 0, n)} }

// AddDate adds years, months and days as time.AddDate does.
func (d Date) AddDate(years, months, days int) Date { return Date{d.t.AddDate(years, months, days)} }

// Monday is the Monday of d's week: a school week runs Monday to Sunday,
// so a Sunday belongs to the week that started six days before it.
func (d Date) Monday() Date { return d.AddDays(-((int(d.Weekday()) + 6) % 7)) }

// FirstOfMonth is the first day of d's month.
func (d Date) FirstOfMonth() Date { return NewDate(d.Year(), d.Month(), 1) }

// DaysSince returns the number of days from e to d (negative when d is
// earlier).
func (d Date) DaysSince(e Date) int { return int((d.t.Unix() - e.t.Unix()) / 86400) }

// Before, After, Equal and Compare order days.
func (d Date) Before(e Date) bool { return d.t.Before(e.t) }
func (d Date) After(e Date) bool  { return d.t.After(e.t) }
func (d Date) Equal(e Date) bool  { return d.t.Equal(e.t) }
func (d Date) Compare(e Date) int { return d.t.Compare(e.t) }

// MarshalText writes YYYY-MM-DD ("" for the zero Date).
func (d Date) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText reads YYYY-MM-DD; "" is the zero Date.
func (d *Date) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*d = Date{}
		return nil
	}
	v, err := ParseDate(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// MarshalJSON writes "YYYY-MM-DD", or null for the zero Date.
func (d Date) MarshalJSON() ([]byte, error) {
	if d.IsZero() {
		return []byte("null"), nil
	}
	return []byte(`"` + d.String() + `"`), nil
}

// UnmarshalJSON reads "YYYY-MM-DD"; null and "" are the zero Date.
func (d *Date) UnmarshalJSON(b []byte) error {
	if bytes.Equal(b, []byte("null")) {
		*d = Date{}
		return nil
	}
	if len(b) < 2 || b[0] != '"' || b[len(b)-1] != '"' {
		return fmt.Errorf("schoolday: date %s is not a string", b)
	}
	return d.UnmarshalText(b[1 : len(b)-1])
}

// Scan reads a date column: lib/pq hands it over as a time.Time at
// midnight (its calendar date counts, not the instant), and a driver may
// hand over YYYY-MM-DD as text; NULL is the zero Date.
func (d *Date) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*d = Date{}
		return nil
	case time.Time:
		*d = DateFromDay(v)
		return nil
	case []byte:
		return d.scanText(string(v))
	case string:
		return d.scanText(v)
	}
	return fmt.Errorf("schoolday: cannot scan %T into a Date", src)
}

func (d *Date) scanText(s string) error {
	v, err := ParseDate(s)
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// Value writes d as YYYY-MM-DD for a date parameter, or NULL for the zero
// Date.
func (d Date) Value() (driver.Value, error) {
	if d.IsZero() {
		return nil, nil
	}
	return d.String(), nil
}
