package letter

import (
	"context"
	"fmt"
	"net/http"
	"strconv"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/shared/api"
)

// AcademicYear is GET /academic-year: the academic year running today.
type AcademicYear = api.AcademicYear

// YearLabel names the academic year starting on start: "2025/2026".
func YearLabel(start schoolday.Date) string {
	return strconv.Itoa(start.Year()) + "/" + strconv.Itoa(start.Year()+1)
}

// currentYear returns the academic year running today by the school's
// start setting.
func currentYear(ctx context.Context, q sqlx.QueryerContext) (AcademicYear, error) {
	p, err := school.LoadProfile(ctx, q)
	if err != nil {
		return AcademicYear{}, fmt.Errorf("letter: profile: %w", err)
	}
	start := p.YearStartOf(schoolday.Today())
	return AcademicYear{
		Start: start.String(), End: start.AddDate(1, 0, 0).String(),
		Label: YearLabel(start), StartMonthDay: start.Time().Format("01-02"),
	}, nil
}

// currentStart is the first day of the academic year running today.
func (s *Store) currentStart(ctx context.Context, q sqlx.QueryerContext) (string, error) {
	y, err := currentYear(ctx, q)
	return y.Start, err
}

func (h *Handler) academicYear(w http.ResponseWriter, r *http.Request) error {
	y, err := currentYear(r.Context(), h.store.db)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, y)
}
