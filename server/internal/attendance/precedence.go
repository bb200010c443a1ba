package attendance

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/points"
	"github.com/tatib/tatib/shared/api"
)

// Overwrites counts the stored cells a person's save would change, by who
// set them last.
type Overwrites struct {
	Changed, Journal, Kiosk, Others int
}

// NeedsConfirmation: the save changes cells the journal, a kiosk or
// another person set.
func (w Overwrites) NeedsConfirmation() bool { return w.Journal+w.Kiosk+w.Others > 0 }

// OverwritesTx counts, for a save of entries by userID, the stored cells
// whose status would change, and of those the ones set last by the
// journal, a kiosk, or another person (another user, a user since deleted,
// an excuse). belum entries change nothing; the last entry of a key wins,
// as in ApplyTx. One statement.
func OverwritesTx(ctx context.Context, q sqlx.QueryerContext, entries []Entry, userID int64) (Overwrites, error) {
	var w Overwrites
	last := make(map[key]string, len(entries))
	for _, e := range entries {
		if code, ok := ParseStatus(e.Status); ok {
			last[key{e.StudentID, e.Date, e.LessonHour}] = code
		}
	}
	var sids, hours []int64
	var dates, statuses []string
	for k, st := range last {
		if st == api.AttendanceNone {
			continue
		}
		sids, dates, hours, statuses = append(sids, k.student), append(dates, k.date), append(hours, int64(k.hour)), append(statuses, st)
	}
	if len(sids) == 0 {
		return w, nil
	}
	const sq = `SELECT count(*),
		    count(*) FILTER (WHERE a.set_by = 'journal'),
		    count(*) FILTER (WHERE a.set_by = 'kiosk'),
		    count(*) FILTER (WHERE a.set_by = 'excuse' OR (a.set_by = 'user' AND a.updated_by IS DISTINCT FROM $5))
		FROM unnest($1::bigint[], $2::date[], $3::smallint[], $4::text[]) AS u(student_id, date, lesson_hour, status)
		JOIN attendance a ON a.student_id = u.student_id AND a.date = u.date AND a.lesson_hour = u.lesson_hour
		WHERE a.status <> u.status`
	if err := q.QueryRowxContext(ctx, sq, pq.Array(sids), pq.Array(dates), pq.Array(hours), pq.Array(statuses), userID).
		Scan(&w.Changed, &w.Journal, &w.Kiosk, &w.Others); err != nil {
		return w, fmt.Errorf("attendance: overwrites: %w", err)
	}
	return w, nil
}

// confirmRequired is the 409 of a save that would change cells others set
// without confirm.
func confirmRequired(w Overwrites) error {
	return apperr.New(apperr.Conflict, "attendance.confirm_required", "journal", w.Journal, "kiosk", w.Kiosk, "others", w.Others,
		"cells", w.Journal+w.Kiosk+w.Others)
}

// LetterChangesTx names the letters of ch (points.DescribeTx).
func LetterChangesTx(ctx context.Context, q sqlx.QueryerContext, ch points.Letters, preview bool) ([]api.LetterChange, error) {
	return points.DescribeTx(ctx, q, ch, preview)
}

// conflictRow is a journal conflict of a class's day.
type conflictRow struct {
	StudentID     int64     `db:"student_id"`
	LessonHour    int       `db:"lesson_hour"`
	JournalStatus string    `db:"journal_status"`
	Status        string    `db:"status"`
	SetByName     string    `db:"set_by_name"`
	SetAt         time.Time `db:"set_at"`
	PushedAt      time.Time `db:"pushed_at"`
}

// classConflicts returns the journal conflicts of the class's active
// students on date, by student and hour; only (student, hour) in cells
// when cells is not nil.
func classConflicts(ctx context.Context, q sqlx.QueryerContext, classID int64, date string, cells []api.AttendanceCellKey) ([]conflictRow, error) {
	var sids, hours []int64
	for _, c := range cells {
		sids, hours = append(sids, c.StudentID), append(hours, int64(c.LessonHour))
	}
	const sq = `SELECT c.student_id, c.lesson_hour, c.journal_status, a.status, COALESCE(u.name, '') AS set_by_name,
		    a.updated_at AS set_at, c.pushed_at
		FROM students s
		JOIN attendance_journal_conflicts c ON c.student_id = s.id AND c.date = $2::date
		JOIN attendance a ON a.student_id = c.student_id AND a.date = c.date AND a.lesson_hour = c.lesson_hour
		LEFT JOIN users u ON u.id = a.updated_by
		WHERE s.class_id = $1 AND s.active
		    AND ($3::bigint[] IS NULL OR (c.student_id, c.lesson_hour) IN (SELECT * FROM unnest($3::bigint[], $4::smallint[])))
		ORDER BY c.student_id, c.lesson_hour`
	var rows []conflictRow
	var sa, ha any
	if cells != nil {
		sa, ha = pq.Array(sids), pq.Array(hours)
	}
	if err := sqlx.SelectContext(ctx, q, &rows, sq, classID, date, sa, ha); err != nil {
		return nil, fmt.Errorf("attendance: journal conflicts: %w", err)
	}
	return rows, nil
}

// conflictKeys lists the cells' keys ("student:hour") for the audit log.
func conflictKeys(rows []conflictRow) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = strconv.FormatInt(r.StudentID, 10) + ":" + strconv.Itoa(r.LessonHour)
	}
	return out
}
