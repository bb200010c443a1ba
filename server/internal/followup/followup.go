// Package followup holds who follows up the automatic attendance
// violations (a school setting: the homeroom teachers by default, or the
// counselors) with the sizes of the attendance early warnings, and each
// user's "Sumber" (behaviour, attendance or all) that the violation list,
// the dashboard, the reports and the early warnings open with. See
// docs/violations.md, "Sumber: behaviour and attendance apart".
package followup

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
	"github.com/tatib/tatib/shared/perm"
)

// Key is the setting's key in the settings table.
const Key = "attendance_follow_up"

// The bounds of the attendance early warnings' sizes. The rules look at
// the latest MaxSchoolDays school days (earlywarning's window), so neither
// a streak nor the late window can be longer.
const (
	MinStreakDays = 2
	MaxStreakDays = 20
	MinLateTimes  = 2
	MaxSchoolDays = 30
)

// Defaults is the setting before anyone saved it: the homeroom teacher
// follows up attendance; absent 3 school days in a row, or late 5 times in
// the latest 10 school days (a fortnight), is an early warning.
func Defaults() api.AttendanceFollowUp {
	return api.AttendanceFollowUp{Owner: api.FollowUpHomeroomTeacher, AbsentStreakDays: 3, LateTimes: 5, LateSchoolDays: 10}
}

// Validate checks a setting field by field.
func Validate(s api.AttendanceFollowUp) error {
	f := apperr.Fields{}
	if s.Owner != api.FollowUpHomeroomTeacher && s.Owner != api.FollowUpCounselor {
		f.Add("owner", "followup.owner")
	}
	if s.AbsentStreakDays < MinStreakDays || s.AbsentStreakDays > MaxStreakDays {
		f.Add("absent_streak_days", "request.field_range", "min", MinStreakDays, "max", MaxStreakDays)
	}
	lateOK := s.LateTimes >= MinLateTimes && s.LateTimes <= MaxSchoolDays
	if !lateOK {
		f.Add("late_times", "request.field_range", "min", MinLateTimes, "max", MaxSchoolDays)
	}
	switch {
	case s.LateSchoolDays < MinLateTimes || s.LateSchoolDays > MaxSchoolDays:
		f.Add("late_school_days", "request.field_range", "min", MinLateTimes, "max", MaxSchoolDays)
	case lateOK && s.LateSchoolDays < s.LateTimes:
		f.Add("late_school_days", "followup.late_window_short", "times", s.LateTimes)
	}
	return f.Err()
}

// Load reads the setting; what was never saved (or saved out of bounds by
// hand) reads as the default.
func Load(ctx context.Context, q sqlx.QueryerContext) (api.AttendanceFollowUp, error) {
	var raw []byte
	var at time.Time
	err := q.QueryRowxContext(ctx, `SELECT value, updated_at FROM settings WHERE key = $1`, Key).Scan(&raw, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return Defaults(), nil
	}
	if err != nil {
		return Defaults(), fmt.Errorf("followup: read setting: %w", err)
	}
	s := Defaults()
	if err := json.Unmarshal(raw, &s); err != nil {
		return Defaults(), fmt.Errorf("followup: decode setting: %w", err)
	}
	if Validate(s) != nil {
		s = Defaults()
	}
	s.UpdatedAt = &at
	return s, nil
}

// Save validates and stores the setting, audited with before and after in
// the same transaction. Saves run one at a time, so the audit's "before"
// is what the save replaced.
func Save(ctx context.Context, db *sqlx.DB, actor audit.Actor, in api.AttendanceFollowUp) (api.AttendanceFollowUp, error) {
	in.UpdatedAt = nil
	if err := Validate(in); err != nil {
		return api.AttendanceFollowUp{}, err
	}
	var out api.AttendanceFollowUp
	err := pg.InTx(ctx, db, func(tx *sqlx.Tx) error {
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtext('tatib.settings.`+Key+`'))`); err != nil {
			return fmt.Errorf("followup: lock: %w", err)
		}
		before, err := Load(ctx, tx)
		if err != nil {
			return err
		}
		before.UpdatedAt = nil
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		var by *int64
		if actor.ID != 0 {
			by = &actor.ID
		}
		const q = `INSERT INTO settings (key, value, updated_at, updated_by) VALUES ($1, $2, now(), $3)
			ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now(), updated_by = EXCLUDED.updated_by
			RETURNING updated_at`
		var at time.Time
		if err := tx.QueryRowxContext(ctx, q, Key, string(b), by).Scan(&at); err != nil {
			return fmt.Errorf("followup: write setting: %w", err)
		}
		out = in
		out.UpdatedAt = &at
		return audit.Record(ctx, tx, actor, "settings.attendance_follow_up.update", "setting", Key, map[string]any{"before": before, "after": in})
	})
	if err != nil {
		return api.AttendanceFollowUp{}, err
	}
	return out, nil
}

// CaseloadSource is what a counselor's caseload ("Tugas BK") counts under
// owner: behaviour while the homeroom teachers follow up attendance, all
// when the counselors do.
func CaseloadSource(owner string) string {
	if owner == api.FollowUpCounselor {
		return api.SourceAll
	}
	return api.SourceBehaviour
}

// DefaultSource is a role's "Sumber" before its user chooses one: a
// homeroom teacher's is attendance, a counselor's their caseload's, anyone
// else's behaviour.
func DefaultSource(role perm.Role, owner string) string {
	switch role {
	case perm.WaliKelas:
		return api.SourceAttendance
	case perm.BK:
		return CaseloadSource(owner)
	}
	return api.SourceBehaviour
}

// Preference returns a user's source: the one they chose, else their
// role's default.
func Preference(ctx context.Context, q sqlx.QueryerContext, userID int64, role perm.Role) (api.ViolationSourcePreference, error) {
	s, err := Load(ctx, q)
	if err != nil {
		return api.ViolationSourcePreference{}, err
	}
	def := DefaultSource(role, s.Owner)
	out := api.ViolationSourcePreference{Source: def, Default: def}
	var saved *string
	err = sqlx.GetContext(ctx, q, &saved, `SELECT violation_source FROM user_preferences WHERE user_id = $1`, userID)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return out, fmt.Errorf("followup: preference: %w", err)
	}
	if saved != nil && slices.Contains(api.Sources, *saved) {
		out.Source, out.Saved = *saved, true
	}
	return out, nil
}

// SavePreference stores a user's source; nil forgets it (back to the
// role's default). A view choice of one's own, like the language, so not
// audited.
func SavePreference(ctx context.Context, db *sqlx.DB, userID int64, role perm.Role, in api.ViolationSourceInput) (api.ViolationSourcePreference, error) {
	if in.Source != nil && !slices.Contains(api.Sources, *in.Source) {
		return api.ViolationSourcePreference{}, apperr.New(apperr.Invalid, "form.invalid").WithField("source", "followup.source")
	}
	const q = `INSERT INTO user_preferences (user_id, violation_source, updated_at) VALUES ($1, $2, now())
		ON CONFLICT (user_id) DO UPDATE SET violation_source = EXCLUDED.violation_source, updated_at = now()`
	if _, err := db.ExecContext(ctx, q, userID, in.Source); err != nil {
		return api.ViolationSourcePreference{}, pg.Error(err, "followup.entity.preference")
	}
	return Preference(ctx, db, userID, role)
}
