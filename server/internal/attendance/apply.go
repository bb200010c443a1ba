package attendance

import (
	"context"
	"errors"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/shared/api"
)

// ApplyTx stores entries through tx (the caller commits), set-based (a
// fixed number of statements, never one per entry): it takes the touched
// students' row locks in id order (the lock violation.RecordTx holds),
// dedups keys (the last entry of a key wins), upserts rows (an unchanged
// status and notes is not rewritten: counted unchanged), recomputes
// attendance_days for the touched (student, date) pairs, recomputes the
// automatic alpha and late violations of those pairs, writes the point
// audit and the audit log, issues the warning letters reached and
// withdraws the drafts no longer reached. Entries with status "belum" are
// counted Skipped and ignored.
func ApplyTx(ctx context.Context, tx *sqlx.Tx, entries []Entry, o Origin) (api.AttendanceResult, error) {
	return api.AttendanceResult{}, errors.New("attendance: ApplyTx: not implemented yet")
}
