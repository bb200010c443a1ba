package demo

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/server/internal/studentsync"
)

// Once loads a feature's demo data (the violations, the attendance) on
// top of the demo school, once across every replica: only while the demo
// school is loaded, no student-affairs connection is set, the feature's
// marker setting is absent and its table (a constant of the caller) has no
// row yet. The check is repeated under an advisory lock named after the
// marker, inside the transaction load runs in. load returns the marker's
// value, stored in the same transaction, or nil when it loaded nothing.
func Once(ctx context.Context, db *sqlx.DB, marker, table string, load func(tx *sqlx.Tx) (any, error)) (loaded bool, err error) {
	if skip, err := featureDemoSkip(ctx, db, marker, table); err != nil || skip {
		return false, err
	}
	err = pg.InTx(ctx, db, func(tx *sqlx.Tx) error {
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtext('tatib.demo.' || $1))`, marker); err != nil {
			return fmt.Errorf("school: demo lock %s: %w", marker, err)
		}
		// Another replica may have loaded it while this one waited.
		if skip, err := featureDemoSkip(ctx, tx, marker, table); err != nil || skip {
			return err
		}
		value, err := load(tx)
		if err != nil || value == nil {
			return err
		}
		b, err := json.Marshal(value)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING`, marker, string(b)); err != nil {
			return fmt.Errorf("school: demo marker %s: %w", marker, err)
		}
		loaded = true
		return nil
	})
	return loaded && err == nil, err
}

// featureDemoSkip reports whether a feature's demo data must not be loaded.
func featureDemoSkip(ctx context.Context, q sqlx.QueryerContext, marker, table string) (bool, error) {
	stmt := `SELECT NOT EXISTS (SELECT 1 FROM settings WHERE key = '` + school.SettingDemo + `')
		OR EXISTS (SELECT 1 FROM settings WHERE key = $1)
		OR EXISTS (SELECT 1 FROM ` + pq.QuoteIdentifier(table) + `)
		OR EXISTS (SELECT 1 FROM settings WHERE key = '` + studentsync.SettingStudentAffairs + `' AND coalesce(value->>'url', '') <> '')`
	var skip bool
	if err := sqlx.GetContext(ctx, q, &skip, stmt, marker); err != nil {
		return false, fmt.Errorf("school: demo check %s: %w", marker, err)
	}
	return skip, nil
}
