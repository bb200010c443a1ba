package attendancerecap

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/shared/api"
)

// DayRuleKey is the settings table's key of the school's day rule.
const DayRuleKey = "attendance_day_rule"

// dayStatusSQL classifies one attendance_days row d by the rule in the
// query's parameter $N (migration 00113: attendance_day_status).
func dayStatusSQL(n int) string {
	return fmt.Sprintf("attendance_day_status(d.h, d.s, d.i, d.a, d.t, $%d)", n)
}

// storedDayRule is the setting's stored value.
type storedDayRule struct {
	Rule string `json:"rule"`
}

// LoadDayRule reads the school's day rule: majority when none was saved
// (or what is stored is not a rule, say by a hand edit).
func LoadDayRule(ctx context.Context, q sqlx.QueryerContext) (api.AttendanceDayRuleSetting, error) {
	out := api.AttendanceDayRuleSetting{Rule: api.DayRuleMajority}
	var row struct {
		Value     []byte    `db:"value"`
		UpdatedAt time.Time `db:"updated_at"`
	}
	err := sqlx.GetContext(ctx, q, &row, `SELECT value, updated_at FROM settings WHERE key = $1`, DayRuleKey)
	if errors.Is(err, sql.ErrNoRows) {
		return out, nil
	}
	if err != nil {
		return out, fmt.Errorf("attendancerecap: load day rule: %w", err)
	}
	var v storedDayRule
	if err := json.Unmarshal(row.Value, &v); err == nil && slices.Contains(api.DayRules, v.Rule) {
		out.Rule = v.Rule
	}
	out.UpdatedAt = &row.UpdatedAt
	return out, nil
}

// SaveDayRule validates and stores the day rule, audited with the rule
// before and after. Saving the same rule again is a no-op (no audit entry).
func SaveDayRule(ctx context.Context, db *sqlx.DB, actor audit.Actor, in api.AttendanceDayRuleSetting) (api.AttendanceDayRuleSetting, error) {
	rule := strings.TrimSpace(in.Rule)
	if !slices.Contains(api.DayRules, rule) {
		return api.AttendanceDayRuleSetting{}, apperr.New(apperr.Invalid, "form.invalid").
			WithField("rule", "attendancerecap.day_rule", "rules", strings.Join(api.DayRules, ", "))
	}
	var out api.AttendanceDayRuleSetting
	err := pg.InTx(ctx, db, func(tx *sqlx.Tx) error {
		// Two saves at once: the second reads what the first stored, so the
		// audit's "before" is always true.
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtext('tatib.settings.attendance_day_rule'))`); err != nil {
			return fmt.Errorf("attendancerecap: lock day rule: %w", err)
		}
		before, err := LoadDayRule(ctx, tx)
		if err != nil {
			return err
		}
		if before.Rule == rule && before.UpdatedAt != nil {
			out = before
			return nil
		}
		b, err := json.Marshal(storedDayRule{Rule: rule})
		if err != nil {
			return fmt.Errorf("attendancerecap: encode day rule: %w", err)
		}
		var by *int64
		if actor.ID != 0 {
			by = &actor.ID
		}
		const q = `INSERT INTO settings (key, value, updated_at, updated_by) VALUES ($1, $2, now(), $3)
			ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now(), updated_by = EXCLUDED.updated_by
			RETURNING updated_at`
		var at time.Time
		if err := tx.GetContext(ctx, &at, q, DayRuleKey, string(b), by); err != nil {
			return fmt.Errorf("attendancerecap: save day rule: %w", err)
		}
		if err := audit.Record(ctx, tx, actor, "settings.attendance_day_rule.update", "setting", DayRuleKey,
			map[string]any{"before": before.Rule, "after": rule}); err != nil {
			return err
		}
		out = api.AttendanceDayRuleSetting{Rule: rule, UpdatedAt: &at}
		return nil
	})
	return out, err
}

// SemesterSpan is one half of an academic year: Year is the academic year's
// first calendar year (2026 = 2026/2027), Number 1 or 2, From..To its days.
type SemesterSpan struct {
	Year, Number int
	From, To     schoolday.Date
}

// AcademicYear is "2026/2027".
func (s SemesterSpan) AcademicYear() string { return fmt.Sprintf("%d/%d", s.Year, s.Year+1) }

// addMonths is t moved by n calendar months, the day kept or, in a shorter
// month, its last day (31 August + 6 months = 28 or 29 February).
func addMonths(t schoolday.Date, n int) schoolday.Date {
	y, m, d := t.Date()
	first := schoolday.NewDate(y, m+time.Month(n), 1)
	last := first.AddDate(0, 1, -1).Day()
	return schoolday.NewDate(first.Year(), first.Month(), min(d, last))
}

// SemesterBounds is semester n (1 or 2) of academic year y: semester 1
// runs six months from the school's academic-year start (1 July: July to
// December), semester 2 the six months after (January to June).
func SemesterBounds(prof school.Profile, y, n int) SemesterSpan {
	start := prof.YearStart(y)
	mid := addMonths(start, 6)
	if n == 2 {
		return SemesterSpan{Year: y, Number: 2, From: mid, To: addMonths(start, 12).AddDays(-1)}
	}
	return SemesterSpan{Year: y, Number: 1, From: start, To: mid.AddDays(-1)}
}

// SemesterOf is the semester containing day d.
func SemesterOf(prof school.Profile, d schoolday.Date) SemesterSpan {
	y := d.Year()
	if d.Before(prof.YearStart(y)) {
		y--
	}
	if s := SemesterBounds(prof, y, 1); !d.After(s.To) {
		return s
	}
	return SemesterBounds(prof, y, 2)
}

// SemesterQuery is a requested semester: zero Year and Number mean the one
// containing Jakarta's today.
type SemesterQuery struct {
	Year, Number int
}

var yearRE = regexp.MustCompile(`^(\d{4})(?:/(\d{4}))?$`)

// ParseSemester reads year (the academic year's first calendar year,
// "2026", or "2026/2027") and semester (1 or 2). Both absent: the current
// semester; one without the other, or either malformed: 422.
func ParseSemester(q url.Values) (SemesterQuery, error) {
	ys, ss := strings.TrimSpace(q.Get("year")), strings.TrimSpace(q.Get("semester"))
	if ys == "" && ss == "" {
		return SemesterQuery{}, nil
	}
	f := apperr.Fields{}
	var out SemesterQuery
	switch m := yearRE.FindStringSubmatch(ys); {
	case ys == "":
		f.Add("year", "attendancerecap.academic_year")
	case m == nil:
		f.Add("year", "attendancerecap.academic_year")
	default:
		y, _ := strconv.Atoi(m[1])
		if m[2] != "" {
			if y2, _ := strconv.Atoi(m[2]); y2 != y+1 {
				f.Add("year", "attendancerecap.academic_year")
				break
			}
		}
		if y < minYear || y > maxYear {
			f.Add("year", "attendancerecap.year", "min", strconv.Itoa(minYear), "max", strconv.Itoa(maxYear))
			break
		}
		out.Year = y
	}
	switch ss {
	case "1":
		out.Number = 1
	case "2":
		out.Number = 2
	default:
		f.Add("semester", "attendancerecap.semester")
	}
	if err := f.Err(); err != nil {
		return SemesterQuery{}, err
	}
	return out, nil
}

// resolve is the semester asked for, by the profile; the current one
// (Jakarta's today) when none was named.
func (q SemesterQuery) resolve(prof school.Profile, now time.Time) SemesterSpan {
	if q.Year == 0 {
		return SemesterOf(prof, schoolday.DateOf(now))
	}
	return SemesterBounds(prof, q.Year, q.Number)
}
