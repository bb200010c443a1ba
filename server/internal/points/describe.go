package points

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/shared/api"
)

// DescribeTx names the letters of ch (issued, raised, lowered, then
// withdrawn), by student name and level, the letter's name as it is now
// ("SP 1–2"). preview: the issued ones are reported with id 0 (the
// transaction is rolled back).
func DescribeTx(ctx context.Context, q sqlx.QueryerContext, ch Letters, preview bool) ([]api.LetterChange, error) {
	out := []api.LetterChange{}
	change := map[int64]string{}
	var ids []int64
	for _, c := range []struct {
		ids  []int64
		kind string
	}{{ch.Issued, api.LetterChangeIssued}, {ch.Raised, api.LetterChangeRaised}, {ch.Lowered, api.LetterChangeLowered},
		{ch.Withdrawn, api.LetterChangeWithdrawn}} {
		for _, id := range c.ids {
			change[id] = c.kind
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return out, nil
	}
	const sq = `SELECT wl.id, wl.student_id, s.full_name AS student_name, wl.level, wl.name
		FROM warning_letters wl JOIN students s ON s.id = wl.student_id
		WHERE wl.id = ANY($1::bigint[]) ORDER BY lower(s.full_name), wl.student_id, wl.level, wl.id`
	var rows []struct {
		ID          int64  `db:"id"`
		StudentID   int64  `db:"student_id"`
		StudentName string `db:"student_name"`
		Level       int    `db:"level"`
		Name        string `db:"name"`
	}
	if err := sqlx.SelectContext(ctx, q, &rows, sq, pq.Array(ids)); err != nil {
		return nil, fmt.Errorf("points: letters: %w", err)
	}
	for _, r := range rows {
		c := api.LetterChange{ID: r.ID, StudentID: r.StudentID, StudentName: r.StudentName, Level: r.Level, Name: r.Name,
			Change: change[r.ID]}
		if preview && c.Change == api.LetterChangeIssued {
			c.ID = 0
		}
		out = append(out, c)
	}
	return out, nil
}
