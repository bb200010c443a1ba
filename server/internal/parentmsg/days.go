package parentmsg

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/phone"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/shared/api"
)

// StudentDay is a student's school day (date YYYY-MM-DD, Jakarta).
type StudentDay struct {
	StudentID int64
	Date      string
}

// AttendanceDaysTx keeps each day's attendance message in step with the
// day's automatic (alpha and late) violations after a change of them, in
// the change's transaction: at most one message per student and school
// day, due the settle time after the day's last change (a later change
// re-renders it and puts it back by as much), never one for a day that has
// nothing to report any more (its waiting message is deleted), and nothing
// more once it went out (or failed, or was cancelled). Only when the
// violation event is on and includes the automatic ones; the event's
// minimum points apply to the day's points. Three statements at most,
// whatever the number of days.
func AttendanceDaysTx(ctx context.Context, tx *sqlx.Tx, days []StudentDay) error {
	if len(days) == 0 {
		return nil
	}
	set, err := Load(ctx, tx)
	if err != nil {
		return err
	}
	return AttendanceDaysWithTx(ctx, tx, set, days)
}

// AttendanceDaysWithTx is AttendanceDaysTx with the settings already read
// (Parse).
func AttendanceDaysWithTx(ctx context.Context, tx *sqlx.Tx, set Settings, days []StudentDay) error {
	if len(days) == 0 {
		return nil
	}
	ev := set.Events.Violation
	if !set.Configured() || !ev.Enabled || !ev.IncludeAutomatic {
		return nil
	}
	profile, err := school.LoadProfile(ctx, tx)
	if err != nil {
		return fmt.Errorf("parentmsg: profile: %w", err)
	}
	month, day := yearStart(profile.AcademicYearStart)
	ids, dates := make([]int64, len(days)), make([]string, len(days))
	for i, d := range days {
		ids[i], dates[i] = d.StudentID, d.Date
	}
	// A day's automatic violations still backed by attendance, as one
	// source: their descriptions ("Alpha — … (3 jam pelajaran); Terlambat
	// (1 jam pelajaran)") and points summed; points 0 means nothing.
	q := `SELECT ` + studentColumns + `, COALESCE(c.name, '') AS class_name,
		    COALESCE(string_agg(v.description, '; ' ORDER BY v.auto_kind), '') AS type_name,
		    COALESCE(sum(v.points), 0)::int AS points, ` + yearTotal("u.date") + ` AS total,
		    '' AS level_name, u.date AS day, u.date AS summons_day, 0 AS letter_level, 0::bigint AS source_id
		FROM unnest($1::bigint[], $4::date[]) AS u(student_id, date)
		JOIN students s ON s.id = u.student_id LEFT JOIN classes c ON c.id = s.class_id
		LEFT JOIN violations v ON v.student_id = u.student_id AND v.occurred_on = u.date AND v.auto_kind IS NOT NULL AND NOT v.auto_unbacked
		GROUP BY s.id, c.name, u.date
		ORDER BY s.id, u.date`
	var srcs []source
	if err := tx.SelectContext(ctx, &srcs, q, pq.Array(ids), month, day, pq.Array(dates)); err != nil {
		return fmt.Errorf("parentmsg: read attendance days: %w", err)
	}
	var gone []StudentDay
	var students []int64
	var ondays, names, raws, phones, bodies, statuses, reasons []string
	for _, s := range srcs {
		d := s.Day.String()
		if s.Points == 0 || s.Points < ev.MinPoints {
			gone = append(gone, StudentDay{StudentID: s.StudentID, Date: d})
			continue
		}
		number, problem := phone.Normalize(s.ParentPhone)
		status, reason := api.ParentMessageQueued, ""
		switch problem {
		case phone.None:
		case phone.Missing:
			status, reason = api.ParentMessageSkipped, SkipNoPhone
		default:
			status, reason = api.ParentMessageSkipped, SkipInvalidPhone
		}
		students, ondays = append(students, s.StudentID), append(ondays, d)
		names, raws, phones = append(names, s.ParentName), append(raws, s.ParentPhone), append(phones, number)
		bodies = append(bodies, truncate(Render(ev.Template, s.values(profile.Name, api.ParentEventViolation)), MaxBody))
		statuses, reasons = append(statuses, status), append(reasons, reason)
	}
	if len(gone) > 0 {
		gs, gd := make([]int64, len(gone)), make([]string, len(gone))
		for i, g := range gone {
			gs[i], gd[i] = g.StudentID, g.Date
		}
		// Only a message that has not been tried: one that went out (or is
		// going out: the worker holds its row) stays as it is.
		if _, err := tx.ExecContext(ctx, `DELETE FROM parent_messages m USING unnest($1::bigint[], $2::date[]) AS u(student_id, date)
			WHERE m.student_id = u.student_id AND m.attendance_date = u.date AND m.attempts = 0
			  AND m.status IN ('queued', 'skipped')`, pq.Array(gs), pq.Array(gd)); err != nil {
			return fmt.Errorf("parentmsg: drop attendance day messages: %w", err)
		}
	}
	if len(students) == 0 {
		return nil
	}
	// Due the settle time from now; a waiting one is re-rendered and put
	// back. The NOTIFY wakes the workers to look at the new due time.
	const ins = `WITH ins AS (
		INSERT INTO parent_messages AS m (student_id, event, attendance_date, parent_name, phone_raw, phone, body, status, skip_reason,
		    next_attempt_at)
		SELECT u.student_id, 'violation', u.date, u.parent_name, u.phone_raw, u.phone, u.body, u.status, u.skip_reason,
		    now() + make_interval(secs => $1)
		FROM unnest($2::bigint[], $3::date[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[])
		    AS u(student_id, date, parent_name, phone_raw, phone, body, status, skip_reason)
		ORDER BY u.student_id, u.date
		ON CONFLICT (student_id, attendance_date) WHERE attendance_date IS NOT NULL DO UPDATE
		SET parent_name = EXCLUDED.parent_name, phone_raw = EXCLUDED.phone_raw, phone = EXCLUDED.phone, body = EXCLUDED.body,
		    status = EXCLUDED.status, skip_reason = EXCLUDED.skip_reason, next_attempt_at = EXCLUDED.next_attempt_at, updated_at = now()
		WHERE m.attempts = 0 AND m.status IN ('queued', 'skipped')
		RETURNING m.status)
		SELECT pg_notify('` + Channel + `', '') FROM (SELECT 1 FROM ins WHERE status = 'queued' LIMIT 1) q`
	if _, err := tx.ExecContext(ctx, ins, set.Settle().Seconds(), pq.Array(students), pq.Array(ondays), pq.Array(names), pq.Array(raws),
		pq.Array(phones), pq.Array(bodies), pq.Array(statuses), pq.Array(reasons)); err != nil {
		return fmt.Errorf("parentmsg: queue attendance day messages: %w", err)
	}
	return nil
}
