package violation

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/shared/api"
)

// Covers fills, for each shared record of hs, the violations it covers that
// the scope lets the caller see, oldest first. A homeroom teacher reading a
// record a counselor made over several classes sees how many it covers
// (ViolationCount) but only their own class's violations, by name.
func Covers(ctx context.Context, q sqlx.QueryerContext, sc Scope, hs []api.Handling) error {
	var ids []int64
	at := make(map[int64]int, len(hs))
	for i := range hs {
		hs[i].Covers = []api.HandlingViolation{}
		if hs[i].Shared {
			ids = append(ids, hs[i].ID)
			at[hs[i].ID] = i
		}
	}
	if len(ids) == 0 {
		return nil
	}
	var a Args
	p := a.Add(pq.Array(ids))
	var rows []struct {
		HandlingID int64 `db:"handling_id"`
		api.HandlingViolation
	}
	err := sqlx.SelectContext(ctx, q, &rows, `SELECT hv.handling_id, v.id, v.student_id, s.full_name AS student_name,
			`+classNameSQL+` AS class_name, t.name AS type_name, to_char(v.occurred_on, 'YYYY-MM-DD') AS occurred_on, v.handling_status
		FROM handling_violations hv
		JOIN violations v ON v.id = hv.violation_id
		JOIN students s ON s.id = v.student_id
		JOIN violation_types t ON t.id = v.violation_type_id
		LEFT JOIN classes c ON c.id = v.class_id
		WHERE hv.handling_id = ANY(`+p+`) AND `+sc.SQL(&a)+`
		ORDER BY v.occurred_on, v.id`, a...)
	if err != nil {
		return fmt.Errorf("violationlist: covers: %w", err)
	}
	for _, r := range rows {
		i := at[r.HandlingID]
		hs[i].Covers = append(hs[i].Covers, r.HandlingViolation)
	}
	return nil
}
