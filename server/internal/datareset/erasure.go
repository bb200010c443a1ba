package datareset

import (
	"context"
	"fmt"
	"slices"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/erasure"
	"github.com/tatib/tatib/server/internal/violationtype"
)

// ReapplyErasure does again, in a restore's transaction, a reset made
// after the restored backup was taken: every row of its sets in the
// restored database predates the reset, so each set's tables are emptied
// as the reset emptied them, and the defaults re-created.
func ReapplyErasure(ctx context.Context, tx *sqlx.Tx, e erasure.Entry) error {
	if e.Kind != erasure.DataReset {
		return fmt.Errorf("datareset: not a reset: %q", e.Kind)
	}
	chosen := e.Strings("sets")
	for _, st := range sets {
		if !slices.Contains(chosen, st.ID) {
			continue
		}
		for _, t := range st.Tables {
			if _, err := tx.ExecContext(ctx, t.deleteSQL()); err != nil {
				return fmt.Errorf("datareset: reset %s again: %s: %w", st.ID, t.Name, err)
			}
		}
		for _, q := range st.After {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return fmt.Errorf("datareset: reset %s again: %w", st.ID, err)
			}
		}
	}
	return violationtype.EnsureDefaults(ctx, tx)
}
