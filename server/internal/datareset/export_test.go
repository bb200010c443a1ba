package datareset

import (
	"context"

	"github.com/jmoiron/sqlx"
)

// SetBeforeCommit installs a hook run inside the reset's transaction just
// before its commit; nil removes it.
func SetBeforeCommit(f func(ctx context.Context, tx *sqlx.Tx) error) { beforeCommit = f }
