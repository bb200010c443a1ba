package journal

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/attendance"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/locale"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/server/internal/timing"
	"github.com/tatib/tatib/shared/api"
)

// Actor is who the audit log names for the journal's changes.
var Actor = audit.Actor{Name: "sistem (jurnal)"}

// studentsLockShared is the shared form of the lock a student sync holds
// while it writes students (school's syncLock): a push looks students up
// and parks the rest either wholly before a sync's transaction or wholly
// after it, so a parked entry is never missed by the sync that brings its
// student in. Taken before any row lock, as the sync takes its own, so the
// two cannot deadlock; pushes do not block each other.
const studentsLockShared = `SELECT pg_advisory_xact_lock_shared(hashtext('tatib.students.sync'))`

// pushLog is one row of journal_pushes.
type pushLog struct {
	// ID is reserved before the push is applied (0: the sequence's next),
	// so what the push changes can name it.
	ID          int64
	Address     string
	Outcome     string
	Entries     int
	Result      api.AttendanceResult
	ErrorCode   string
	ErrorParams map[string]any
	Errors      []badField
	Duration    time.Duration
	// Kept: the first entries kept for a person.
	Kept []attendance.KeptCell
}

// Store runs the journal's SQL.
type Store struct{ db *sqlx.DB }

// NewStore returns a Store on db.
func NewStore(db *sqlx.DB) *Store { return &Store{db: db} }

// parkedKey is the key of attendance_unmatched.
type parkedKey struct {
	source int64
	date   string
	hour   int
}

// Apply stores a validated push in one transaction: entries of known
// students through attendance.ApplyTx (journal origin), entries of unknown
// ones parked (the newest push of a key wins), and the push's log row. p
// is filled with the outcome; the caller logs failures.
func (s *Store) Apply(ctx context.Context, entries []Entry, p *pushLog, actor audit.Actor) (api.AttendanceResult, error) {
	var res api.AttendanceResult
	start := time.Now()
	// A push can lose a deadlock to a data reset or an overlapping writer;
	// it is retried in the server rather than answered with a 500.
	err := pg.InTxRetry(ctx, s.db, func(tx *sqlx.Tx) error {
		res, p.Kept = api.AttendanceResult{}, nil
		if _, err := tx.ExecContext(ctx, studentsLockShared); err != nil {
			return fmt.Errorf("journal: lock: %w", err)
		}
		ids := make([]int64, 0, len(entries))
		seen := map[int64]bool{}
		for _, e := range entries {
			if !seen[e.SourceStudentID] {
				seen[e.SourceStudentID] = true
				ids = append(ids, e.SourceStudentID)
			}
		}
		var rows []struct {
			Source int64 `db:"source_id"`
			ID     int64 `db:"id"`
			Active bool  `db:"active"`
		}
		if err := tx.SelectContext(ctx, &rows, `SELECT source_id, id, active FROM students WHERE source_id = ANY($1::bigint[])`, pq.Array(ids)); err != nil {
			return fmt.Errorf("journal: students: %w", err)
		}
		known := make(map[int64]int64, len(rows))
		inactive := map[int64]bool{}
		for _, r := range rows {
			if r.Active {
				known[r.Source] = r.ID
			} else {
				inactive[r.Source] = true
			}
		}
		apply := make([]attendance.Entry, 0, len(entries))
		parked := map[parkedKey]parkedEntry{}
		skipped := 0
		for _, e := range entries {
			id, ok := known[e.SourceStudentID]
			switch {
			case ok:
				apply = append(apply, attendance.Entry{StudentID: id, Date: e.Date, LessonHour: e.LessonHour, Status: e.Status, Notes: e.Notes})
			case e.Status == api.AttendanceNone:
				skipped++
			default:
				// A student the class form hides (inactive) is parked like an
				// unknown one, so the journal never gives them automatic
				// violations nobody can see to correct.
				reason := ReasonUnknownStudent
				if inactive[e.SourceStudentID] {
					reason = ReasonInactiveStudent
				}
				parked[parkedKey{e.SourceStudentID, e.Date, e.LessonHour}] = parkedEntry{e, reason}
			}
		}
		if err := tx.GetContext(ctx, &p.ID, `SELECT nextval(pg_get_serial_sequence('journal_pushes', 'id'))`); err != nil {
			return fmt.Errorf("journal: push id: %w", err)
		}
		timing.Mark(ctx, "students")
		if len(apply) > 0 {
			a, err := attendance.ApplyDetailedTx(ctx, tx, apply, attendance.Origin{Journal: true, Actor: actor, PushID: p.ID})
			if err != nil {
				return err
			}
			res, p.Kept = a.AttendanceResult, a.Kept
		}
		res.Skipped += skipped
		res.Unmatched = len(parked)
		p.Outcome, p.Result, p.Duration = OutcomeApplied, res, time.Since(start)
		id, err := insertPush(ctx, tx, p)
		if err != nil {
			return err
		}
		if err := park(ctx, tx, parked, id); err != nil {
			return err
		}
		if id%pruneEvery == 0 {
			if err := prune(ctx, tx); err != nil {
				return err
			}
		}
		timing.Mark(ctx, "log")
		return nil
	})
	return res, err
}

// park upserts the entries of unknown students, in key order (so two
// overlapping pushes lock their rows in the same order).
// parkedEntry is an entry to park and why.
type parkedEntry struct {
	Entry
	reason string
}

func park(ctx context.Context, tx *sqlx.Tx, parked map[parkedKey]parkedEntry, pushID int64) error {
	if len(parked) == 0 {
		return nil
	}
	keys := make([]parkedKey, 0, len(parked))
	for k := range parked {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b parkedKey) int {
		switch {
		case a.source != b.source:
			return cmpInt(a.source, b.source)
		case a.date != b.date:
			if a.date < b.date {
				return -1
			}
			return 1
		default:
			return cmpInt(int64(a.hour), int64(b.hour))
		}
	})
	n := len(keys)
	sources, dates, hours, statuses, notes, reasons := make([]int64, n), make([]string, n), make([]int64, n), make([]string, n), make([]string, n), make([]string, n)
	for i, k := range keys {
		e := parked[k]
		sources[i], dates[i], hours[i], statuses[i], notes[i], reasons[i] = k.source, k.date, int64(k.hour), e.Status, e.Notes, e.reason
	}
	const q = `INSERT INTO attendance_unmatched (source_student_id, date, lesson_hour, status, notes, reason, push_id, received_at)
		SELECT u.source, u.date, u.hour, u.status, nullif(u.notes, ''), u.reason, $7, now()
		FROM unnest($1::bigint[], $2::date[], $3::smallint[], $4::text[], $5::text[], $6::text[]) WITH ORDINALITY AS u(source, date, hour, status, notes, reason, n)
		ORDER BY u.n
		ON CONFLICT (source_student_id, date, lesson_hour) DO UPDATE SET status = EXCLUDED.status, notes = EXCLUDED.notes,
			reason = EXCLUDED.reason, push_id = EXCLUDED.push_id, received_at = EXCLUDED.received_at`
	if _, err := tx.ExecContext(ctx, q, pq.Array(sources), pq.Array(dates), pq.Array(hours), pq.Array(statuses), pq.Array(notes),
		pq.Array(reasons), pushID); err != nil {
		return fmt.Errorf("journal: park: %w", err)
	}
	return nil
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func insertPush(ctx context.Context, q sqlx.QueryerContext, p *pushLog) (int64, error) {
	result, _ := json.Marshal(p.Result)
	params := p.ErrorParams
	if params == nil {
		params = map[string]any{}
	}
	ep, _ := json.Marshal(params)
	errs := p.Errors
	if errs == nil {
		errs = []badField{}
	}
	eb, _ := json.Marshal(errs)
	kept := p.Kept
	if kept == nil {
		kept = []attendance.KeptCell{}
	}
	kb, _ := json.Marshal(kept)
	var id any
	if p.ID != 0 {
		id = p.ID
	}
	const stmt = `INSERT INTO journal_pushes (id, address, outcome, entries, result, error_code, error_params, errors, duration_ms, kept)
		VALUES (COALESCE($1, nextval(pg_get_serial_sequence('journal_pushes', 'id'))), $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`
	if err := q.QueryRowxContext(ctx, stmt, id, p.Address, p.Outcome, p.Entries, string(result), p.ErrorCode, string(ep), string(eb), p.Duration.Milliseconds(), string(kb)).Scan(&p.ID); err != nil {
		return 0, fmt.Errorf("journal: log push: %w", err)
	}
	return p.ID, nil
}

// LogPush records a push that stored nothing (refused, unauthorised, too
// large, failed), pruning the log now and then.
func (s *Store) LogPush(ctx context.Context, p *pushLog) error {
	return pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		id, err := insertPush(ctx, tx, p)
		if err != nil || id%pruneEvery != 0 {
			return err
		}
		return prune(ctx, tx)
	})
}

// prune keeps the newest keepPushes pushes.
func prune(ctx context.Context, tx *sqlx.Tx) error {
	const q = `DELETE FROM journal_pushes WHERE id <= (SELECT id FROM journal_pushes ORDER BY id DESC OFFSET $1 LIMIT 1)`
	if _, err := tx.ExecContext(ctx, q, keepPushes); err != nil {
		return fmt.Errorf("journal: prune pushes: %w", err)
	}
	return nil
}

// ApplyParked moves every parked entry whose student is known now into
// attendance (journal origin) and removes it from the parked list, through
// tx. A student sync runs it in its own transaction (AfterSync, given to studentsync.NewSyncer), so
// the students it brings in get their attendance with the same commit.
func ApplyParked(ctx context.Context, tx *sqlx.Tx) (api.AttendanceResult, error) {
	const q = `DELETE FROM attendance_unmatched u USING students s
		WHERE s.source_id = u.source_student_id AND s.active
		RETURNING s.id AS student_id, to_char(u.date, 'YYYY-MM-DD') AS date, u.lesson_hour, u.status, coalesce(u.notes, '') AS notes`
	var rows []struct {
		StudentID  int64  `db:"student_id"`
		Date       string `db:"date"`
		LessonHour int    `db:"lesson_hour"`
		Status     string `db:"status"`
		Notes      string `db:"notes"`
	}
	if err := tx.SelectContext(ctx, &rows, q); err != nil {
		return api.AttendanceResult{}, fmt.Errorf("journal: parked: %w", err)
	}
	if len(rows) == 0 {
		return api.AttendanceResult{}, nil
	}
	entries := make([]attendance.Entry, len(rows))
	for i, r := range rows {
		entries[i] = attendance.Entry{StudentID: r.StudentID, Date: r.Date, LessonHour: r.LessonHour, Status: r.Status, Notes: r.Notes}
	}
	return attendance.ApplyTx(ctx, tx, entries, attendance.Origin{Journal: true, Actor: Actor})
}

// Pushes returns a page of the push log, newest first, rendered in lang.
func (s *Store) Pushes(ctx context.Context, lang locale.Lang, limit, offset int) ([]api.JournalPush, int, error) {
	var total int
	if err := s.db.GetContext(ctx, &total, `SELECT count(*) FROM journal_pushes`); err != nil {
		return nil, 0, fmt.Errorf("journal: count pushes: %w", err)
	}
	const q = `SELECT id, received_at, address, outcome, entries, result, error_code, error_params, errors, duration_ms, kept
		FROM journal_pushes ORDER BY received_at DESC, id DESC LIMIT $1 OFFSET $2`
	var rows []struct {
		ID          int64     `db:"id"`
		ReceivedAt  time.Time `db:"received_at"`
		Address     string    `db:"address"`
		Outcome     string    `db:"outcome"`
		Entries     int       `db:"entries"`
		Result      []byte    `db:"result"`
		ErrorCode   string    `db:"error_code"`
		ErrorParams []byte    `db:"error_params"`
		Errors      []byte    `db:"errors"`
		DurationMS  int       `db:"duration_ms"`
		Kept        []byte    `db:"kept"`
	}
	if err := s.db.SelectContext(ctx, &rows, q, limit, offset); err != nil {
		return nil, 0, fmt.Errorf("journal: pushes: %w", err)
	}
	out := make([]api.JournalPush, len(rows))
	for i, r := range rows {
		p := api.JournalPush{ID: r.ID, ReceivedAt: r.ReceivedAt, Address: r.Address, Outcome: r.Outcome, Entries: r.Entries,
			ErrorCode: r.ErrorCode, Errors: []string{}, DurationMS: r.DurationMS}
		_ = json.Unmarshal(r.Result, &p.Results)
		if r.ErrorCode != "" {
			var params map[string]any
			_ = json.Unmarshal(r.ErrorParams, &params)
			p.Error = locale.Render(lang, r.ErrorCode, params)
		}
		var bad []badField
		_ = json.Unmarshal(r.Errors, &bad)
		for _, b := range bad {
			p.Errors = append(p.Errors, b.Field+": "+locale.Render(lang, b.Code, b.Param))
		}
		p.Kept = keptView(lang, r.Kept)
		out[i] = p
	}
	return out, total, nil
}

// Parked returns a page of the parked entries, newest first, with the
// reason in lang.
func (s *Store) Parked(ctx context.Context, lang locale.Lang, limit, offset int) ([]api.ParkedAttendance, int, error) {
	var total int
	if err := s.db.GetContext(ctx, &total, `SELECT count(*) FROM attendance_unmatched`); err != nil {
		return nil, 0, fmt.Errorf("journal: count parked: %w", err)
	}
	const q = `SELECT source_student_id, to_char(date, 'YYYY-MM-DD') AS date, lesson_hour, status, coalesce(notes, '') AS notes,
			reason, received_at
		FROM attendance_unmatched ORDER BY received_at DESC, source_student_id, date, lesson_hour LIMIT $1 OFFSET $2`
	var rows []struct {
		Source     int64     `db:"source_student_id"`
		Date       string    `db:"date"`
		LessonHour int       `db:"lesson_hour"`
		Status     string    `db:"status"`
		Notes      string    `db:"notes"`
		Reason     string    `db:"reason"`
		ReceivedAt time.Time `db:"received_at"`
	}
	if err := s.db.SelectContext(ctx, &rows, q, limit, offset); err != nil {
		return nil, 0, fmt.Errorf("journal: parked: %w", err)
	}
	out := make([]api.ParkedAttendance, len(rows))
	for i, r := range rows {
		out[i] = api.ParkedAttendance{SourceStudentID: r.Source, Date: r.Date, LessonHour: r.LessonHour, Status: r.Status, Notes: r.Notes,
			Reason: r.Reason, ReasonText: reasonText(lang, r.Reason), ReceivedAt: r.ReceivedAt}
	}
	return out, total, nil
}

// reasonText renders why an entry is parked.
func reasonText(lang locale.Lang, reason string) string {
	switch reason {
	case ReasonUnknownStudent:
		return locale.Render(lang, "journal.parked.unknown_student", nil)
	case ReasonInactiveStudent:
		return locale.Render(lang, "journal.parked.inactive_student", nil)
	default:
		return reason
	}
}

// keptView renders a push's kept sample: "kept: set by <name> at <time>"
// (Jakarta time) in lang.
func keptView(lang locale.Lang, raw []byte) []api.JournalKept {
	var kept []attendance.KeptCell
	_ = json.Unmarshal(raw, &kept)
	out := make([]api.JournalKept, len(kept))
	for i, k := range kept {
		key := "journal.kept"
		if k.SetByName == "" {
			key = "journal.kept_unnamed"
		}
		out[i] = api.JournalKept{StudentID: k.StudentID, StudentName: k.StudentName, Date: k.Date, LessonHour: k.LessonHour,
			JournalStatus: k.JournalStatus, Status: k.Status, SetByName: k.SetByName, SetAt: k.SetAt,
			Text: locale.Render(lang, key, map[string]any{"student": k.StudentName, "date": k.Date, "hour": k.LessonHour,
				"journal_status": k.JournalStatus, "status": k.Status, "name": k.SetByName,
				"at": schoolday.In(k.SetAt).Format("2006-01-02 15:04")})}
	}
	return out
}
