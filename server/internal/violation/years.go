package violation

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/locale"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/shared/api"
)

// StudentYears is GET /students/{id}/years: a student's record per
// academic year, newest first.
type StudentYears = api.StudentYears

// YearRecord is one academic year of a student.
type YearRecord = api.StudentYear

// YearLabel names the academic year starting on start: "2025/2026".
func YearLabel(start time.Time) string {
	return strconv.Itoa(start.Year()) + "/" + strconv.Itoa(start.Year()+1)
}

func (h *Handler) years(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	out, err := h.store.StudentYears(r.Context(), ScopeOf(r.Context()), id, time.Now())
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, out)
}

// StudentYears returns the academic years of a student the caller may
// see (the scope of StudentPoints), with today's year marked. A violation
// belongs to the year its day falls in by the school's start date now; a
// letter to the year it was issued for (stored with it), so a letter still
// shows under its own year after the start date is changed.
func (s *Store) StudentYears(ctx context.Context, sc Scope, studentID int64, now time.Time) (StudentYears, error) {
	var ok bool
	err := s.db.GetContext(ctx, &ok, `SELECT true FROM students s WHERE s.id = $1 AND ($2::bigint = 0
		OR EXISTS (SELECT 1 FROM classes hc WHERE hc.homeroom_teacher_id = $2 AND (hc.id = s.class_id
			OR EXISTS (SELECT 1 FROM violations v WHERE v.student_id = s.id AND v.class_id = hc.id))))`, studentID, sc.HomeroomID)
	if errors.Is(err, sql.ErrNoRows) {
		return StudentYears{}, apperr.New(apperr.NotFound, "db.not_found", "what", locale.Key("entity.student"))
	}
	if err != nil {
		return StudentYears{}, fmt.Errorf("violation: years: student: %w", err)
	}
	p, err := school.LoadProfile(ctx, s.db)
	if err != nil {
		return StudentYears{}, fmt.Errorf("violation: years: profile: %w", err)
	}
	current := p.YearStartOf(schoolday.DateOf(now))
	// The month and day of the start come from the profile (validated
	// MM-DD, never 02-29); a violation's year starts on that day of its
	// own calendar year, or of the one before when its day comes earlier.
	month, day := int(current.Month()), current.Day()
	// A year's total is its violations' points less the points policy's
	// reductions, as the ledger counts it.
	const q = `WITH v AS (
			SELECT CASE WHEN make_date(extract(year FROM occurred_on)::int, $2, $3) <= occurred_on
				THEN make_date(extract(year FROM occurred_on)::int, $2, $3)
				ELSE make_date(extract(year FROM occurred_on)::int - 1, $2, $3) END AS start, points
			FROM violations WHERE student_id = $1),
		vy AS (SELECT start, sum(points)::int AS total, count(*)::int AS n FROM v GROUP BY start),
		ly AS (SELECT academic_year_start AS start,
				json_agg(json_build_object('id', id, 'level', level, 'name', name, 'status', status) ORDER BY level, id) AS letters
			FROM warning_letters WHERE student_id = $1 GROUP BY academic_year_start)
		SELECT COALESCE(vy.start, ly.start) AS start,
			COALESCE(vy.total, 0) - COALESCE((SELECT sum(r.points) FROM point_reductions r WHERE r.student_id = $1
			    AND r.academic_year_start = COALESCE(vy.start, ly.start)), 0)::int AS total,
			COALESCE(vy.n, 0) AS n, COALESCE(ly.letters, '[]'::json) AS letters
		FROM vy FULL JOIN ly ON ly.start = vy.start
		ORDER BY 1 DESC`
	var rows []struct {
		Start   time.Time `db:"start"`
		Total   int       `db:"total"`
		N       int       `db:"n"`
		Letters []byte    `db:"letters"`
	}
	if err := s.db.SelectContext(ctx, &rows, q, studentID, month, day); err != nil {
		return StudentYears{}, fmt.Errorf("violation: years: %w", err)
	}
	out := StudentYears{CurrentStart: current.String(), Data: make([]YearRecord, 0, len(rows))}
	for _, r := range rows {
		y := YearRecord{Start: r.Start.Format(time.DateOnly), Label: YearLabel(r.Start), Total: r.Total, Violations: r.N}
		y.Current = y.Start == out.CurrentStart
		if err := json.Unmarshal(r.Letters, &y.Letters); err != nil {
			return StudentYears{}, fmt.Errorf("violation: years: letters: %w", err)
		}
		out.Data = append(out.Data, y)
	}
	return out, nil
}
