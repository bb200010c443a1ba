package users

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/erasure"
)

// ReapplyErasure does again, in a restore's transaction, the removal of a
// user made after the restored backup was taken: the account is
// deactivated (deleting it may meet its records; deactivated, it cannot
// sign in either).
func ReapplyErasure(ctx context.Context, tx *sqlx.Tx, e erasure.Entry) error {
	if e.Kind != erasure.UserRemoved {
		return fmt.Errorf("users: not a user erasure: %q", e.Kind)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE users SET active = false, updated_at = now() WHERE id = $1 AND active`, e.Int("user_id")); err != nil {
		return fmt.Errorf("users: remove again: %w", err)
	}
	return nil
}
