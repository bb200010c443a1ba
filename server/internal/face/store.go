package face

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/attendance"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/erasure"
	"github.com/tatib/tatib/server/internal/face/match"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/shared/api"
)

// Store is Face-ID's data: consents, embeddings (and the index cache every
// scan and enrolment is matched against), kiosks, challenges, scans and the
// settings. Handlers decode, validate and answer; every statement a
// request runs is here (Sweep and ReapplyErasure, which run outside a
// request, keep theirs beside them). One per process, for the cache.
type Store struct {
	db    *sqlx.DB
	cache *match.Cache
}

// NewStore returns a Store with its own index cache.
func NewStore(db *sqlx.DB) *Store { return &Store{db: db, cache: match.NewCache()} }

// Student reads a student within the caller's scope (homeroom 0: any).
func (s *Store) Student(ctx context.Context, homeroom, id int64) (student, error) {
	return getStudent(ctx, s.db, homeroom, id)
}

// Status is a student's Face-ID status within the caller's scope.
func (s *Store) Status(ctx context.Context, homeroom, id int64) (api.FaceStatus, error) {
	st, err := getStudent(ctx, s.db, homeroom, id)
	if err != nil {
		return api.FaceStatus{}, err
	}
	return status(ctx, s.db, st)
}

// SaveConsent records the parent's consent, or corrects the active one
// (its embeddings stay).
func (s *Store) SaveConsent(ctx context.Context, actor audit.Actor, homeroom, id int64, in api.FaceConsentInput) (api.FaceStatus, error) {
	var out api.FaceStatus
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		st, err := lockStudent(ctx, tx, homeroom, id)
		if err != nil {
			return err
		}
		var consentID int64
		corrected := true
		err = tx.GetContext(ctx, &consentID, `UPDATE face_consents SET guardian_name = $2, relationship = $3, method = $4,
			given_on = $5::date, reference = $6 WHERE student_id = $1 AND withdrawn_at IS NULL RETURNING id`,
			id, in.GuardianName, in.Relationship, in.Method, in.GivenOn, in.Reference)
		if pgNoRows(err) {
			corrected = false
			err = tx.GetContext(ctx, &consentID, `INSERT INTO face_consents (student_id, guardian_name, relationship, method, given_on,
				reference, recorded_by, recorded_by_name) VALUES ($1, $2, $3, $4, $5::date, $6, $7, $8) RETURNING id`,
				id, in.GuardianName, in.Relationship, in.Method, in.GivenOn, in.Reference, userRef(actor), actor.Display())
		}
		if err != nil {
			return fmt.Errorf("face: save consent: %w", err)
		}
		if err := audit.Record(ctx, tx, actor, "face.consent_record", "student", strconv.FormatInt(id, 10), map[string]any{
			"consent_id": consentID, "corrected": corrected, "student": st.Name, "guardian_name": in.GuardianName,
			"relationship": in.Relationship, "method": in.Method, "given_on": in.GivenOn, "reference": in.Reference,
		}); err != nil {
			return err
		}
		out, err = status(ctx, tx, st)
		return err
	})
	return out, err
}

// WithdrawConsent withdraws the active consent and deletes the student's
// embeddings in the same transaction, with an entry in the erasure ledger.
func (s *Store) WithdrawConsent(ctx context.Context, actor audit.Actor, homeroom, id int64, reason string) (api.FaceStatus, error) {
	var out api.FaceStatus
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		st, err := lockStudent(ctx, tx, homeroom, id)
		if err != nil {
			return err
		}
		var consentID int64
		err = tx.GetContext(ctx, &consentID, `UPDATE face_consents SET withdrawn_at = now(), withdrawn_by = $2, withdrawn_by_name = $3,
			withdrawal_reason = $4 WHERE student_id = $1 AND withdrawn_at IS NULL RETURNING id`, id, userRef(actor), actor.Display(), reason)
		if pgNoRows(err) {
			return apperr.New(apperr.NotFound, "face.no_consent", "student", st.Name)
		}
		if err != nil {
			return fmt.Errorf("face: withdraw consent: %w", err)
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM face_embeddings WHERE student_id = $1`, id)
		if err != nil {
			return fmt.Errorf("face: delete embeddings: %w", err)
		}
		deleted, _ := res.RowsAffected()
		if err := audit.Record(ctx, tx, actor, "face.consent_withdraw", "student", strconv.FormatInt(id, 10), map[string]any{
			"consent_id": consentID, "student": st.Name, "reason": reason, "embeddings_deleted": deleted,
		}); err != nil {
			return err
		}
		if err := erasure.Record(ctx, tx, erasure.FaceConsentWithdrawn, map[string]any{"student_id": id, "consent_id": consentID}); err != nil {
			return err
		}
		out, err = status(ctx, tx, st)
		return err
	})
	return out, err
}

// Enrol replaces the student's samples with vecs, refused without an
// active consent or when the face already matches another student.
func (s *Store) Enrol(ctx context.Context, actor audit.Actor, homeroom, id int64, model string, vecs [][]float32) (api.FaceStatus, error) {
	var out api.FaceStatus
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		// One enrolment at a time, school-wide: the duplicate check below
		// then sees every enrolment committed before it.
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, enrolLock); err != nil {
			return fmt.Errorf("face: enrol lock: %w", err)
		}
		st, err := lockStudent(ctx, tx, homeroom, id)
		if err != nil {
			return err
		}
		var consentID int64
		err = tx.GetContext(ctx, &consentID, `SELECT id FROM face_consents WHERE student_id = $1 AND withdrawn_at IS NULL`, id)
		if pgNoRows(err) {
			return apperr.New(apperr.Conflict, "face.no_consent", "student", st.Name)
		}
		if err != nil {
			return fmt.Errorf("face: consent: %w", err)
		}
		settings, err := LoadSettings(ctx, tx)
		if err != nil {
			return err
		}
		// Before this transaction writes anything: the index must not
		// see (and cache) uncommitted rows.
		if err := s.duplicate(ctx, tx, st, model, vecs, settings.Threshold); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM face_embeddings WHERE student_id = $1`, id)
		if err != nil {
			return fmt.Errorf("face: replace embeddings: %w", err)
		}
		replaced, _ := res.RowsAffected()
		blobs := make([][]byte, len(vecs))
		for i, v := range vecs {
			blobs[i] = match.Encode(v)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO face_embeddings (student_id, consent_id, model, dim, vec, created_by)
			SELECT $1, $2, $3, $4, v, $6 FROM unnest($5::bytea[]) WITH ORDINALITY AS u(v, n) ORDER BY n`,
			id, consentID, model, len(vecs[0]), pq.Array(blobs), userRef(actor)); err != nil {
			return fmt.Errorf("face: store embeddings: %w", err)
		}
		if err := audit.Record(ctx, tx, actor, "face.enrol", "student", strconv.FormatInt(id, 10), map[string]any{
			"student": st.Name, "model": model, "dim": len(vecs[0]), "samples": len(vecs), "replaced": replaced, "consent_id": consentID,
		}); err != nil {
			return err
		}
		out, err = status(ctx, tx, st)
		return err
	})
	return out, err
}

// DeleteSamples deletes the student's embeddings; the consent stays.
func (s *Store) DeleteSamples(ctx context.Context, actor audit.Actor, homeroom, id int64) (api.FaceStatus, error) {
	var out api.FaceStatus
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		st, err := lockStudent(ctx, tx, homeroom, id)
		if err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM face_embeddings WHERE student_id = $1`, id)
		if err != nil {
			return fmt.Errorf("face: delete embeddings: %w", err)
		}
		deleted, _ := res.RowsAffected()
		if err := audit.Record(ctx, tx, actor, "face.enrolment_delete", "student", strconv.FormatInt(id, 10), map[string]any{
			"student": st.Name, "embeddings_deleted": deleted,
		}); err != nil {
			return err
		}
		if err := erasure.Record(ctx, tx, erasure.FaceEnrolmentDeleted, map[string]any{"student_id": id}); err != nil {
			return err
		}
		out, err = status(ctx, tx, st)
		return err
	})
	return out, err
}

// Settings reads the face settings.
func (s *Store) Settings(ctx context.Context) (Settings, error) { return LoadSettings(ctx, s.db) }

// SaveSettings stores validated settings, audited with before and after.
func (s *Store) SaveSettings(ctx context.Context, actor audit.Actor, in api.FaceSettings) (Settings, error) {
	var out Settings
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		before, err := LoadSettings(ctx, tx)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE face_settings SET school_start = $1::time, late_grace_minutes = $2, threshold = $3,
			margin = $4, retention_days = $5, challenges = $6, updated_at = now(), updated_by = $7`,
			in.SchoolStart, in.LateGraceMinutes, in.Threshold, in.Margin, in.RetentionDays, pq.Array(in.Challenges), userRef(actor)); err != nil {
			return fmt.Errorf("face: save settings: %w", err)
		}
		if out, err = LoadSettings(ctx, tx); err != nil {
			return err
		}
		b, a := before.Wire(), out.Wire()
		b.UpdatedAt, a.UpdatedAt = nil, nil
		return audit.Record(ctx, tx, actor, "face.settings_update", "setting", "face", map[string]any{"before": b, "after": a})
	})
	return out, err
}

// Kiosks lists the kiosks, live ones first.
func (s *Store) Kiosks(ctx context.Context) ([]api.Kiosk, error) {
	var rows []kioskRow
	if err := s.db.SelectContext(ctx, &rows, `SELECT `+kioskCols+` FROM kiosks
		ORDER BY revoked_at IS NOT NULL, lower(name), id`); err != nil {
		return nil, fmt.Errorf("face: kiosks: %w", err)
	}
	out := make([]api.Kiosk, 0, len(rows))
	for _, k := range rows {
		out = append(out, k.wire())
	}
	return out, nil
}

// CreateKiosk stores a kiosk with the hash of its new device token.
func (s *Store) CreateKiosk(ctx context.Context, actor audit.Actor, name, token string) (api.Kiosk, error) {
	var k kioskRow
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		if err := tx.GetContext(ctx, &k, `INSERT INTO kiosks (name, token_hash, token_hint, created_by, created_by_name)
			VALUES ($1, $2, $3, $4, $5) RETURNING `+kioskCols, name, hashToken(token), token[:10], userRef(actor), actor.Display()); err != nil {
			return fmt.Errorf("face: create kiosk: %w", err)
		}
		return audit.Record(ctx, tx, actor, "kiosk.create", "kiosk", strconv.FormatInt(k.ID, 10),
			map[string]any{"name": k.Name, "token_hint": k.TokenHint})
	})
	return k.wire(), err
}

// RevokeKiosk stops the kiosk's token at once. Revoking a revoked kiosk
// changes nothing and is not an error.
func (s *Store) RevokeKiosk(ctx context.Context, actor audit.Actor, id int64) error {
	return pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		var k kioskRow
		if err := tx.GetContext(ctx, &k, `SELECT `+kioskCols+` FROM kiosks WHERE id = $1 FOR UPDATE`, id); err != nil {
			if pgNoRows(err) {
				return apperr.New(apperr.NotFound, "face.kiosk.not_found")
			}
			return fmt.Errorf("face: kiosk: %w", err)
		}
		if k.RevokedAt != nil {
			return nil
		}
		if _, err := tx.ExecContext(ctx, `UPDATE kiosks SET revoked_at = now() WHERE id = $1`, id); err != nil {
			return fmt.Errorf("face: revoke kiosk: %w", err)
		}
		if err := audit.Record(ctx, tx, actor, "kiosk.revoke", "kiosk", strconv.FormatInt(id, 10),
			map[string]any{"name": k.Name, "token_hint": k.TokenHint}); err != nil {
			return err
		}
		return erasure.Record(ctx, tx, erasure.KioskRevoked, map[string]any{"kiosk_id": id})
	})
}

// KioskByToken is the live kiosk of a device token (401
// face.kiosk_token_invalid when unknown or revoked); last_seen_at moves at
// most once a minute.
func (s *Store) KioskByToken(ctx context.Context, token string) (kiosk, error) {
	var k kiosk
	if err := s.db.GetContext(ctx, &k, `SELECT id, name FROM kiosks WHERE token_hash = $1 AND revoked_at IS NULL`, hashToken(token)); err != nil {
		if pgNoRows(err) {
			return k, apperr.New(apperr.Unauthorized, "face.kiosk_token_invalid")
		}
		return k, fmt.Errorf("face: kiosk token: %w", err)
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE kiosks SET last_seen_at = now()
		WHERE id = $1 AND (last_seen_at IS NULL OR last_seen_at < now() - interval '1 minute')`, k.ID); err != nil {
		return k, fmt.Errorf("face: kiosk seen: %w", err)
	}
	return k, nil
}

// KioskInfo is what a paired kiosk shows: its name, the school's, and the
// challenges it may be given.
func (s *Store) KioskInfo(ctx context.Context, k kiosk) (api.KioskInfo, error) {
	set, err := LoadSettings(ctx, s.db)
	if err != nil {
		return api.KioskInfo{}, err
	}
	p, err := school.LoadProfile(ctx, s.db)
	if err != nil {
		return api.KioskInfo{}, err
	}
	return api.KioskInfo{ID: k.ID, Name: k.Name, School: p.Name, Challenges: append([]string{}, set.Challenges...)}, nil
}

// IssueChallenge stores a challenge unless the kiosk has asked for
// KioskChallengesPerMinute in the last minute (false then).
func (s *Store) IssueChallenge(ctx context.Context, kioskID int64, c api.FaceChallenge, at time.Time) (bool, error) {
	res, err := s.db.ExecContext(ctx, `INSERT INTO face_challenges (id, kiosk_id, kind, issued_at, expires_at)
		SELECT $1, $2, $3, $4, $5
		WHERE (SELECT count(*) FROM face_challenges WHERE kiosk_id = $2 AND issued_at > $4::timestamptz - interval '1 minute') < $6`,
		c.ID, kioskID, c.Kind, at, c.ExpiresAt, KioskChallengesPerMinute)
	if err != nil {
		return false, fmt.Errorf("face: challenge: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("face: challenge: %w", err)
	}
	return n > 0, nil
}

// LogScan writes a scan that changes no attendance.
func (s *Store) LogScan(ctx context.Context, row scanRow) (int64, error) {
	return row.insert(ctx, s.db)
}

// Index is the enrolled embeddings to match a probe against.
func (s *Store) Index(ctx context.Context) (*match.Index, error) {
	ix, err := s.cache.Get(ctx, s.db)
	if err != nil {
		return nil, fmt.Errorf("face: index: %w", err)
	}
	return ix, nil
}

// RecordMatch marks a matched student's arrival, raises the kiosk's alarm
// when it matches faster than people walk, and logs the scan with its
// audit entry (details: what the kiosk observed), in one transaction. It
// sets row.Attendance and returns the scan's id and the student.
func (s *Store) RecordMatch(ctx context.Context, k kiosk, row *scanRow, set Settings, actor audit.Actor, details map[string]any) (int64, student, error) {
	var (
		id int64
		st student
	)
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		var err error
		if st, row.Attendance, err = markArrival(ctx, tx, row.StudentID, row.At, set, attendance.Origin{Kiosk: k.Name, Actor: actor}); err != nil {
			return err
		}
		if err := fastMatchAlarm(ctx, tx, k, row.StudentID, row.At, actor); err != nil {
			return err
		}
		if id, err = row.insert(ctx, tx); err != nil {
			return err
		}
		details["kiosk_id"], details["kiosk"], details["student_id"], details["student"] = k.ID, k.Name, st.ID, st.Name
		details["attendance"] = row.Attendance
		return audit.Record(ctx, tx, actor, "face.scan_match", "face_scan", strconv.FormatInt(id, 10), details)
	})
	return id, st, err
}

// Scans is a page of the scan log, newest first, with the total.
func (s *Store) Scans(ctx context.Context, outcome, from, to string, p httpx.Paging) ([]scanView, int, error) {
	var rows []scanView
	if err := s.db.SelectContext(ctx, &rows, scanSelect+`, count(*) OVER () AS total`+scanFrom+`
		WHERE ($1 = '' OR f.outcome = $1)
		  AND ($2 = '' OR f.scanned_at >= ($2::date)::timestamp AT TIME ZONE 'Asia/Jakarta')
		  AND ($3 = '' OR f.scanned_at < ($3::date + 1)::timestamp AT TIME ZONE 'Asia/Jakarta')
		ORDER BY f.scanned_at DESC, f.id DESC LIMIT $4 OFFSET $5`, outcome, from, to, p.PerPage, p.Offset()); err != nil {
		return nil, 0, fmt.Errorf("face: scans: %w", err)
	}
	total := 0
	if len(rows) > 0 {
		total = rows[0].Total
	} else if p.Page > 1 {
		if err := s.db.GetContext(ctx, &total, `SELECT count(*) FROM face_scans f
			WHERE ($1 = '' OR f.outcome = $1)
			  AND ($2 = '' OR f.scanned_at >= ($2::date)::timestamp AT TIME ZONE 'Asia/Jakarta')
			  AND ($3 = '' OR f.scanned_at < ($3::date + 1)::timestamp AT TIME ZONE 'Asia/Jakarta')`, outcome, from, to); err != nil {
			return nil, 0, fmt.Errorf("face: scans: count: %w", err)
		}
	}
	return rows, total, nil
}

// Confirmations is the queue of uncertain scans nobody resolved, oldest
// first, at most MaxQueue.
func (s *Store) Confirmations(ctx context.Context) ([]scanView, error) {
	var rows []scanView
	if err := s.db.SelectContext(ctx, &rows, scanSelect+`, 0 AS total`+scanFrom+`
		WHERE f.outcome = 'uncertain' AND f.resolution IS NULL ORDER BY f.scanned_at, f.id LIMIT $1`, MaxQueue); err != nil {
		return nil, fmt.Errorf("face: confirmations: %w", err)
	}
	return rows, nil
}

// Scan reads one scan.
func (s *Store) Scan(ctx context.Context, id int64) (scanView, error) { return getScan(ctx, s.db, id) }

// Resolve records a person's resolution of uncertain scan (confirmed as
// studentID, or rejected when studentID is 0); a confirmation records the
// arrival as of the scan's time. The conditional UPDATE lets one of two
// racing resolutions win; the other is 409 face.already_resolved.
func (s *Store) Resolve(ctx context.Context, actor audit.Actor, scan scanView, studentID int64) (scanView, error) {
	resolution := api.ScanRejected
	if studentID != 0 {
		resolution = api.ScanConfirmed
	}
	var out scanView
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		var won bool
		err := tx.GetContext(ctx, &won, `UPDATE face_scans SET resolution = $2, resolved_student_id = $3, resolved_by = $4,
			resolved_by_name = $5, resolved_at = now() WHERE id = $1 AND outcome = 'uncertain' AND resolution IS NULL RETURNING true`,
			scan.ID, resolution, nullID(studentID), userRef(actor), actor.Display())
		if pgNoRows(err) {
			return apperr.New(apperr.Conflict, "face.already_resolved")
		}
		if err != nil {
			return fmt.Errorf("face: resolve: %w", err)
		}
		effect := api.ScanAttendanceNone
		name := ""
		if studentID != 0 {
			settings, err := LoadSettings(ctx, tx)
			if err != nil {
				return err
			}
			kioskName := scan.KioskName
			if kioskName == "" {
				kioskName = "kiosk"
			}
			var st student
			st, effect, err = markArrival(ctx, tx, studentID, scan.ScannedAt, settings,
				attendance.Origin{Kiosk: kioskName, UserID: actor.ID, Actor: actor})
			if err != nil {
				return err
			}
			name = st.Name
			if _, err := tx.ExecContext(ctx, `UPDATE face_scans SET attendance = $2 WHERE id = $1`, scan.ID, effect); err != nil {
				return fmt.Errorf("face: resolve attendance: %w", err)
			}
		}
		if err := audit.Record(ctx, tx, actor, "face.scan_resolve", "face_scan", strconv.FormatInt(scan.ID, 10), map[string]any{
			"resolution": resolution, "student_id": nullID(studentID), "student": name, "attendance": effect,
			"candidate_id": scan.StudentID, "runner_up_id": scan.RunnerUpID, "scanned_at": scan.ScannedAt,
		}); err != nil {
			return err
		}
		out, err = getScan(ctx, tx, scan.ID)
		return err
	})
	return out, err
}

// lockStudent takes the student's row lock (the one attendance.ApplyTx
// and violation.RecordTx take) within the caller's scope: a student out of
// a homeroom teacher's class is NotFound, as one that does not exist.
func lockStudent(ctx context.Context, tx *sqlx.Tx, homeroom, id int64) (student, error) {
	var st student
	err := tx.GetContext(ctx, &st, `SELECT s.id, s.full_name, COALESCE(c.name, '') AS class_name, s.active
		FROM students s LEFT JOIN classes c ON c.id = s.class_id
		WHERE s.id = $1 AND `+scopeSQL(2)+` FOR UPDATE OF s`, id, homeroom)
	if errors.Is(err, sql.ErrNoRows) {
		return st, pg.Error(err, "entity.student")
	}
	if err != nil {
		return st, fmt.Errorf("face: lock student: %w", err)
	}
	return st, nil
}

// getStudent reads a student within the caller's scope.
func getStudent(ctx context.Context, q sqlx.QueryerContext, homeroom, id int64) (student, error) {
	var st student
	err := sqlx.GetContext(ctx, q, &st, `SELECT s.id, s.full_name, COALESCE(c.name, '') AS class_name, s.active
		FROM students s LEFT JOIN classes c ON c.id = s.class_id
		WHERE s.id = $1 AND `+scopeSQL(2), id, homeroom)
	if errors.Is(err, sql.ErrNoRows) {
		return st, pg.Error(err, "entity.student")
	}
	if err != nil {
		return st, fmt.Errorf("face: student: %w", err)
	}
	return st, nil
}

// status reads a student's Face-ID status (the student already checked).
func status(ctx context.Context, q sqlx.QueryerContext, st student) (api.FaceStatus, error) {
	out := api.FaceStatus{StudentID: st.ID, StudentName: st.Name, History: []api.FaceConsent{}}
	var rows []consentRow
	if err := sqlx.SelectContext(ctx, q, &rows, `SELECT id, guardian_name, relationship, method, to_char(given_on, 'YYYY-MM-DD') AS given_on,
		reference, recorded_by_name, recorded_at, withdrawn_at, withdrawn_by_name, withdrawal_reason
		FROM face_consents WHERE student_id = $1 ORDER BY recorded_at DESC, id DESC`, st.ID); err != nil {
		return out, fmt.Errorf("face: consents: %w", err)
	}
	for _, c := range rows {
		w := c.wire()
		out.History = append(out.History, w)
		if c.WithdrawnAt == nil && out.Consent == nil {
			active := w
			out.Consent = &active
		}
	}
	var e struct {
		N     int        `db:"n"`
		Model string     `db:"model"`
		At    *time.Time `db:"at"`
	}
	if err := sqlx.GetContext(ctx, q, &e, `SELECT count(*) AS n, COALESCE(max(model), '') AS model, max(created_at) AS at
		FROM face_embeddings WHERE student_id = $1`, st.ID); err != nil {
		return out, fmt.Errorf("face: embeddings: %w", err)
	}
	out.Samples, out.Model, out.EnrolledAt = e.N, e.Model, e.At
	return out, nil
}

// LoadSettings reads the face settings.
func LoadSettings(ctx context.Context, q sqlx.QueryerContext) (Settings, error) {
	var s Settings
	err := sqlx.GetContext(ctx, q, &s, `SELECT to_char(school_start, 'HH24:MI') AS school_start, late_grace_minutes,
		threshold, margin, retention_days, challenges, updated_at FROM face_settings`)
	if err != nil {
		return s, fmt.Errorf("face: settings: %w", err)
	}
	return s, nil
}

const scanSelect = `SELECT f.id, f.scanned_at, f.kiosk_name, f.outcome, f.student_id, COALESCE(s.full_name, '') AS student_name,
		COALESCE(c.name, '') AS class_name, f.score, f.runner_up_id, COALESCE(ru.full_name, '') AS runner_up_name, f.runner_up_score,
		f.margin, f.challenge_kind, f.challenge_passed, f.attendance, f.resolution, f.resolved_student_id,
		COALESCE(rs.full_name, '') AS resolved_student_name, f.resolved_by_name, f.resolved_at`

const scanFrom = ` FROM face_scans f
		LEFT JOIN students s ON s.id = f.student_id LEFT JOIN classes c ON c.id = s.class_id
		LEFT JOIN students ru ON ru.id = f.runner_up_id
		LEFT JOIN students rs ON rs.id = f.resolved_student_id`

func getScan(ctx context.Context, q sqlx.QueryerContext, id int64) (scanView, error) {
	var v scanView
	err := sqlx.GetContext(ctx, q, &v, scanSelect+`, 0 AS total`+scanFrom+` WHERE f.id = $1`, id)
	if pgNoRows(err) {
		return v, apperr.New(apperr.NotFound, "face.scan_not_found")
	}
	if err != nil {
		return v, fmt.Errorf("face: scan: %w", err)
	}
	return v, nil
}

// consume marks the kiosk's challenge used, atomically; a challenge that
// is another kiosk's or unknown, used or expired is refused (409).
func (s *Store) consume(ctx context.Context, kioskID int64, id string, at time.Time) (string, error) {
	var kind string
	err := s.db.GetContext(ctx, &kind, `UPDATE face_challenges SET used_at = $3
		WHERE id = $1 AND kiosk_id = $2 AND used_at IS NULL AND expires_at > $3 RETURNING kind`, id, kioskID, at)
	if err == nil {
		return kind, nil
	}
	if !pgNoRows(err) {
		return "", fmt.Errorf("face: consume challenge: %w", err)
	}
	var c struct {
		Used    bool `db:"used"`
		Expired bool `db:"expired"`
	}
	err = s.db.GetContext(ctx, &c, `SELECT used_at IS NOT NULL AS used, expires_at <= $3 AS expired
		FROM face_challenges WHERE id = $1 AND kiosk_id = $2`, id, kioskID, at)
	switch {
	case pgNoRows(err):
		return "", apperr.New(apperr.Conflict, "face.challenge_unknown")
	case err != nil:
		return "", fmt.Errorf("face: challenge: %w", err)
	case c.Used:
		return "", apperr.New(apperr.Conflict, "face.challenge_used")
	default:
		return "", apperr.New(apperr.Conflict, "face.challenge_expired")
	}
}

func (s scanRow) insert(ctx context.Context, q sqlx.QueryerContext) (int64, error) {
	var id int64
	err := sqlx.GetContext(ctx, q, &id, `INSERT INTO face_scans (kiosk_id, kiosk_name, scanned_at, outcome, model, student_id, score,
		runner_up_id, runner_up_score, margin, challenge_kind, challenge_passed, attendance)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id`,
		s.KioskID, s.KioskName, s.At, s.Outcome, s.Model, nullID(s.StudentID), s.Score, nullID(s.RunnerUpID), s.RunnerUpScore,
		s.Margin, s.Kind, s.Passed, s.Attendance)
	if err != nil {
		return 0, fmt.Errorf("face: log scan: %w", err)
	}
	return id, nil
}

// markArrival records the student's arrival at time at (one transaction,
// the student's row locked): the first lesson hour of that Jakarta day is
// left alone when it is already filled ("kept"); else H up to the start
// time plus grace, T after it, through attendance.ApplyTx (a T makes the
// automatic late violation exactly as the class form does).
func markArrival(ctx context.Context, tx *sqlx.Tx, studentID int64, at time.Time, s Settings, o attendance.Origin) (student, string, error) {
	st, err := lockStudent(ctx, tx, 0, studentID)
	if err != nil {
		return st, "", err
	}
	day, minute := jakartaDay(at)
	var filled bool
	if err := tx.GetContext(ctx, &filled, `SELECT EXISTS (SELECT 1 FROM attendance WHERE student_id = $1 AND date = $2::date AND lesson_hour = 1)`,
		studentID, day); err != nil {
		return st, "", fmt.Errorf("face: attendance: %w", err)
	}
	if filled {
		return st, api.ScanAttendanceKept, nil
	}
	status := api.AttendancePresent
	if minute > s.lateAfter() {
		status = api.AttendanceLate
	}
	if _, err := attendance.ApplyTx(ctx, tx, []attendance.Entry{{StudentID: studentID, Date: day, LessonHour: 1, Status: status}}, o); err != nil {
		return st, "", err
	}
	return st, status, nil
}

// fastMatchAlarm raises the kiosk's alarm when it matched another student
// less than FastMatchWindow before at: the kiosk's alarm count and time go
// up (Settings → Kiosks shows them) and the audit log says which scans.
// The arrival still stands: the alarm asks a person to look.
func fastMatchAlarm(ctx context.Context, tx *sqlx.Tx, k kiosk, studentID int64, at time.Time, actor audit.Actor) error {
	var prev struct {
		ID        int64     `db:"id"`
		StudentID *int64    `db:"student_id"`
		At        time.Time `db:"scanned_at"`
	}
	err := tx.GetContext(ctx, &prev, `SELECT id, student_id, scanned_at FROM face_scans
		WHERE kiosk_id = $1 AND outcome = 'matched' AND scanned_at <= $2 ORDER BY scanned_at DESC LIMIT 1`, k.ID, at)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("face: previous match: %w", err)
	}
	gap := at.Sub(prev.At)
	if prev.StudentID == nil || *prev.StudentID == studentID || gap >= FastMatchWindow {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `UPDATE kiosks SET alarm_count = alarm_count + 1, alarm_at = $2 WHERE id = $1`, k.ID, at); err != nil {
		return fmt.Errorf("face: kiosk alarm: %w", err)
	}
	return audit.Record(ctx, tx, actor, "face.kiosk_alarm", "kiosk", strconv.FormatInt(k.ID, 10), map[string]any{
		"kiosk": k.Name, "previous_scan_id": prev.ID, "previous_student_id": *prev.StudentID, "student_id": studentID,
		"gap_ms": gap.Milliseconds(), "window_ms": FastMatchWindow.Milliseconds()})
}

// duplicate refuses (409 face.duplicate) when any new sample matches
// another enrolled student at or above the threshold.
func (s *Store) duplicate(ctx context.Context, tx *sqlx.Tx, st student, model string, vecs [][]float32, threshold float64) error {
	ix, err := s.cache.Get(ctx, tx)
	if err != nil {
		return fmt.Errorf("face: index: %w", err)
	}
	var best match.Candidate
	for _, v := range vecs {
		if res := ix.Match(model, v, st.ID); res.Best.StudentID != 0 && res.Best.Score > best.Score {
			best = res.Best
		}
	}
	if best.StudentID == 0 || best.Score < threshold {
		return nil
	}
	var other student
	if err := tx.GetContext(ctx, &other, `SELECT s.id, s.full_name, COALESCE(c.name, '') AS class_name, s.active
		FROM students s LEFT JOIN classes c ON c.id = s.class_id WHERE s.id = $1`, best.StudentID); err != nil {
		return fmt.Errorf("face: duplicate student: %w", err)
	}
	return apperr.New(apperr.Conflict, "face.duplicate", "other", other.Name, "other_id", other.ID, "class", other.ClassName,
		"score", round(best.Score), "student", st.Name, "student_id", st.ID)
}

const kioskCols = `id, name, token_hint, created_by_name, created_at, last_seen_at, revoked_at, alarm_count, alarm_at`
