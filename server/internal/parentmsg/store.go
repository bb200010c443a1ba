package parentmsg

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/phone"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/shared/api"
)

// LogPageSize is the delivery log's page.
const LogPageSize = 50

// Statuses are the delivery log's statuses.
var Statuses = []string{api.ParentMessageQueued, api.ParentMessageSent, api.ParentMessageFailed,
	api.ParentMessageCancelled, api.ParentMessageSkipped}

// Events are the messaging events.
var Events = []string{api.ParentEventViolation, api.ParentEventWarningLetter, api.ParentEventSummons, api.ParentEventAchievement}

// Reader is who reads the delivery log: a homeroom teacher (HomeroomID,
// their user id) sees the messages of students now in their class only;
// FullNumbers is false unless they hold parent_messages.manage.
type Reader struct {
	HomeroomID  int64
	FullNumbers bool
}

// LogFilter narrows the delivery log. Zero values do not filter; From and
// To are Jakarta days ("YYYY-MM-DD") of created_at, both included.
type LogFilter struct {
	Status    string
	Event     string
	StudentID int64
	ClassID   int64
	From, To  string
	Page      int
}

// Store reads and changes the delivery log.
type Store struct {
	db *sqlx.DB
}

// NewStore returns a Store.
func NewStore(db *sqlx.DB) *Store { return &Store{db: db} }

// logColumns are a row of api.ParentMessage; the student's class is the
// one they are in now.
const logColumns = `m.id, m.student_id, s.full_name AS student_name, COALESCE(c.name, '') AS class_name, m.event,
	m.violation_id, m.letter_id, m.handling_id, m.parent_name, m.phone,
	-- a portal sign-in code is the guardian's secret: staff read the message without it
	CASE WHEN m.event = 'portal_code' THEN regexp_replace(m.body, '[0-9]', '•', 'g') ELSE m.body END AS body, m.status, m.skip_reason, m.attempts,
	CASE WHEN m.status = 'queued' THEN m.next_attempt_at END AS next_attempt_at, m.gateway, m.gateway_message_id,
	m.last_outcome, m.last_http_status, m.last_answer, m.created_at, m.updated_at, m.sent_at`

const logFrom = ` FROM parent_messages m JOIN students s ON s.id = m.student_id LEFT JOIN classes c ON c.id = s.class_id`

// scopeSQL keeps a homeroom teacher's rows: the students now in the class
// whose homeroom teacher is the parameter (0: everyone).
func scopeSQL(param string) string {
	return `(` + param + `::bigint = 0 OR m.student_id IN (SELECT s2.id FROM students s2 JOIN classes c2 ON c2.id = s2.class_id
		WHERE c2.homeroom_teacher_id = ` + param + `::bigint))`
}

// where builds the filter's conditions and arguments; withStatus false
// leaves the status out (the counts per status).
func (f LogFilter) where(rd Reader, withStatus bool) (string, []any) {
	args := []any{rd.HomeroomID}
	conds := []string{scopeSQL("$1")}
	add := func(cond string, v any) {
		args = append(args, v)
		conds = append(conds, strings.ReplaceAll(cond, "?", "$"+strconv.Itoa(len(args))))
	}
	if withStatus && f.Status != "" {
		add("m.status = ?", f.Status)
	}
	if f.Event != "" {
		add("m.event = ?", f.Event)
	}
	if f.StudentID != 0 {
		add("m.student_id = ?", f.StudentID)
	}
	if f.ClassID != 0 {
		add("s.class_id = ?", f.ClassID)
	}
	if f.From != "" {
		add("m.created_at >= (?::date)::timestamp AT TIME ZONE 'Asia/Jakarta'", f.From)
	}
	if f.To != "" {
		add("m.created_at < (?::date + 1)::timestamp AT TIME ZONE 'Asia/Jakarta'", f.To)
	}
	return " WHERE " + strings.Join(conds, " AND "), args
}

// mask hides the number of m (and its echo in the gateway's answer) from a
// reader who may not see it.
func (rd Reader) mask(m *api.ParentMessage) {
	if rd.FullNumbers {
		return
	}
	m.LastAnswer = maskIn(m.LastAnswer, m.Phone)
	m.Phone = phone.Mask(m.Phone)
	m.PhoneMasked = true
}

// maskIn replaces number in text with its masked form: gateways often echo
// the target in their answer.
func maskIn(text, number string) string {
	if number == "" || text == "" {
		return text
	}
	return strings.ReplaceAll(text, number, phone.Mask(number))
}

// List answers one page of the delivery log, newest first, with the counts
// per status over the same filter without its status.
func (st *Store) List(ctx context.Context, rd Reader, f LogFilter) (api.ParentMessageList, error) {
	out := api.ParentMessageList{Data: []api.ParentMessage{}, Counts: map[string]int{}}
	for _, s := range Statuses {
		out.Counts[s] = 0
	}
	if f.Page < 1 {
		f.Page = 1
	}
	if f.ClassID != 0 {
		// Another teacher's class is as unknown as a class that does not exist.
		var id int64
		err := st.db.GetContext(ctx, &id, `SELECT id FROM classes WHERE id = $1 AND ($2::bigint = 0 OR homeroom_teacher_id = $2)`,
			f.ClassID, rd.HomeroomID)
		if err != nil {
			return out, pg.Error(err, "entity.class")
		}
	}
	w, args := f.where(rd, false)
	var counts []struct {
		Status string `db:"status"`
		N      int    `db:"n"`
	}
	if err := st.db.SelectContext(ctx, &counts, `SELECT m.status, count(*) AS n`+logFrom+w+` GROUP BY m.status`, args...); err != nil {
		return out, fmt.Errorf("parentmsg: count log: %w", err)
	}
	total := 0
	for _, c := range counts {
		out.Counts[c.Status] = c.N
		if f.Status == "" || f.Status == c.Status {
			total += c.N
		}
	}
	w, args = f.where(rd, true)
	args = append(args, LogPageSize, (f.Page-1)*LogPageSize)
	n := len(args)
	q := `SELECT ` + logColumns + logFrom + w + ` ORDER BY m.created_at DESC, m.id DESC LIMIT $` + strconv.Itoa(n-1) + ` OFFSET $` + strconv.Itoa(n)
	if err := st.db.SelectContext(ctx, &out.Data, q, args...); err != nil {
		return out, fmt.Errorf("parentmsg: list log: %w", err)
	}
	for i := range out.Data {
		rd.mask(&out.Data[i])
	}
	last := (total + LogPageSize - 1) / LogPageSize
	out.Meta = api.PageMeta{Page: f.Page, PerPage: LogPageSize, Total: total, LastPage: max(last, 1)}
	var state struct {
		PausedUntil *time.Time `db:"paused_until"`
		PauseReason string     `db:"pause_reason"`
	}
	err := st.db.GetContext(ctx, &state, `SELECT paused_until, pause_reason FROM messaging_state WHERE paused_until > now()`)
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return out, fmt.Errorf("parentmsg: messaging state: %w", err)
	default:
		out.PausedUntil, out.PauseReason = state.PausedUntil, state.PauseReason
	}
	return out, nil
}

// Get answers one message with every answer the gateway gave; a message
// outside the reader's scope is not found.
func (st *Store) Get(ctx context.Context, rd Reader, id int64) (api.ParentMessageDetail, error) {
	var out api.ParentMessageDetail
	q := `SELECT ` + logColumns + logFrom + ` WHERE m.id = $2 AND ` + scopeSQL("$1")
	if err := st.db.GetContext(ctx, &out.ParentMessage, q, rd.HomeroomID, id); err != nil {
		return out, pg.Error(err, "parentmsg.entity.message")
	}
	out.AttemptLog = []api.ParentMessageAttempt{}
	const qa = `SELECT id, attempted_at, duration_ms, gateway, outcome, http_status, answer
		FROM parent_message_attempts WHERE message_id = $1 ORDER BY id`
	if err := st.db.SelectContext(ctx, &out.AttemptLog, qa, id); err != nil {
		return out, fmt.Errorf("parentmsg: attempts: %w", err)
	}
	if !rd.FullNumbers {
		for i := range out.AttemptLog {
			out.AttemptLog[i].Answer = maskIn(out.AttemptLog[i].Answer, out.Phone)
		}
	}
	rd.mask(&out.ParentMessage)
	return out, nil
}

// stateError explains why a message in status could not be retried or
// cancelled (key), or that it does not exist for the reader.
func (st *Store) stateError(ctx context.Context, q sqlx.QueryerContext, rd Reader, id int64, key string) error {
	var status string
	err := sqlx.GetContext(ctx, q, &status, `SELECT m.status FROM parent_messages m WHERE m.id = $2 AND `+scopeSQL("$1"), rd.HomeroomID, id)
	if err != nil {
		return pg.Error(err, "parentmsg.entity.message")
	}
	return apperr.New(apperr.Conflict, key, "status", statusName(status))
}

// goneSQL is true when what caused message m was undone (the violation or
// handling deleted, the letter withdrawn): the worker cancels such a
// message rather than send it, so retrying it would only look like it
// worked. An attendance day's message (no violation of its own) is deleted
// by the ledger when its day has nothing left; a letter's correction is
// about a withdrawn letter.
const goneSQL = `((m.event = 'violation' AND m.violation_id IS NULL AND m.attendance_date IS NULL)
	OR (m.event = 'portal_code' AND m.created_at < now() - interval '5 minutes')
	OR (m.event = 'summons' AND m.handling_id IS NULL)
	OR (m.event = 'warning_letter' AND NOT m.correction AND (m.letter_id IS NULL
	    OR EXISTS (SELECT 1 FROM warning_letters w WHERE w.id = m.letter_id AND w.status = 'withdrawn'))))`

// notifyWorkers wakes the workers at commit.
func notifyWorkers(ctx context.Context, tx *sqlx.Tx) error {
	if _, err := tx.ExecContext(ctx, `SELECT pg_notify($1, '')`, Channel); err != nil {
		return fmt.Errorf("parentmsg: notify: %w", err)
	}
	return nil
}

// Retry queues a failed, cancelled or skipped message again, due now, with
// its attempts reset and the student's current parent phone: one guarded
// UPDATE, so of two racing requests only one succeeds.
func (st *Store) Retry(ctx context.Context, actor audit.Actor, rd Reader, id int64) (api.ParentMessageDetail, error) {
	err := pg.InTx(ctx, st.db, func(tx *sqlx.Tx) error {
		var cur struct {
			Status      string `db:"status"`
			ParentName  string `db:"parent_name"`
			ParentPhone string `db:"parent_phone"`
			Gone        bool   `db:"gone"`
		}
		q := `SELECT m.status, s.parent_name, s.parent_phone, ` + goneSQL + ` AS gone
			FROM parent_messages m JOIN students s ON s.id = m.student_id
			WHERE m.id = $2 AND ` + scopeSQL("$1")
		if err := tx.GetContext(ctx, &cur, q, rd.HomeroomID, id); err != nil {
			return pg.Error(err, "parentmsg.entity.message")
		}
		if cur.Status == api.ParentMessageQueued || cur.Status == api.ParentMessageSent {
			return apperr.New(apperr.Conflict, "parentmsg.retry.state", "status", statusName(cur.Status))
		}
		if cur.Gone {
			return apperr.New(apperr.Conflict, "parentmsg.retry.gone")
		}
		number, problem := phone.Normalize(cur.ParentPhone)
		if problem != phone.None {
			return apperr.New(apperr.Conflict, "parentmsg.retry.no_phone", "problem", phoneProblem(problem))
		}
		const upd = `UPDATE parent_messages SET status = 'queued', skip_reason = '', attempts = 0, next_attempt_at = now(),
			parent_name = $2, phone_raw = $3, phone = $4, cancelled_by = NULL, updated_at = now()
			WHERE id = $1 AND status IN ('failed', 'cancelled', 'skipped') RETURNING status`
		var was string
		if err := tx.GetContext(ctx, &was, upd, id, cur.ParentName, cur.ParentPhone, number); errors.Is(err, sql.ErrNoRows) {
			return st.stateError(ctx, tx, rd, id, "parentmsg.retry.state")
		} else if err != nil {
			return fmt.Errorf("parentmsg: retry: %w", err)
		}
		if err := audit.Record(ctx, tx, actor, "parent_message.retry", "parent_message", strconv.FormatInt(id, 10),
			map[string]any{"from": cur.Status}); err != nil {
			return err
		}
		return notifyWorkers(ctx, tx)
	})
	if err != nil {
		return api.ParentMessageDetail{}, err
	}
	return st.Get(ctx, rd, id)
}

// Cancel stops a queued message: one guarded UPDATE, which waits for a
// worker holding the message and then finds it no longer queued.
func (st *Store) Cancel(ctx context.Context, actor audit.Actor, rd Reader, id int64) (api.ParentMessageDetail, error) {
	err := pg.InTx(ctx, st.db, func(tx *sqlx.Tx) error {
		upd := `UPDATE parent_messages m SET status = 'cancelled', cancelled_by = NULLIF($3::bigint, 0), updated_at = now()
			WHERE m.id = $2 AND m.status = 'queued' AND ` + scopeSQL("$1") + ` RETURNING m.id`
		var got int64
		if err := tx.GetContext(ctx, &got, upd, rd.HomeroomID, id, actor.ID); errors.Is(err, sql.ErrNoRows) {
			return st.stateError(ctx, tx, rd, id, "parentmsg.cancel.state")
		} else if err != nil {
			return fmt.Errorf("parentmsg: cancel: %w", err)
		}
		return audit.Record(ctx, tx, actor, "parent_message.cancel", "parent_message", strconv.FormatInt(id, 10), nil)
	})
	if err != nil {
		return api.ParentMessageDetail{}, err
	}
	return st.Get(ctx, rd, id)
}

// RetryFailed queues every failed message in the reader's scope again,
// each with its student's current phone; a message whose student now has
// no usable phone, or whose cause was undone, stays failed. It answers how many were queued.
func (st *Store) RetryFailed(ctx context.Context, actor audit.Actor, rd Reader) (int, error) {
	n := 0
	err := pg.InTx(ctx, st.db, func(tx *sqlx.Tx) error {
		var rows []struct {
			ID          int64  `db:"id"`
			ParentName  string `db:"parent_name"`
			ParentPhone string `db:"parent_phone"`
		}
		q := `SELECT m.id, s.parent_name, s.parent_phone FROM parent_messages m JOIN students s ON s.id = m.student_id
			WHERE m.status = 'failed' AND NOT ` + goneSQL + ` AND ` + scopeSQL("$1") + ` ORDER BY m.id`
		if err := tx.SelectContext(ctx, &rows, q, rd.HomeroomID); err != nil {
			return fmt.Errorf("parentmsg: failed messages: %w", err)
		}
		var ids []int64
		var names, raws, numbers []string
		for _, r := range rows {
			number, problem := phone.Normalize(r.ParentPhone)
			if problem != phone.None {
				continue
			}
			ids, names, raws, numbers = append(ids, r.ID), append(names, r.ParentName), append(raws, r.ParentPhone), append(numbers, number)
		}
		if len(ids) == 0 {
			return nil
		}
		const upd = `UPDATE parent_messages m SET status = 'queued', attempts = 0, next_attempt_at = now(),
			parent_name = u.parent_name, phone_raw = u.phone_raw, phone = u.phone, updated_at = now()
			FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[]) AS u(id, parent_name, phone_raw, phone)
			WHERE m.id = u.id AND m.status = 'failed' RETURNING m.id`
		var done []int64
		if err := tx.SelectContext(ctx, &done, upd, pq.Array(ids), pq.Array(names), pq.Array(raws), pq.Array(numbers)); err != nil {
			return fmt.Errorf("parentmsg: retry failed: %w", err)
		}
		n = len(done)
		if n == 0 {
			return nil
		}
		if err := audit.Record(ctx, tx, actor, "parent_message.retry_failed", "parent_message", "", map[string]any{"ids": done}); err != nil {
			return err
		}
		return notifyWorkers(ctx, tx)
	})
	return n, err
}

// FailedCount is how many messages failed, in the reader's scope (the
// dashboard's figure).
func FailedCount(ctx context.Context, q sqlx.QueryerContext, homeroomID int64) (int, error) {
	var n int
	err := sqlx.GetContext(ctx, q, &n, `SELECT count(*) FROM parent_messages m WHERE m.status = 'failed' AND `+scopeSQL("$1"), homeroomID)
	if err != nil {
		return 0, fmt.Errorf("parentmsg: failed count: %w", err)
	}
	return n, nil
}

// previewSource reads the facts of the student's latest event, as the
// outbox would read them, or nil when the student has none.
func previewSource(ctx context.Context, q sqlx.QueryerContext, event string, studentID int64, month, day int) (*source, error) {
	var find, sources string
	switch event {
	case api.ParentEventViolation:
		find = `SELECT id FROM violations WHERE student_id = $1 ORDER BY occurred_at DESC, id DESC LIMIT 1`
		sources = violationSources
	case api.ParentEventWarningLetter:
		find = `SELECT id FROM warning_letters WHERE student_id = $1 AND status <> 'withdrawn' ORDER BY issued_at DESC, id DESC LIMIT 1`
		sources = letterSources
	case api.ParentEventAchievement:
		find = `SELECT a.id FROM achievements a JOIN achievement_students x ON x.achievement_id = a.id
			WHERE x.student_id = $1 ORDER BY a.achieved_on DESC, a.id DESC LIMIT 1`
		sources = strings.Replace(achievementSources, "ORDER BY a.id, s.id", "AND s.id = $4 ORDER BY a.id, s.id", 1)
	default:
		find = `SELECT h.id FROM handlings h JOIN handling_types ht ON ht.id = h.handling_type_id AND ht.summons_parent
			JOIN violation_handlings vh ON vh.handling_id = h.id JOIN violations v ON v.id = vh.violation_id
			WHERE v.student_id = $1 ORDER BY h.handled_on DESC, h.id DESC LIMIT 1`
		sources = summonsSources
	}
	var id int64
	if err := sqlx.GetContext(ctx, q, &id, find, studentID); errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("parentmsg: preview source: %w", err)
	}
	var srcs []source
	args := []any{pq.Array([]int64{id}), month, day}
	if event == api.ParentEventAchievement {
		args = append(args, studentID)
	}
	if err := sqlx.SelectContext(ctx, q, &srcs, sources, args...); err != nil {
		return nil, fmt.Errorf("parentmsg: preview source: %w", err)
	}
	if len(srcs) == 0 {
		return nil, nil
	}
	return &srcs[0], nil
}

// Example values of the event-specific placeholders, for a student who has
// no such event yet.
const (
	exampleType   = "Terlambat masuk sekolah"
	examplePoints = 5
	exampleLevel  = "SP 1"
	// An achievement's, for the achievement event's preview.
	exampleAchievement      = "Juara 1 Olimpiade Sains"
	exampleAchievementLevel = "Provinsi"
)

// Preview renders template with the student's values: their latest event
// of the kind when they have one, example values for what they lack.
func Preview(ctx context.Context, q sqlx.QueryerContext, event, template string, studentID int64, now time.Time) (api.MessagingPreview, error) {
	profile, err := school.LoadProfile(ctx, q)
	if err != nil {
		return api.MessagingPreview{}, fmt.Errorf("parentmsg: profile: %w", err)
	}
	month, day := yearStart(profile.AcademicYearStart)
	// The student as they are now, with this academic year's points and
	// their latest live letter.
	stq := `SELECT s.id AS source_id, ` + studentColumns + `, COALESCE(c.name, '') AS class_name,
		    '' AS type_name, 0 AS points, ` + yearTotal("$4::date") + ` AS total,
		    COALESCE((SELECT w.name FROM warning_letters w WHERE w.student_id = s.id AND w.status <> 'withdrawn'
		        ORDER BY w.academic_year_start DESC, w.level DESC LIMIT 1), '') AS level_name,
		    $4::date AS day, $4::date AS summons_day
		FROM students s LEFT JOIN classes c ON c.id = s.class_id WHERE s.id = $1`
	var st source
	if err := sqlx.GetContext(ctx, q, &st, stq, studentID, month, day, schoolday.Of(now)); err != nil {
		return api.MessagingPreview{}, pg.Error(err, "entity.student")
	}
	src, err := previewSource(ctx, q, event, studentID, month, day)
	if err != nil {
		return api.MessagingPreview{}, err
	}
	if src == nil {
		src = &st
		src.TypeName, src.Points = exampleType, examplePoints
		if src.Level == "" {
			src.Level = exampleLevel
		}
		if event == api.ParentEventAchievement {
			src.TypeName, src.Level = exampleAchievement, exampleAchievementLevel
		}
	}
	values := src.values(profile.Name, event)
	out := api.MessagingPreview{Text: Render(template, values), Values: values, StudentName: st.Name}
	number, problem := phone.Normalize(st.ParentPhone)
	out.Phone = number
	if problem != phone.None {
		out.PhoneIssue = renderProblem(ctx, problem)
	}
	return out, nil
}
