// Package pointspolicy is the school's points policy (issue 28): whether
// and how a student's academic-year violation total is reduced. none (the
// default): achievements are shown beside violations, totals unchanged.
// offset: a verified achievement's points reduce the year's total, capped
// at a share of it, never below zero (OffsetTx, called when a counselor
// verifies). amnesty: after N school days without a new violation the
// year's total is reduced by X points, once per clean period (Sweep, run
// by the server's background loop). Every reduction is a row of
// point_reductions and a ledger change (points.Apply) with a point-audit
// entry naming the policy; the ledger settles the letters (an open letter
// is lowered or withdrawn, a delivered one never changes and is marked as
// fallen). The simulator (Simulate) replays draft thresholds, type points
// and policy on the year's data, writing nothing.
package pointspolicy

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/shared/api"
)

// The modes.
const (
	ModeNone    = api.PolicyNone
	ModeOffset  = api.PolicyOffset
	ModeAmnesty = api.PolicyAmnesty
)

// Modes lists the modes in the order screens show them.
var Modes = []string{ModeNone, ModeOffset, ModeAmnesty}

// SettingsKey is the policy's row in settings.
const SettingsKey = "points_policy"

// Limits of the policy's numbers.
const (
	maxCleanDays     = 365
	maxAmnestyPoints = 1000
)

// Policy is the school's points policy (the wire type).
type Policy = api.PointsPolicy

// Default is the policy before a school sets one: none.
func Default() Policy {
	return Policy{Mode: ModeNone, OffsetCapPercent: 50, AmnestyCleanSchoolDays: 30, AmnestyPoints: 10}
}

// Validate checks every field of p, whatever the mode.
func Validate(p Policy) error {
	f := apperr.Fields{}
	if !slices.Contains(Modes, p.Mode) {
		f.Add("mode", "pointspolicy.mode.invalid")
	}
	if p.OffsetCapPercent < 1 || p.OffsetCapPercent > 100 {
		f.Add("offset_cap_percent", "pointspolicy.cap.range")
	}
	if p.AmnestyCleanSchoolDays < 1 || p.AmnestyCleanSchoolDays > maxCleanDays {
		f.Add("amnesty_clean_school_days", "pointspolicy.days.range", "max", maxCleanDays)
	}
	if p.AmnestyPoints < 1 || p.AmnestyPoints > maxAmnestyPoints {
		f.Add("amnesty_points", "pointspolicy.points.range", "max", maxAmnestyPoints)
	}
	if len(f) > 0 {
		return &apperr.Error{Code: apperr.Invalid, Msg: apperr.M("pointspolicy.invalid"), Fields: f}
	}
	return nil
}

// Load reads the policy (the default when never saved).
func Load(ctx context.Context, q sqlx.QueryerContext) (Policy, error) {
	p := Default()
	var row struct {
		Value []byte    `db:"value"`
		At    time.Time `db:"updated_at"`
	}
	err := sqlx.GetContext(ctx, q, &row, `SELECT value, updated_at FROM settings WHERE key = $1`, SettingsKey)
	if errors.Is(err, sql.ErrNoRows) {
		return p, nil
	}
	if err != nil {
		return p, fmt.Errorf("pointspolicy: load: %w", err)
	}
	if err := json.Unmarshal(row.Value, &p); err != nil {
		return Default(), fmt.Errorf("pointspolicy: decode: %w", err)
	}
	p.UpdatedAt = &row.At
	return p, nil
}

// Save validates and stores the policy, audited with before and after. It
// reduces nothing by itself: offset applies to achievements verified from
// now on, amnesty at the next sweep.
func Save(ctx context.Context, db *sqlx.DB, actor audit.Actor, p Policy) (Policy, error) {
	if err := Validate(p); err != nil {
		return Policy{}, err
	}
	p.UpdatedAt = nil
	err := pg.InTx(ctx, db, func(tx *sqlx.Tx) error {
		before, err := Load(ctx, tx)
		if err != nil {
			return err
		}
		b, err := json.Marshal(p)
		if err != nil {
			return err
		}
		var by *int64
		if actor.ID != 0 {
			by = &actor.ID
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO settings (key, value, updated_at, updated_by) VALUES ($1, $2, now(), $3)
			ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now(), updated_by = EXCLUDED.updated_by`,
			SettingsKey, string(b), by); err != nil {
			return fmt.Errorf("pointspolicy: save: %w", err)
		}
		before.UpdatedAt = nil
		return audit.Record(ctx, tx, actor, "points_policy.update", "setting", SettingsKey, map[string]any{"before": before, "after": p})
	})
	if err != nil {
		return Policy{}, err
	}
	return Load(ctx, db)
}
