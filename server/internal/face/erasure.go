package face

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/erasure"
)

// ReapplyErasure does again, in a restore's transaction, a face or kiosk
// erasure made after the restored backup was taken: a withdrawn consent is
// withdrawn again and the student's embeddings made before it deleted, as
// are those of a deleted enrolment; a revoked kiosk is revoked again.
func ReapplyErasure(ctx context.Context, tx *sqlx.Tx, e erasure.Entry) error {
	student := e.Int("student_id")
	switch e.Kind {
	case erasure.FaceConsentWithdrawn:
		const q = `UPDATE face_consents SET withdrawn_at = $3, withdrawn_by_name = 'sistem (restore)'
			WHERE id = $1 AND student_id = $2 AND withdrawn_at IS NULL`
		if _, err := tx.ExecContext(ctx, q, e.Int("consent_id"), student, e.At); err != nil {
			return fmt.Errorf("face: withdraw consent again: %w", err)
		}
		fallthrough
	case erasure.FaceEnrolmentDeleted:
		if _, err := tx.ExecContext(ctx, `DELETE FROM face_embeddings WHERE student_id = $1 AND created_at <= $2`, student, e.At); err != nil {
			return fmt.Errorf("face: delete embeddings again: %w", err)
		}
	case erasure.KioskRevoked:
		if _, err := tx.ExecContext(ctx, `UPDATE kiosks SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL`, e.Int("kiosk_id"), e.At); err != nil {
			return fmt.Errorf("face: revoke kiosk again: %w", err)
		}
	default:
		return fmt.Errorf("face: not a face erasure: %q", e.Kind)
	}
	return nil
}
