package portal

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/parentmsg"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/server/internal/schoolday"
)

// AbsentNoticeWindow is how long after the set time "belum hadir" may
// still go: a server started in the evening does not send the morning's.
const AbsentNoticeWindow = 3 * time.Hour

// absentLock is the advisory lock of a "belum hadir" run.
const absentLock = 0x7461_7469_6261 // "tatiba"

// absentSQL is the condition of a child's "belum hadir" on day $1: no
// cell that says the child is there or accounted for (H, T, S, I, whoever
// wrote it: an S or I a person or an approved excuse set is kept against a
// later journal A by the attendance rules), no excuse the guardian asked
// for that covers the day (waiting or approved), and a register taken for
// the child's class that day (a day nobody recorded sends nothing).
const absentSQL = `NOT EXISTS (SELECT 1 FROM attendance a WHERE a.student_id = s.id AND a.date = $1::date AND a.status IN ('H', 'T', 'S', 'I'))
	AND NOT EXISTS (SELECT 1 FROM excuses e WHERE e.student_id = s.id AND e.status IN ('pending', 'approved')
	    AND $1::date BETWEEN e.date_from AND e.date_to)
	AND EXISTS (SELECT 1 FROM students c JOIN attendance a ON a.student_id = c.id AND a.date = $1::date WHERE c.class_id = s.class_id)`

// AbsentNotices queues "belum hadir" when the school sends it and its time
// (absent_notice_at, Jakarta) has passed on a school day (Monday to
// Saturday), within AbsentNoticeWindow: to each guardian who asked for it
// (preference absent_notice immediate), for each verified child that
// absentSQL holds for, once per guardian, child and day. It returns how
// many it queued.
func AbsentNotices(ctx context.Context, db *sqlx.DB, now time.Time) (int, error) {
	n := 0
	err := pg.InTx(ctx, db, func(tx *sqlx.Tx) error {
		set, err := LoadSettings(ctx, tx)
		if err != nil {
			return err
		}
		from := at(now, absentNoticeAt(set))
		if !set.AbsentNotice || now.Before(from) || !now.Before(from.Add(AbsentNoticeWindow)) || schoolday.In(now).Weekday() == time.Sunday {
			return nil
		}
		var locked bool
		if err := tx.GetContext(ctx, &locked, `SELECT pg_try_advisory_xact_lock($1)`, absentLock); err != nil {
			return fmt.Errorf("portal: absent lock: %w", err)
		}
		if !locked {
			return nil
		}
		msg, err := parentmsg.Load(ctx, tx)
		if err != nil {
			return err
		}
		if !msg.Configured() {
			return nil
		}
		prof, err := school.LoadProfile(ctx, tx)
		if err != nil {
			return err
		}
		next := now
		if until, quiet := parentmsg.QuietUntil(msg.QuietHours, now); quiet {
			next = until
		}
		q := `WITH ins AS (
			INSERT INTO parent_messages (student_id, event, guardian_id, notice_day, parent_name, phone_raw, phone, body, status, next_attempt_at)
			SELECT s.id, 'absent_notice', g.id, $1::date, left(g.name, 200), g.phone, g.phone,
			    format('%s: %s belum tercatat hadir hari ini, %s, sampai pukul %s WIB. Bila sakit atau izin, mohon ajukan di portal orang tua.',
			        $2::text, s.full_name, $3::text, $4::text), 'queued', $5
			FROM guardian_students gs
			JOIN guardians g ON g.id = gs.guardian_id AND g.withdrawn_at IS NULL
			JOIN guardian_notification_prefs np ON np.guardian_id = g.id AND np.kind = 'absent_notice' AND np.mode = 'immediate'
			JOIN students s ON s.id = gs.student_id AND s.active
			WHERE gs.status = 'verified' AND ` + absentSQL + `
			ORDER BY g.id, s.id
			ON CONFLICT DO NOTHING
			RETURNING id)
			SELECT count(*) FROM ins`
		day := schoolday.Of(now)
		if err := tx.GetContext(ctx, &n, q, day, prof.Name, parentmsg.LongDay(schoolday.DateOf(now)), absentNoticeAt(set), next); err != nil {
			return fmt.Errorf("portal: absent notices: %w", err)
		}
		if n > 0 {
			if _, err := tx.ExecContext(ctx, `SELECT pg_notify($1, '')`, parentmsg.Channel); err != nil {
				return fmt.Errorf("portal: absent notices: %w", err)
			}
		}
		return nil
	})
	return n, err
}
