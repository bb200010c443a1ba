package notify

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/locale"
	"github.com/tatib/tatib/shared/api"
)

// row is a stored notification; Title and Body are rendered from Kind and
// Params per reader.
type row struct {
	ID          int64      `db:"id"`
	UserID      int64      `db:"user_id"`
	Kind        string     `db:"kind"`
	Params      []byte     `db:"params"`
	URL         string     `db:"url"`
	ViolationID *int64     `db:"violation_id"`
	CreatedAt   time.Time  `db:"created_at"`
	ReadAt      *time.Time `db:"read_at"`
}

const rowColumns = `id, user_id, kind, params, url, violation_id, created_at, read_at`

// params decodes the stored parameters; whole numbers come back as int64 so
// the catalogue writes them with the language's separators.
func (r row) params() map[string]any {
	out := map[string]any{}
	_ = json.Unmarshal(r.Params, &out)
	for k, v := range out {
		if f, ok := v.(float64); ok && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
			out[k] = int64(f)
		}
	}
	return out
}

// render returns the title and body in lang.
func (r row) render(lang locale.Lang) (title, body string) {
	p := r.params()
	str := func(k string) string { s, _ := p[k].(string); return s }
	switch r.Kind {
	case api.NotificationViolation:
		title = locale.Render(lang, "notify.violation.title", p)
		if str("class") == "" {
			title = locale.Render(lang, "notify.violation.title_no_class", p)
		}
		return title, locale.Render(lang, "notify.violation.body", p)
	case api.NotificationViolationCorrected:
		title = locale.Render(lang, "notify.corrected.title", p)
		if str("class") == "" {
			title = locale.Render(lang, "notify.corrected.title_no_class", p)
		}
		return title, locale.Render(lang, "notify.violation.body", p)
	case api.NotificationAttendance:
		src := SourceForm
		if s := str("source"); s == SourceJournal || s == SourceFace {
			src = s
		}
		title = locale.Render(lang, "notify.attendance.title."+src, p)
		body = locale.Render(lang, "notify.attendance.body", p)
		if str("class") != "" {
			body = locale.Render(lang, "notify.attendance.body_class", p)
		}
		return title, body
	case api.NotificationLetter:
		change := api.LetterChangeIssued
		if c := str("change"); c == api.LetterChangeWithdrawn || c == api.LetterChangeRaised || c == api.LetterChangeLowered {
			change = c
		}
		src := SourceForm
		if s := str("source"); s == SourceJournal || s == SourceFace {
			src = s
		}
		title = locale.Render(lang, "notify.letter.title."+change, p)
		if str("class") == "" {
			title = locale.Render(lang, "notify.letter.title_no_class."+change, p)
		}
		return title, locale.Render(lang, "notify.letter.body."+src, p)
	case api.NotificationCaseReport:
		return locale.Render(lang, "notify.case_report.title", p), locale.Render(lang, "notify.case_report.body", p)
	}
	return locale.Render(lang, "notify.unknown.title", nil), ""
}

func (r row) api(lang locale.Lang) api.Notification {
	title, body := r.render(lang)
	return api.Notification{ID: r.ID, Kind: r.Kind, Title: title, Body: body, URL: r.URL, Params: r.params(),
		ViolationID: r.ViolationID, CreatedAt: r.CreatedAt, ReadAt: r.ReadAt}
}

// message is r as a WebSocket message.
func (r row) message(lang locale.Lang) api.WSMessage {
	title, body := r.render(lang)
	at := r.CreatedAt
	return api.WSMessage{Type: api.WSNotification, ID: strconv.FormatInt(r.ID, 10), Kind: r.Kind, Title: title, Body: body,
		URL: r.URL, CreatedAt: &at}
}

// Store reads and marks a user's notifications.
type Store struct {
	db *sqlx.DB
}

// NewStore returns a Store on db.
func NewStore(db *sqlx.DB) *Store { return &Store{db: db} }

// List returns a page of userID's notifications, newest first, and the
// total.
func (s *Store) List(ctx context.Context, userID int64, offset, limit int) ([]row, int, error) {
	var total int
	if err := s.db.GetContext(ctx, &total, `SELECT count(*) FROM notifications WHERE user_id = $1`, userID); err != nil {
		return nil, 0, fmt.Errorf("notify: count: %w", err)
	}
	rows := []row{}
	const q = `SELECT ` + rowColumns + ` FROM notifications WHERE user_id = $1 ORDER BY id DESC OFFSET $2 LIMIT $3`
	if err := s.db.SelectContext(ctx, &rows, q, userID, offset, limit); err != nil {
		return nil, 0, fmt.Errorf("notify: list: %w", err)
	}
	return rows, total, nil
}

// Unread counts userID's unread notifications.
func (s *Store) Unread(ctx context.Context, userID int64) (int, error) {
	var n int
	if err := s.db.GetContext(ctx, &n, `SELECT count(*) FROM notifications WHERE user_id = $1 AND read_at IS NULL`, userID); err != nil {
		return 0, fmt.Errorf("notify: unread: %w", err)
	}
	return n, nil
}

// announceRead tells every replica that userID's unread count changed.
const announceRead = `SELECT pg_notify('` + Channel + `', 'r' || $1::text)`

// Read marks one of userID's notifications read and returns it; another
// user's id is NotFound.
func (s *Store) Read(ctx context.Context, userID, id int64) (row, error) {
	var r row
	const q = `WITH upd AS (
		UPDATE notifications SET read_at = coalesce(read_at, now()) WHERE id = $1 AND user_id = $2
		RETURNING ` + rowColumns + `)
		SELECT ` + rowColumns + ` FROM upd`
	err := s.db.GetContext(ctx, &r, q, id, userID)
	if errors.Is(err, sql.ErrNoRows) {
		return r, apperr.New(apperr.NotFound, "notify.not_found")
	}
	if err != nil {
		return r, fmt.Errorf("notify: read: %w", err)
	}
	if _, err := s.db.ExecContext(ctx, announceRead, userID); err != nil {
		return r, fmt.Errorf("notify: announce: %w", err)
	}
	return r, nil
}

// ReadAll marks every notification of userID read.
func (s *Store) ReadAll(ctx context.Context, userID int64) error {
	const q = `WITH upd AS (UPDATE notifications SET read_at = now() WHERE user_id = $1 AND read_at IS NULL RETURNING 1)
		SELECT pg_notify('` + Channel + `', 'r' || $1::text) FROM (SELECT count(*) FROM upd) c`
	if _, err := s.db.ExecContext(ctx, q, userID); err != nil {
		return fmt.Errorf("notify: read all: %w", err)
	}
	return nil
}

// since returns the notifications of users after afterID (0: created within
// window of now), oldest first, at most limit per call.
func since(ctx context.Context, db sqlx.QueryerContext, users []int64, afterID int64, window time.Duration) ([]row, error) {
	rows := []row{}
	const q = `SELECT ` + rowColumns + ` FROM notifications
		WHERE user_id = ANY($1::bigint[]) AND id > $2 AND ($3::float8 = 0 OR created_at > now() - make_interval(secs => $3))
		ORDER BY id`
	if err := sqlx.SelectContext(ctx, db, &rows, q, pq.Array(users), afterID, window.Seconds()); err != nil {
		return nil, fmt.Errorf("notify: since: %w", err)
	}
	return rows, nil
}
