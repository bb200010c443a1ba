package schoolday

import (
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"testing"
	"time"
)

// inZones runs f with time.Local set to UTC and to zones on both sides of
// it (and to Jakarta itself): a school day must not depend on the host.
func inZones(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	saved := time.Local
	t.Cleanup(func() { time.Local = saved })
	for _, name := range []string{"UTC", "America/Los_Angeles", "Pacific/Kiritimati", "Asia/Jakarta"} {
		loc, err := time.LoadLocation(name)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) {
			time.Local = loc
			f(t)
		})
	}
}

func TestDateOf(t *testing.T) {
	inZones(t, func(t *testing.T) {
		for _, c := range []struct {
			at   time.Time
			want string
		}{
			// Midnight in Jakarta is 17:00 UTC the day before.
			{time.Date(2026, 11, 26, 16, 59, 59, 999999999, time.UTC), "2026-11-26"},
			{time.Date(2026, 11, 26, 17, 0, 0, 0, time.UTC), "2026-11-27"},
			{time.Date(2026, 11, 26, 23, 30, 0, 0, time.UTC), "2026-11-27"},
			{time.Date(2026, 11, 27, 16, 59, 0, 0, time.UTC), "2026-11-27"},
			// The zone t carries does not matter, only the instant.
			{time.Date(2026, 11, 27, 0, 0, 0, 0, time.Local), time.Date(2026, 11, 27, 0, 0, 0, 0, time.Local).In(zone).Format(Layout)},
			{time.Date(2026, 11, 26, 9, 0, 0, 0, time.FixedZone("PST", -8*3600)), "2026-11-27"},
			{time.Date(2026, 11, 27, 0, 0, 0, 0, time.FixedZone("WIB", 7*3600)), "2026-11-27"},
			{time.Date(2026, 11, 26, 23, 59, 0, 0, time.FixedZone("WIB", 7*3600)), "2026-11-26"},
			// Year and month ends, a leap day.
			{time.Date(2026, 12, 31, 17, 0, 0, 0, time.UTC), "2027-01-01"},
			{time.Date(2028, 2, 28, 17, 0, 0, 0, time.UTC), "2028-02-29"},
			{time.Date(2026, 3, 31, 18, 0, 0, 0, time.UTC), "2026-04-01"},
		} {
			d := DateOf(c.at)
			if d.String() != c.want {
				t.Errorf("DateOf(%s) = %s, want %s", c.at.Format(time.RFC3339Nano), d, c.want)
			}
			if d.String() != Of(c.at) {
				t.Errorf("DateOf(%s) = %s disagrees with Of %s", c.at.Format(time.RFC3339), d, Of(c.at))
			}
			if !c.at.Before(d.End()) || c.at.Before(d.Start()) {
				t.Errorf("%s is [%s, %s), %s is outside it", d, d.Start(), d.End(), c.at)
			}
		}
	})
}

func TestDateStartAndAt(t *testing.T) {
	inZones(t, func(t *testing.T) {
		d := NewDate(2026, 11, 27)
		for _, c := range []struct {
			got  time.Time
			want string
		}{
			{d.Start(), "2026-11-26T17:00:00Z"},
			{d.End(), "2026-11-27T17:00:00Z"},
			{d.At(7, 0), "2026-11-27T00:00:00Z"},
			{d.At(6, 59), "2026-11-26T23:59:00Z"},
			{d.At(23, 59), "2026-11-27T16:59:00Z"},
			{NewDate(2026, 12, 31).End(), "2026-12-31T17:00:00Z"},
		} {
			if s := c.got.UTC().Format(time.RFC3339); s != c.want {
				t.Errorf("got %s, want %s", s, c.want)
			}
		}
		if s := d.Start(); !s.Equal(DateFromDay(d.Time()).Start()) || DateOf(s) != d || DateOf(d.End().Add(-time.Nanosecond)) != d || DateOf(d.End()) != d.AddDays(1) {
			t.Errorf("Start %s / End %s do not bound %s", s, d.End(), d)
		}
		if h, m := Clock(d.At(13, 45)); h != 13 || m != 45 {
			t.Errorf("Clock(At(13, 45)) = %d:%d", h, m)
		}
		if h, m := Clock(time.Date(2026, 11, 26, 17, 5, 0, 0, time.UTC)); h != 0 || m != 5 {
			t.Errorf("Clock(17:05 UTC) = %d:%d, want 0:5", h, m)
		}
		if w := In(time.Date(2026, 11, 26, 17, 5, 0, 0, time.UTC)).Format("2006-01-02 15:04"); w != "2026-11-27 00:05" {
			t.Errorf("In: %s", w)
		}
	})
}

func TestParseDate(t *testing.T) {
	inZones(t, func(t *testing.T) {
		for _, c := range []struct {
			in   string
			want Date
			ok   bool
		}{
			{"2026-11-27", NewDate(2026, 11, 27), true},
			{"2028-02-29", NewDate(2028, 2, 29), true},
			{"0001-01-02", NewDate(1, 1, 2), true},
			{"2026-02-29", Date{}, false},
			{"2026-02-30", Date{}, false},
			{"2026-13-01", Date{}, false},
			{"2026-00-10", Date{}, false},
			{"2026-11-00", Date{}, false},
			{"2026-1-05", Date{}, false},
			{"2026-01-5", Date{}, false},
			{"26-01-05", Date{}, false},
			{"2026/01/05", Date{}, false},
			{"2026-01-05 ", Date{}, false},
			{" 2026-01-05", Date{}, false},
			{"2026-01-05T00:00:00Z", Date{}, false},
			{"05-01-2026", Date{}, false},
			{"", Date{}, false},
		} {
			d, err := ParseDate(c.in)
			if (err == nil) != c.ok || d != c.want {
				t.Errorf("ParseDate(%q) = %v, %v; want %v ok=%v", c.in, d, err, c.want, c.ok)
			}
			if c.ok && d.String() != c.in {
				t.Errorf("ParseDate(%q).String() = %q", c.in, d)
			}
		}
	})
}

func TestParseMonth(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Date
		ok   bool
	}{
		{"2026-11", NewDate(2026, 11, 1), true},
		{"2027-01", NewDate(2027, 1, 1), true},
		{"2026-13", Date{}, false},
		{"2026-00", Date{}, false},
		{"2026-1", Date{}, false},
		{"+026-01", Date{}, false},
		{"2026-11-01", Date{}, false},
		{"2026-11 ", Date{}, false},
		{"", Date{}, false},
	} {
		d, err := ParseMonth(c.in)
		if (err == nil) != c.ok || d != c.want {
			t.Errorf("ParseMonth(%q) = %v, %v; want %v ok=%v", c.in, d, err, c.want, c.ok)
		}
		if c.ok && d.MonthString() != c.in {
			t.Errorf("ParseMonth(%q).MonthString() = %q", c.in, d.MonthString())
		}
	}
	if (Date{}).MonthString() != "" || NewDate(2026, 12, 31).MonthString() != "2026-12" {
		t.Error("MonthString")
	}
}

func TestDateArithmetic(t *testing.T) {
	inZones(t, func(t *testing.T) {
		d := MustParseDate("2026-11-27") // a Friday
		for _, c := range []struct {
			got  Date
			want string
		}{
			{d.AddDays(0), "2026-11-27"},
			{d.AddDays(1), "2026-11-28"},
			{d.AddDays(-27), "2026-10-31"},
			{d.AddDays(35), "2027-01-01"},
			{d.AddDate(0, 3, 2), "2027-03-01"}, // 29 Feb 2027 does not exist
			{d.AddDate(1, 0, 0), "2027-11-27"},
			{d.AddDate(0, -10, -27), "2025-12-31"}, // 2026-01-00,
			{NewDate(2026, 4, 31), "2026-05-01"},
			{NewDate(2028, 2, 28).AddDays(1), "2028-02-29"},
			{d.Monday(), "2026-11-23"},
			{d.AddDays(2).Monday(), "2026-11-23"}, // a Sunday: the week that began six days before
			{d.AddDays(3).Monday(), "2026-11-30"}, // a Monday: itself
			{MustParseDate("2027-01-01").Monday(), "2026-12-28"},
			{d.FirstOfMonth(), "2026-11-01"},
			{MustParseDate("2028-02-29").FirstOfMonth(), "2028-02-01"},
		} {
			if c.got.String() != c.want {
				t.Errorf("got %s, want %s", c.got, c.want)
			}
		}
		if d.Weekday() != time.Friday || d.AddDays(2).Weekday() != time.Sunday {
			t.Errorf("Weekday: %s, %s", d.Weekday(), d.AddDays(2).Weekday())
		}
		if y, m, dd := d.Date(); y != 2026 || m != time.November || dd != 27 || d.Year() != 2026 || d.Month() != time.November || d.Day() != 27 {
			t.Errorf("Date: %d %s %d", y, m, dd)
		}
		if n := d.AddDays(40).DaysSince(d); n != 40 {
			t.Errorf("DaysSince: %d", n)
		}
		if n := MustParseDate("9999-12-31").DaysSince(MustParseDate("0001-01-01")); n != 3652058 {
			t.Errorf("DaysSince across the calendar: %d", n)
		}
		if n := d.AddDays(-3).DaysSince(d); n != -3 {
			t.Errorf("DaysSince: %d", n)
		}
		e := d.AddDays(1)
		if !d.Before(e) || d.After(e) || !e.After(d) || e.Before(d) || d.Equal(e) || !d.Equal(MustParseDate("2026-11-27")) {
			t.Error("Before/After/Equal")
		}
		if d.Compare(e) != -1 || e.Compare(d) != 1 || d.Compare(d) != 0 {
			t.Error("Compare")
		}
		// Dates are comparable with == and usable as map keys.
		if m := map[Date]int{d: 1}; m[DateOf(d.Start())] != 1 || m[MustParseDate("2026-11-27")] != 1 {
			t.Error("map key")
		}
		if d.Time() != time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC) {
			t.Errorf("Time: %s", d.Time())
		}
	})
}

func TestDateZero(t *testing.T) {
	var z Date
	if !z.IsZero() || z.String() != "" || MustParseDate("0001-01-02").IsZero() || DateFromDay(time.Time{}) != z {
		t.Errorf("zero: %q", z)
	}
	if b, _ := json.Marshal(z); string(b) != "null" {
		t.Errorf("zero JSON: %s", b)
	}
	if v, err := z.Value(); v != nil || err != nil {
		t.Errorf("zero Value: %v %v", v, err)
	}
	if b, _ := z.MarshalText(); len(b) != 0 {
		t.Errorf("zero text: %q", b)
	}
}

func TestDateJSON(t *testing.T) {
	inZones(t, func(t *testing.T) {
		type row struct {
			On   Date  `json:"on"`
			Off  Date  `json:"off"`
			Opt  *Date `json:"opt,omitempty"`
			Keys map[Date]int
		}
		in := row{On: MustParseDate("2026-11-27"), Keys: map[Date]int{MustParseDate("2026-01-02"): 3}}
		b, err := json.Marshal(in)
		if err != nil || string(b) != `{"on":"2026-11-27","off":null,"Keys":{"2026-01-02":3}}` {
			t.Fatalf("Marshal: %s %v", b, err)
		}
		var out row
		if err := json.Unmarshal(b, &out); err != nil || out.On != in.On || !out.Off.IsZero() || out.Keys[in.On.AddDays(-329)] != 3 {
			t.Fatalf("Unmarshal: %+v %v", out, err)
		}
		for _, c := range []struct {
			in   string
			want Date
			ok   bool
		}{
			{`"2026-11-27"`, MustParseDate("2026-11-27"), true},
			{`null`, Date{}, true},
			{`""`, Date{}, true},
			{`"2026-11-27T00:00:00Z"`, Date{}, false},
			{`"2026-02-30"`, Date{}, false},
			{`20261127`, Date{}, false},
			{`"27-11-2026"`, Date{}, false},
		} {
			d := MustParseDate("1999-09-09") // overwritten whatever comes
			err := json.Unmarshal([]byte(c.in), &d)
			if (err == nil) != c.ok || (c.ok && d != c.want) {
				t.Errorf("Unmarshal(%s) = %v, %v", c.in, d, err)
			}
		}
	})
}

func TestDateSQL(t *testing.T) {
	inZones(t, func(t *testing.T) {
		want := MustParseDate("2026-11-27")
		for _, c := range []struct {
			src  any
			want Date
			ok   bool
		}{
			// lib/pq: a date column is a time.Time at midnight of its date
			// (UTC or a zero-offset fixed zone); only the date counts.
			{time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC), want, true},
			{time.Date(2026, 11, 27, 0, 0, 0, 0, time.FixedZone("", 0)), want, true},
			{time.Date(2026, 11, 27, 0, 0, 0, 0, time.Local), want, true},
			{[]byte("2026-11-27"), want, true},
			{"2026-11-27", want, true},
			{nil, Date{}, true},
			{[]byte("2026-11-27 00:00:00"), Date{}, false},
			{"infinity", Date{}, false},
			{int64(20261127), Date{}, false},
		} {
			d := MustParseDate("1999-09-09")
			err := d.Scan(c.src)
			if (err == nil) != c.ok || (c.ok && d != c.want) {
				t.Errorf("Scan(%#v) = %v, %v", c.src, d, err)
			}
		}
		var _ sql.Scanner = (*Date)(nil)
		var _ driver.Valuer = Date{}
		if v, err := want.Value(); v != "2026-11-27" || err != nil {
			t.Errorf("Value: %#v %v", v, err)
		}
	})
}
