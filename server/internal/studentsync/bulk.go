package studentsync

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

// SettingStudentAffairs is the connection's settings key, which the demo
// loader reads in SQL.
const SettingStudentAffairs = keyStudentAffairs

// LockStudents takes, in tx, the lock that serialises everything writing
// students in bulk (a sync, the demo load) across replicas.
func LockStudents(ctx context.Context, tx *sqlx.Tx) error {
	if _, err := tx.ExecContext(ctx, syncLock); err != nil {
		return fmt.Errorf("school: sync lock: %w", err)
	}
	return nil
}

// ApplyRecordsTx stores items, the student-affairs system's students as
// decoded JSON objects, in tx exactly as a sync would (through the sync's
// own reader); res is the sync's result so far.
func ApplyRecordsTx(ctx context.Context, tx *sqlx.Tx, items []map[string]any, res *SyncResult, now time.Time) error {
	recs := make([]sourceStudent, len(items))
	for i, m := range items {
		recs[i] = studentFromMap(m)
	}
	return apply(ctx, tx, recs, res, now, nil)
}
