package demo

import (
	"context"
	"fmt"
	"log/slog"
	"math"

	"github.com/jmoiron/sqlx"
)

// Figures are what a principal looks at first on the demo school:
// how many students hold a letter, how long the counselors' and homeroom
// teachers' queues are, and the attendance rates of the demo's days.
// Printed once the demo has loaded, and what the demo tests bound.
type Figures struct {
	Students int // active
	// WithLetter is the number of active students holding a live (not
	// withdrawn) warning letter; Levels[k] those whose highest live
	// letter is SP k+1.
	WithLetter int
	Levels     [3]int
	// OpenBehaviour is the counselors' queue: unhandled violations that
	// are not automatic attendance ones; OpenAttendance the homeroom
	// teachers' follow-ups (unhandled automatic alpha and late ones).
	OpenBehaviour  int
	OpenAttendance int
	// Lesson hours of the period (From..To) by status, and student-days.
	From, To                          string
	Hours, H, S, I, A, T              int
	StudentDays, LateDays, SIDays     int
	WholeSIDays, AlphaStudents, Dates int
}

// Pct is part of whole in per cent, one decimal.
func Pct(part, whole int) float64 {
	if whole == 0 {
		return 0
	}
	return math.Round(float64(part)*1000/float64(whole)) / 10
}

// LoadFigures reads the figures, the attendance ones over the dates
// from..to (YYYY-MM-DD).
func LoadFigures(ctx context.Context, q sqlx.QueryerContext, from, to string) (Figures, error) {
	f := Figures{From: from, To: to}
	const qs = `SELECT (SELECT count(*) FROM students WHERE active),
		    (SELECT count(*) FROM violations WHERE handling_status = 'unhandled' AND auto_kind IS NULL),
		    (SELECT count(*) FROM violations WHERE handling_status = 'unhandled' AND auto_kind IS NOT NULL)`
	if err := q.QueryRowxContext(ctx, qs).Scan(&f.Students, &f.OpenBehaviour, &f.OpenAttendance); err != nil {
		return f, fmt.Errorf("school: demo figures: %w", err)
	}
	var levels []struct {
		Level    int `db:"level"`
		Students int `db:"students"`
	}
	const ql = `SELECT level, count(*) AS students FROM (
		    SELECT w.student_id, max(w.level) AS level FROM warning_letters w JOIN students s ON s.id = w.student_id AND s.active
		    WHERE w.status <> 'withdrawn' GROUP BY w.student_id) l
		GROUP BY level`
	if err := sqlx.SelectContext(ctx, q, &levels, ql); err != nil {
		return f, fmt.Errorf("school: demo figures: letters: %w", err)
	}
	for _, l := range levels {
		f.WithLetter += l.Students
		f.Levels[min(max(l.Level, 1), len(f.Levels))-1] += l.Students
	}
	const qa = `SELECT COALESCE(sum(h + s + i + a + t), 0), COALESCE(sum(h), 0), COALESCE(sum(s), 0), COALESCE(sum(i), 0),
		    COALESCE(sum(a), 0), COALESCE(sum(t), 0), count(*), count(*) FILTER (WHERE t > 0),
		    count(*) FILTER (WHERE s + i > 0), count(*) FILTER (WHERE s + i > 0 AND h + a + t = 0 AND (s = 0 OR i = 0)),
		    count(DISTINCT student_id) FILTER (WHERE a > 0), count(DISTINCT date)
		FROM attendance_days WHERE date BETWEEN $1::date AND $2::date`
	if err := q.QueryRowxContext(ctx, qa, from, to).Scan(&f.Hours, &f.H, &f.S, &f.I, &f.A, &f.T, &f.StudentDays, &f.LateDays,
		&f.SIDays, &f.WholeSIDays, &f.AlphaStudents, &f.Dates); err != nil {
		return f, fmt.Errorf("school: demo figures: attendance: %w", err)
	}
	return f, nil
}

// LogValue prints the figures as one log record's group.
func (f Figures) LogValue() slog.Value {
	return slog.GroupValue(
		slog.Int("students", f.Students),
		slog.Float64("with_live_letter_pct", Pct(f.WithLetter, f.Students)),
		slog.Int("sp1", f.Levels[0]), slog.Int("sp2", f.Levels[1]), slog.Int("sp3", f.Levels[2]),
		slog.Int("open_behaviour", f.OpenBehaviour), slog.Int("open_attendance", f.OpenAttendance),
		slog.String("days", f.From+".."+f.To),
		slog.Float64("present_pct", Pct(f.H, f.Hours)), slog.Float64("alpha_pct", Pct(f.A, f.Hours)),
		slog.Float64("late_pct", Pct(f.T, f.Hours)), slog.Float64("sick_pct", Pct(f.S, f.Hours)),
		slog.Float64("excused_pct", Pct(f.I, f.Hours)),
		slog.Float64("students_late_a_day_pct", Pct(f.LateDays, f.StudentDays)),
		slog.Float64("students_with_alpha_pct", Pct(f.AlphaStudents, f.Students)),
	)
}
