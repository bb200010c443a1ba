package face

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/app"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/pg"
)

// SweepEvery is how often Background runs the retention sweep.
const SweepEvery = time.Hour

// sweepActor is the audit actor of the retention sweep.
var sweepActor = audit.Actor{Name: "sistem (retensi Face-ID)"}

// SweepResult is what one sweep removed.
type SweepResult struct {
	Students   int   // students whose embeddings were deleted
	Embeddings int64 // embeddings deleted
	Challenges int64 // challenges older than a day deleted
}

// Sweep deletes the embeddings of students inactive for longer than the
// retention period (retention_days 0: at once), audited
// face.retention_delete with the counts, and the challenges issued more
// than a day before now.
func Sweep(ctx context.Context, db *sqlx.DB, now time.Time) (SweepResult, error) {
	var out SweepResult
	err := pg.InTx(ctx, db, func(tx *sqlx.Tx) error {
		s, err := LoadSettings(ctx, tx)
		if err != nil {
			return err
		}
		cutoff := now.Add(-time.Duration(s.RetentionDays) * 24 * time.Hour)
		var ids pq.Int64Array
		if err := tx.GetContext(ctx, &ids, `WITH d AS (
				DELETE FROM face_embeddings e USING students s
				WHERE s.id = e.student_id AND NOT s.active AND s.inactive_since IS NOT NULL AND s.inactive_since <= $1
				RETURNING e.student_id)
			SELECT COALESCE(array_agg(student_id ORDER BY student_id), '{}') FROM d`, cutoff); err != nil {
			return fmt.Errorf("face: retention: %w", err)
		}
		out.Embeddings = int64(len(ids))
		var students []int64
		for i, id := range ids {
			if i == 0 || id != ids[i-1] {
				students = append(students, id)
			}
		}
		out.Students = len(students)
		if out.Embeddings > 0 {
			if err := audit.Record(ctx, tx, sweepActor, "face.retention_delete", "face_embeddings", "", map[string]any{
				"students": out.Students, "embeddings": out.Embeddings, "student_ids": students,
				"retention_days": s.RetentionDays, "inactive_before": cutoff.UTC(),
			}); err != nil {
				return err
			}
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM face_challenges WHERE issued_at < $1`, now.Add(-24*time.Hour))
		if err != nil {
			return fmt.Errorf("face: old challenges: %w", err)
		}
		out.Challenges, _ = res.RowsAffected()
		return nil
	})
	return out, err
}

// Background runs the retention sweep now and then every SweepEvery; it
// returns when ctx ends.
func Background(ctx context.Context, d app.Deps) {
	t := time.NewTicker(SweepEvery)
	defer t.Stop()
	for {
		res, err := Sweep(ctx, d.DB, time.Now())
		switch {
		case err != nil && ctx.Err() == nil:
			d.Log.Warn("face retention sweep", "err", err)
		case res.Embeddings > 0:
			d.Log.Info("face retention sweep", "students", res.Students, "embeddings", res.Embeddings)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
