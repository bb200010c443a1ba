package violation

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/points"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/shared/api"
)

// Threshold is one warning-letter level.
type Threshold = points.Threshold

// Thresholds returns the levels, lowest first.
func Thresholds(ctx context.Context, q sqlx.QueryerContext) ([]Threshold, error) {
	var out []Threshold
	if err := sqlx.SelectContext(ctx, q, &out, `SELECT level, name, min_points, colour FROM sp_thresholds ORDER BY level`); err != nil {
		return nil, fmt.Errorf("violation: thresholds: %w", err)
	}
	return out, nil
}

// AcademicYear returns the first day of the academic year that contains
// the school day instant at falls on, and the first day of the next one.
func AcademicYear(ctx context.Context, q sqlx.QueryerContext, at time.Time) (start, end schoolday.Date, err error) {
	p, err := school.LoadProfile(ctx, q)
	if err != nil {
		return schoolday.Date{}, schoolday.Date{}, fmt.Errorf("violation: profile: %w", err)
	}
	start = p.YearStartOf(schoolday.DateOf(at))
	return start, start.AddDate(1, 0, 0), nil
}

// Points returns a student's standing on day (a Jakarta date): the total of
// the academic year containing it, the lifetime total, the level reached
// and the next one. It does not check the caller's scope.
func Points(ctx context.Context, q sqlx.QueryerContext, studentID int64, day time.Time) (api.StudentPoints, error) {
	start, _, err := AcademicYear(ctx, q, day)
	if err != nil {
		return api.StudentPoints{}, err
	}
	// The totals less the points policy's reductions (point_reductions),
	// as the ledger counts them: the year's through student_year_points
	// (migration 00175), the one definition every reader shares.
	const sq = `SELECT
		COALESCE((SELECT p.total FROM student_year_points($2::date) p WHERE p.student_id = $1), 0) AS total,
		COALESCE(sum(points), 0) - (SELECT COALESCE(sum(r.points), 0) FROM point_reductions r WHERE r.student_id = $1) AS lifetime
		FROM violations WHERE student_id = $1`
	var row struct {
		Total    int `db:"total"`
		Lifetime int `db:"lifetime"`
	}
	if err := sqlx.GetContext(ctx, q, &row, sq, studentID, start); err != nil {
		return api.StudentPoints{}, fmt.Errorf("violation: points: %w", err)
	}
	ths, err := Thresholds(ctx, q)
	if err != nil {
		return api.StudentPoints{}, err
	}
	return standing(studentID, row.Total, row.Lifetime, start, ths), nil
}

// standing places a total among the thresholds.
func standing(studentID int64, total, lifetime int, start schoolday.Date, ths []Threshold) api.StudentPoints {
	p := api.StudentPoints{StudentID: studentID, Total: total, LifetimeTotal: lifetime, AcademicYearStart: start.String()}
	for _, t := range ths {
		if t.MinPoints <= total {
			p.Level, p.LevelName, p.LevelColour = t.Level, t.Name, t.Colour
			continue
		}
		lvl, minp, to := t.Level, t.MinPoints, t.MinPoints-total
		p.NextLevel, p.NextLevelName, p.NextLevelMinPoint, p.PointsToNext = &lvl, t.Name, &minp, &to
		break
	}
	return p
}
