package attendancerecap

import (
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/shared/api"
)

// 23:30 UTC on Sunday 9 Nov is Monday 10 Nov in Jakarta: today, this week
// and this month are Jakarta's.
func TestParsePeriodDefaultsToJakarta(t *testing.T) {
	now := time.Date(2025, 11, 9, 23, 30, 0, 0, time.UTC)
	for _, c := range []struct{ query, from, to string }{
		{"", "2025-11-10", "2025-11-10"},
		{"period=weekly", "2025-11-10", "2025-11-16"},
		{"period=weekly&date=2025-11-09", "2025-11-03", "2025-11-09"},
		{"period=monthly&date=2025-11-30", "2025-11-01", "2025-11-30"},
	} {
		q, _ := url.ParseQuery(c.query)
		p, err := ParsePeriod(q, now)
		if err != nil {
			t.Fatalf("%s: %v", c.query, err)
		}
		if got := p.From.String() + ".." + p.To.String(); got != c.from+".."+c.to {
			t.Errorf("%q: %s, want %s..%s", c.query, got, c.from, c.to)
		}
	}
	m, err := ParseMonth(url.Values{}, time.Date(2025, 12, 31, 17, 0, 0, 0, time.UTC))
	if err != nil || m.MonthString() != "2026-01" {
		t.Errorf("month at 17:00 UTC on 31 Dec: %s %v", m.MonthString(), err)
	}
	if _, err := ParsePeriod(url.Values{"period": {"daily"}, "date": {"2025-11-31"}}, now); apperr.Code(err) != apperr.Invalid {
		t.Errorf("31 Nov: %v", err)
	}
}

func TestPercentageAndCells(t *testing.T) {
	for _, c := range []struct {
		c    api.AttendanceCounts
		want string
	}{
		{api.AttendanceCounts{}, "null"},
		{api.AttendanceCounts{H: 2, A: 1}, "66.7"},
		{api.AttendanceCounts{H: 1, T: 1}, "100.0"},
		{api.AttendanceCounts{S: 3}, "0.0"},
		{api.AttendanceCounts{H: 1, A: 7}, "12.5"},
	} {
		got := "null"
		if p := Percentage(c.c); p != nil {
			got = strconv.FormatFloat(*p, 'f', 1, 64)
		}
		if got != c.want {
			t.Errorf("%+v: %s, want %s", c.c, got, c.want)
		}
	}
	if compact(api.AttendanceCounts{H: 8, A: 2}) != "H8 A2" || compact(api.AttendanceCounts{}) != "" {
		t.Error("compact cell")
	}
	used := map[string]bool{}
	if a, b := sheetName("X/RPL:1", used), sheetName("x/rpl:1", used); a != "X-RPL-1" || b != "x-rpl-1 (2)" {
		t.Errorf("sheet names %q %q", a, b)
	}
	if slug("XII TKJ 2 (Pagi)") != "xii-tkj-2-pagi" {
		t.Errorf("slug %q", slug("XII TKJ 2 (Pagi)"))
	}
}
