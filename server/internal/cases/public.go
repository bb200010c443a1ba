package cases

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"math/big"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/auth"
	"github.com/tatib/tatib/server/internal/notify"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/violation"
	"github.com/tatib/tatib/shared/api"
)

// Limits of the anonymous channel.
const (
	MaxReportPhotos = 3
	MaxMessage      = 2000
	MaxMessages     = 200
	// MaxReportBytes is the largest body POST /public/reports accepts:
	// the photos at their limit plus the form (api.New raises the upload
	// limit to it for that route).
	MaxReportBytes = MaxReportPhotos*violation.MaxPhotoBytes + 1<<20
	// maxFailedPins wrong PINs in a row lock a code for pinLock.
	maxFailedPins = 5
	pinLock       = 30 * time.Minute
	codeLen       = 10
)

// Per-address limits: a few reports an hour, a few dozen lookups in ten
// minutes (a reporter checking often; a guesser gets nowhere against
// 32^10 codes with a 6-digit PIN that locks after 5 misses).
var (
	ReportLimit = Limit{N: 5, Window: time.Hour}
	LookupLimit = Limit{N: 30, Window: 10 * time.Minute}
)

// Limit is at most N hits per Window from one address.
type Limit struct {
	N      int
	Window time.Duration
}

const codeAlphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"

func randomString(alphabet string, n int) string {
	b := make([]byte, n)
	for i := range b {
		k, err := rand.Int(rand.Reader, big.NewInt(int64(len(alphabet))))
		if err != nil {
			panic(err)
		}
		b[i] = alphabet[k.Int64()]
	}
	return string(b)
}

// allow counts a hit of kind from addr and refuses it past the limit. Only
// a hash of the address is stored, and only for the window.
func allow(ctx context.Context, db *sqlx.DB, kind, addr string, lim Limit) error {
	sum := sha256.Sum256([]byte("tatib-case-report:" + addr))
	var row struct {
		Hits     int       `db:"hits"`
		Start    time.Time `db:"window_start"`
		Inserted bool      `db:"inserted"`
		Now      time.Time `db:"now"`
	}
	const q = `INSERT INTO case_report_hits (kind, address_hash, window_start, hits)
		VALUES ($1, $2, date_bin(make_interval(secs => $3), now(), timestamptz '2000-01-01 00:00:00+00'), 1)
		ON CONFLICT (kind, address_hash, window_start) DO UPDATE SET hits = case_report_hits.hits + 1
		RETURNING hits, window_start, xmax = 0 AS inserted, now() AS now`
	if err := db.GetContext(ctx, &row, q, kind, hex.EncodeToString(sum[:]), lim.Window.Seconds()); err != nil {
		return fmt.Errorf("cases: report limit: %w", err)
	}
	if row.Inserted {
		if _, err := db.ExecContext(ctx, `DELETE FROM case_report_hits WHERE kind = $1 AND window_start < $2`, kind, row.Start.Add(-lim.Window)); err != nil {
			return fmt.Errorf("cases: report limit prune: %w", err)
		}
	}
	if row.Hits > lim.N {
		wait := row.Start.Add(lim.Window).Sub(row.Now)
		return &apperr.Error{Code: apperr.RateLimited, RetryAfter: max(1, int(math.Ceil(wait.Seconds()))),
			Msg: apperr.M("cases.report.rate_limited", "minutes", max(1, int(math.Ceil(wait.Minutes()))))}
	}
	return nil
}

// PublicCategories lists the active categories for the report form.
func (s *Store) PublicCategories(ctx context.Context) ([]api.CaseCategory, error) {
	out := []api.CaseCategory{}
	if err := s.db.SelectContext(ctx, &out, `SELECT id, name, active, sort_order FROM case_categories WHERE active ORDER BY sort_order, name`); err != nil {
		return nil, fmt.Errorf("cases: categories: %w", err)
	}
	return out, nil
}

// FileReport files an anonymous report: a case in identification, source
// anonymous_report, whose team is the school's active counselors (bk). It
// answers the tracking code and the PIN, which is stored hashed only.
func (s *Store) FileReport(ctx context.Context, in api.PublicReportRequest, photos []violation.Photo) (api.PublicReportReceipt, error) {
	f := apperr.Fields{}
	in.Description = strings.TrimSpace(in.Description)
	switch {
	case in.Description == "":
		f.Add("description", "cases.report.description_required")
	case tooLong(in.Description, MaxDescription):
		f.Add("description", "cases.description.too_long", "max", MaxDescription)
	}
	if in.CategoryID <= 0 {
		f.Add("category_id", "cases.category.required")
	}
	in.Place, in.Name = clean(in.Place), clean(in.Name)
	if tooLong(in.Place, MaxPlace) {
		f.Add("place", "cases.place.too_long", "max", MaxPlace)
	}
	if tooLong(in.Name, MaxName) {
		f.Add("name", "cases.participant.name_too_long", "max", MaxName)
	}
	at := s.now()
	if strings.TrimSpace(in.OccurredAt) != "" {
		at = checkOccurred(f, "occurred_at", in.OccurredAt, s.now())
	}
	if len(f) > 0 {
		return api.PublicReportReceipt{}, invalid(f)
	}
	pin := randomString("0123456789", 6)
	hash, err := auth.HashPassword(pin)
	if err != nil {
		return api.PublicReportReceipt{}, err
	}
	out := api.PublicReportReceipt{PIN: pin}
	err = pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		if err := checkCategory(ctx, tx, in.CategoryID, "category_id"); err != nil {
			return err
		}
		var category string
		if err := tx.GetContext(ctx, &category, `SELECT name FROM case_categories WHERE id = $1`, in.CategoryID); err != nil {
			return fmt.Errorf("cases: category: %w", err)
		}
		var id int64
		if err := tx.GetContext(ctx, &id, `INSERT INTO cases (title, occurred_at, place, description, category_id, source)
			VALUES ($1, $2, $3, $4, $5, 'anonymous_report') RETURNING id`,
			"Laporan anonim: "+category, at, in.Place, in.Description, in.CategoryID); err != nil {
			return fmt.Errorf("cases: report: %w", err)
		}
		set, err := Settings(ctx, tx)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO case_stages (case_id, stage, due_on, started_at)
			SELECT $1, st, $2::date + (sum(d) OVER (ORDER BY i))::int, CASE WHEN i = 1 THEN now() END
			FROM unnest(ARRAY['identification','handling','conclusions'], ARRAY[$3, $4, $5]::int[]) WITH ORDINALITY AS x(st, d, i)`,
			id, s.today(), set.IdentificationDays, set.HandlingDays, set.ConclusionsDays); err != nil {
			return fmt.Errorf("cases: report stages: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO case_team (case_id, user_id) SELECT $1, id FROM users WHERE role = 'bk' AND active`, id); err != nil {
			return fmt.Errorf("cases: report team: %w", err)
		}
		var rid int64
		for range 5 {
			out.Code = randomString(codeAlphabet, codeLen)
			err = tx.GetContext(ctx, &rid, `INSERT INTO case_reports (case_id, code, pin_hash, reporter_name) VALUES ($1, $2, $3, $4)
				ON CONFLICT (code) DO NOTHING RETURNING id`, id, out.Code, hash, in.Name)
			if !errors.Is(err, sql.ErrNoRows) {
				break
			}
		}
		if err != nil {
			return fmt.Errorf("cases: report code: %w", err)
		}
		if err := insertPhotos(ctx, tx, rid, photos); err != nil {
			return err
		}
		if err := notify.CaseReportTx(ctx, tx, id); err != nil {
			return err
		}
		// The audit names no address and no reporter: the report's own
		// promise (docs/cases.md).
		return audit.Record(ctx, tx, audit.Actor{Name: "public"}, "case.report.create", "case", strconv.FormatInt(id, 10),
			map[string]any{"category_id": in.CategoryID, "photos": len(photos)})
	})
	if err != nil {
		return api.PublicReportReceipt{}, err
	}
	return out, nil
}

func insertPhotos(ctx context.Context, tx *sqlx.Tx, reportID int64, photos []violation.Photo) error {
	if len(photos) == 0 {
		return nil
	}
	imgs := make([][]byte, len(photos))
	thumbs := make([][]byte, len(photos))
	ws := make([]int64, len(photos))
	hs := make([]int64, len(photos))
	for i, p := range photos {
		imgs[i], thumbs[i], ws[i], hs[i] = p.Image, p.Thumbnail, int64(p.Width), int64(p.Height)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO case_report_photos (report_id, image, thumbnail, width, height)
		SELECT $1, im, th, w, h FROM unnest($2::bytea[], $3::bytea[], $4::int[], $5::int[]) WITH ORDINALITY AS x(im, th, w, h, i) ORDER BY i`,
		reportID, pq.ByteaArray(imgs), pq.ByteaArray(thumbs), pq.Array(ws), pq.Array(hs)); err != nil {
		return fmt.Errorf("cases: report photos: %w", err)
	}
	return nil
}

// openReport finds the report of code and checks pin, locked for update.
// An unknown code and a wrong PIN answer the same NotFound after the same
// bcrypt comparison; a locked code says so. denied is that answer: the
// caller commits (a wrong PIN's count must stay) and then returns it.
func openReport(ctx context.Context, tx *sqlx.Tx, code, pin string) (id int64, denied, err error) {
	var row struct {
		ID     int64        `db:"id"`
		Hash   string       `db:"pin_hash"`
		Failed int          `db:"failed_pins"`
		Locked sql.NullTime `db:"locked_until"`
		Now    time.Time    `db:"now"`
	}
	code = strings.ToUpper(strings.Join(strings.Fields(code), ""))
	code = strings.ReplaceAll(code, "-", "")
	if len(code) != codeLen {
		code = ""
	}
	err = tx.GetContext(ctx, &row, `SELECT id, pin_hash, failed_pins, locked_until, now() AS now FROM case_reports WHERE code = $1 FOR UPDATE`, code)
	notFound := apperr.New(apperr.NotFound, "cases.report.not_found")
	if errors.Is(err, sql.ErrNoRows) {
		auth.CheckPassword(dummyPIN(), pin)
		return 0, notFound, nil
	}
	if err != nil {
		return 0, nil, fmt.Errorf("cases: report: %w", err)
	}
	if row.Locked.Valid && row.Locked.Time.After(row.Now) {
		return 0, &apperr.Error{Code: apperr.RateLimited, RetryAfter: int(row.Locked.Time.Sub(row.Now).Seconds()) + 1,
			Msg: apperr.M("cases.report.locked", "minutes", int(math.Ceil(row.Locked.Time.Sub(row.Now).Minutes())))}, nil
	}
	if len(pin) > 20 || !auth.CheckPassword(row.Hash, pin) {
		failed := row.Failed + 1
		var lock any
		if failed >= maxFailedPins {
			failed, lock = 0, row.Now.Add(pinLock)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE case_reports SET failed_pins = $2, locked_until = COALESCE($3, locked_until) WHERE id = $1`, row.ID, failed, lock); err != nil {
			return 0, nil, fmt.Errorf("cases: report pin: %w", err)
		}
		return 0, notFound, nil
	}
	if row.Failed > 0 {
		if _, err := tx.ExecContext(ctx, `UPDATE case_reports SET failed_pins = 0 WHERE id = $1`, row.ID); err != nil {
			return 0, nil, fmt.Errorf("cases: report pin: %w", err)
		}
	}
	return row.ID, nil, nil
}

var (
	dummyOnce sync.Once
	dummy     string
)

// dummyPIN is compared against for an unknown code, so it takes as long
// as a wrong PIN.
func dummyPIN() string {
	dummyOnce.Do(func() { dummy, _ = auth.HashPassword("000000") })
	return dummy
}

// reportView is what the reporter sees: where the report stands and the
// messages, nothing else of the case.
func reportView(ctx context.Context, tx *sqlx.Tx, reportID int64) (api.PublicReportView, error) {
	var out api.PublicReportView
	if err := tx.GetContext(ctx, &out, `SELECT r.code, r.created_at, cc.name AS category, c.stage
		FROM case_reports r JOIN cases c ON c.id = r.case_id JOIN case_categories cc ON cc.id = c.category_id WHERE r.id = $1`, reportID); err != nil {
		return out, fmt.Errorf("cases: report view: %w", err)
	}
	out.Status = "received"
	switch out.Stage {
	case api.CaseStageHandling, api.CaseStageConclusions:
		out.Status = "in_progress"
	case api.CaseStageClosed:
		out.Status = "closed"
	}
	out.Messages = []api.PublicReportMessage{}
	if err := tx.SelectContext(ctx, &out.Messages, `SELECT CASE WHEN from_reporter THEN 'reporter' ELSE 'school' END AS sender, body AS text, created_at AS at
		FROM case_report_messages WHERE report_id = $1 ORDER BY id`, reportID); err != nil {
		return out, fmt.Errorf("cases: report messages: %w", err)
	}
	return out, nil
}

// Lookup answers the report of code and pin.
func (s *Store) Lookup(ctx context.Context, in api.PublicReportLookup) (api.PublicReportView, error) {
	var out api.PublicReportView
	var denied error
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		id, no, err := openReport(ctx, tx, in.Code, in.PIN)
		if err != nil || no != nil {
			denied = no
			return err
		}
		out, err = reportView(ctx, tx, id)
		return err
	})
	if err == nil {
		err = denied
	}
	return out, err
}

// ReporterMessage adds the reporter's message to the report of code.
func (s *Store) ReporterMessage(ctx context.Context, in api.PublicReportMessageInput) (api.PublicReportView, error) {
	text := strings.TrimSpace(in.Text)
	f := apperr.Fields{}
	switch {
	case text == "":
		f.Add("text", "cases.report.message_required")
	case tooLong(text, MaxMessage):
		f.Add("text", "cases.report.message_too_long", "max", MaxMessage)
	}
	if len(f) > 0 {
		return api.PublicReportView{}, invalid(f)
	}
	var out api.PublicReportView
	var denied error
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		id, no, err := openReport(ctx, tx, in.Code, in.PIN)
		if err != nil || no != nil {
			denied = no
			return err
		}
		if err := addMessage(ctx, tx, id, true, text, 0, ""); err != nil {
			return err
		}
		out, err = reportView(ctx, tx, id)
		return err
	})
	if err == nil {
		err = denied
	}
	return out, err
}

func addMessage(ctx context.Context, tx *sqlx.Tx, reportID int64, fromReporter bool, text string, userID int64, userName string) error {
	var n int
	if err := tx.GetContext(ctx, &n, `SELECT count(*) FROM case_report_messages WHERE report_id = $1`, reportID); err != nil {
		return fmt.Errorf("cases: messages: %w", err)
	}
	if n >= MaxMessages {
		return apperr.New(apperr.Conflict, "cases.report.too_many_messages", "max", MaxMessages)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO case_report_messages (report_id, from_reporter, body, user_id, user_name) VALUES ($1, $2, $3, $4, $5)`,
		reportID, fromReporter, text, nullID(userID), userName); err != nil {
		return fmt.Errorf("cases: message: %w", err)
	}
	return nil
}

// StaffReply adds the school's reply to the report of case id (the team
// and admins only).
func (s *Store) StaffReply(ctx context.Context, actor audit.Actor, rd Reader, id int64, in api.CaseReplyInput) (api.Case, error) {
	text := strings.TrimSpace(in.Text)
	switch {
	case text == "":
		return api.Case{}, apperr.New(apperr.Invalid, "cases.invalid").WithField("text", "cases.report.message_required")
	case tooLong(text, MaxMessage):
		return api.Case{}, apperr.New(apperr.Invalid, "cases.invalid").WithField("text", "cases.report.message_too_long", "max", MaxMessage)
	}
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		lvl, err := level(ctx, tx, rd, id)
		if err != nil {
			return err
		}
		if lvl != api.CaseLevelFull {
			return apperr.New(apperr.Forbidden, "cases.not_in_team")
		}
		var rid int64
		err = tx.GetContext(ctx, &rid, `SELECT id FROM case_reports WHERE case_id = $1 FOR UPDATE`, id)
		if errors.Is(err, sql.ErrNoRows) {
			return apperr.New(apperr.Conflict, "cases.report.none")
		}
		if err != nil {
			return fmt.Errorf("cases: report: %w", err)
		}
		if err := addMessage(ctx, tx, rid, false, text, rd.UserID, rd.Name); err != nil {
			return err
		}
		return audit.Record(ctx, tx, actor, "case.report.reply", "case", strconv.FormatInt(id, 10), map[string]any{"length": len(text)})
	})
	if err != nil {
		return api.Case{}, err
	}
	return s.Get(ctx, rd, id, "update")
}

// loadReport fills the case's report (the team and admins only).
func loadReport(ctx context.Context, tx *sqlx.Tx, out *api.Case) error {
	if out.Level != api.CaseLevelFull || out.Source != api.CaseSourceAnonymousReport {
		return nil
	}
	var r struct {
		ID   int64  `db:"id"`
		Name string `db:"reporter_name"`
	}
	err := tx.GetContext(ctx, &r, `SELECT id, reporter_name FROM case_reports WHERE case_id = $1`, out.ID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cases: report: %w", err)
	}
	rep := &api.CaseReport{ReporterName: r.Name, Messages: []api.CaseReportMessage{}, PhotoIDs: []int64{}}
	if err := tx.SelectContext(ctx, &rep.Messages, `SELECT id, from_reporter, body AS text, user_name, created_at AS at
		FROM case_report_messages WHERE report_id = $1 ORDER BY id`, r.ID); err != nil {
		return fmt.Errorf("cases: report messages: %w", err)
	}
	if err := tx.SelectContext(ctx, &rep.PhotoIDs, `SELECT id FROM case_report_photos WHERE report_id = $1 ORDER BY id`, r.ID); err != nil {
		return fmt.Errorf("cases: report photos: %w", err)
	}
	out.Report = rep
	return nil
}

// Photo answers a photo of case id's report (the team and admins only),
// logging the read.
func (s *Store) Photo(ctx context.Context, rd Reader, id, photoID int64, thumbnail bool) ([]byte, error) {
	var b []byte
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		lvl, err := level(ctx, tx, rd, id)
		if err != nil {
			return err
		}
		if lvl != api.CaseLevelFull {
			return apperr.New(apperr.Forbidden, "cases.not_in_team")
		}
		col := "image"
		if thumbnail {
			col = "thumbnail"
		}
		if err := tx.GetContext(ctx, &b, `SELECT p.`+col+` FROM case_report_photos p JOIN case_reports r ON r.id = p.report_id
			WHERE p.id = $1 AND r.case_id = $2`, photoID, id); err != nil {
			return pg.Error(err, "cases.entity.photo")
		}
		return logReads(ctx, tx, rd, []int64{id}, []string{lvl}, "photo")
	})
	return b, err
}

// reportForm reads POST /public/reports: JSON, or multipart with the JSON
// in "data" and up to MaxReportPhotos "photos", each re-encoded as it
// arrives (no EXIF survives).
var reportForm = violation.PhotoForm{
	DataPart: "data", PhotoPart: "photos", MaxPhotos: MaxReportPhotos, MaxData: 64 << 10,
	Unreadable:  "violation.request.multipart_unreadable",
	UnknownPart: "violation.request.unknown_part",
	TooMany:     "violation.photo.too_many",
	DataMissing: "violation.request.data_missing",
}

func readReport(r *http.Request) (api.PublicReportRequest, []violation.Photo, error) {
	var in api.PublicReportRequest
	f := apperr.Fields{}
	photos, err := reportForm.Read(r, &in, f)
	if err != nil {
		return in, nil, err
	}
	if len(f) > 0 {
		return in, nil, invalid(f)
	}
	return in, photos, nil
}
