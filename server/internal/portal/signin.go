package portal

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/parentmsg"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/phone"
	"github.com/tatib/tatib/shared/api"
)

// normalPhone is a phone as guardians are keyed by, or a field error.
func normalPhone(raw string) (string, error) {
	if !utf8.ValidString(raw) || len(raw) > 40 {
		return "", apperr.Fields{"phone": apperr.M("portal.phone_invalid")}.Err()
	}
	n, problem := phone.Normalize(raw)
	switch problem {
	case phone.None:
		return n, nil
	case phone.Missing:
		return "", apperr.Fields{"phone": apperr.M("portal.phone_required")}.Err()
	default:
		return "", apperr.Fields{"phone": apperr.M("portal.phone_invalid")}.Err()
	}
}

// RequestCode takes a code request. The answer is the same whether or not
// a guardian has that phone: the throttle counts every request, and only
// a known, active guardian's request stores a code and queues it to the
// school's WhatsApp outbox.
func (s *Service) RequestCode(ctx context.Context, rawPhone, addr string) (api.PortalCodeAnswer, error) {
	p, err := normalPhone(rawPhone)
	if err != nil {
		return api.PortalCodeAnswer{}, err
	}
	addr = httpx.CleanHeader(addr, 100)
	now := s.now()
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return api.PortalCodeAnswer{}, fmt.Errorf("portal: request code: %w", err)
	}
	defer tx.Rollback()
	// The locks make count-and-insert atomic across replicas; phone first,
	// always, so two requests never wait on each other in a cycle.
	const lock = `SELECT pg_advisory_xact_lock(hashtext('tatib.portal.phone'), hashtext($1)),
		pg_advisory_xact_lock(hashtext('tatib.portal.address'), hashtext($2))`
	if _, err := tx.ExecContext(ctx, lock, p, addr); err != nil {
		return api.PortalCodeAnswer{}, fmt.Errorf("portal: throttle lock: %w", err)
	}
	var nPhone, nAddr int
	const count = `SELECT count(*) FILTER (WHERE phone = $1), count(*) FILTER (WHERE address = $2)
		FROM portal_codes WHERE kind = 'whatsapp' AND created_at > $3 AND (phone = $1 OR address = $2)`
	if err := tx.QueryRowxContext(ctx, count, p, addr, now.Add(-ThrottleWindow)).Scan(&nPhone, &nAddr); err != nil {
		return api.PortalCodeAnswer{}, fmt.Errorf("portal: throttle: %w", err)
	}
	if nPhone >= PhoneRequests || nAddr >= AddrRequests {
		return api.PortalCodeAnswer{}, apperr.New(apperr.RateLimited, "portal.too_many_codes", "minutes", int(ThrottleWindow.Minutes()))
	}
	if err := SeedFromStudents(ctx, tx); err != nil {
		return api.PortalCodeAnswer{}, err
	}
	var g struct {
		ID        int64  `db:"id"`
		Name      string `db:"name"`
		StudentID int64  `db:"student_id"`
	}
	const find = `SELECT g.id, g.name, min(gs.student_id) AS student_id FROM guardians g
		JOIN guardian_students gs ON gs.guardian_id = g.id AND gs.status = 'verified'
		JOIN students st ON st.id = gs.student_id AND st.active
		WHERE g.phone = $1 GROUP BY g.id`
	err = tx.GetContext(ctx, &g, find, p)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return api.PortalCodeAnswer{}, fmt.Errorf("portal: find guardian: %w", err)
	}
	var hash []byte
	var guardianID *int64
	if err == nil {
		code := newCode(6)
		queued, err := parentmsg.PortalCodeTx(ctx, tx, g.ID, g.StudentID, g.Name, p, code)
		if err != nil {
			return api.PortalCodeAnswer{}, err
		}
		if queued {
			hash, guardianID = hashCode(code), &g.ID
		}
	}
	const ins = `INSERT INTO portal_codes (phone, address, guardian_id, kind, code_hash, expires_at, created_at)
		VALUES ($1, $2, $3, 'whatsapp', $4, $5, $6)`
	if _, err := tx.ExecContext(ctx, ins, p, addr, guardianID, hash, now.Add(CodeTTL), now); err != nil {
		return api.PortalCodeAnswer{}, fmt.Errorf("portal: store code: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return api.PortalCodeAnswer{}, fmt.Errorf("portal: request code: %w", err)
	}
	return api.PortalCodeAnswer{Sent: true, ExpiresAt: now.Add(CodeTTL)}, nil
}

var errBadCode = apperr.New(apperr.Unauthorized, "portal.code_invalid")

// Verify signs a guardian in with a live code of their phone (sent or
// printed). Each attempt spends a try of every live code of the phone,
// committed before the answer, so five wrong guesses end them all. The
// first sign-in, or the first after a withdrawal, records the guardian's
// consent.
func (s *Service) Verify(ctx context.Context, in api.PortalVerifyRequest, addr, userAgent string) (api.PortalVerifyAnswer, string, error) {
	p, err := normalPhone(in.Phone)
	if err != nil {
		return api.PortalVerifyAnswer{}, "", err
	}
	code := strings.TrimSpace(in.Code)
	if _, aerr := strconv.ParseUint(code, 10, 64); aerr != nil || len(code) < 6 || len(code) > 8 {
		return api.PortalVerifyAnswer{}, "", apperr.Fields{"code": apperr.M("portal.code_format")}.Err()
	}
	addr = httpx.CleanHeader(addr, 100)
	now := s.now()
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return api.PortalVerifyAnswer{}, "", fmt.Errorf("portal: verify: %w", err)
	}
	defer tx.Rollback()
	var live []struct {
		ID         int64  `db:"id"`
		GuardianID int64  `db:"guardian_id"`
		Kind       string `db:"kind"`
		Hash       []byte `db:"code_hash"`
	}
	const q = `UPDATE portal_codes SET tries = tries + 1
		WHERE phone = $1 AND code_hash IS NOT NULL AND guardian_id IS NOT NULL AND used_at IS NULL AND expires_at > $2 AND tries < $3
		RETURNING id, guardian_id, kind, code_hash`
	if err := tx.SelectContext(ctx, &live, q, p, now, MaxTries); err != nil {
		return api.PortalVerifyAnswer{}, "", fmt.Errorf("portal: verify: %w", err)
	}
	match := -1
	for i, c := range live {
		if codeMatches(c.Hash, code) {
			match = i
		}
	}
	if match < 0 {
		if err := tx.Commit(); err != nil {
			return api.PortalVerifyAnswer{}, "", fmt.Errorf("portal: verify: %w", err)
		}
		return api.PortalVerifyAnswer{}, "", errBadCode
	}
	c := live[match]
	if _, err := tx.ExecContext(ctx, `UPDATE portal_codes SET used_at = $2 WHERE id = $1`, c.ID, now); err != nil {
		return api.PortalVerifyAnswer{}, "", fmt.Errorf("portal: use code: %w", err)
	}
	channel := ChannelWhatsApp
	if c.Kind == "activation" {
		channel = ChannelActivation
	}
	var g api.PortalGuardian
	var activated bool
	const act = `UPDATE guardians SET
		    consent_at = CASE WHEN consent_at IS NULL OR withdrawn_at IS NOT NULL THEN $2 ELSE consent_at END,
		    consent_channel = CASE WHEN consent_at IS NULL OR withdrawn_at IS NOT NULL THEN $3 ELSE consent_channel END,
		    withdrawn_at = NULL, updated_at = $2
		WHERE id = $1
		RETURNING id, name, phone, consent_at, consent_channel, consent_at = $2`
	if err := tx.QueryRowxContext(ctx, act, c.GuardianID, now, channel).Scan(&g.ID, &g.Name, &g.Phone, &g.ConsentAt, &g.ConsentChannel, &activated); err != nil {
		return api.PortalVerifyAnswer{}, "", fmt.Errorf("portal: activate: %w", err)
	}
	actor := (&Principal{Guardian: g, Address: addr}).Actor()
	if activated {
		if err := audit.Record(ctx, tx, actor, "portal.consent", "guardian", strconv.FormatInt(g.ID, 10),
			map[string]any{"channel": channel, "at": now}); err != nil {
			return api.PortalVerifyAnswer{}, "", err
		}
	}
	token := newToken()
	const ins = `INSERT INTO portal_sessions (token_hash, guardian_id, created_at, last_seen_at, user_agent, address) VALUES ($1, $2, $3, $3, $4, $5)`
	if _, err := tx.ExecContext(ctx, ins, hashToken(token), g.ID, now, httpx.CleanHeader(userAgent, 300), addr); err != nil {
		return api.PortalVerifyAnswer{}, "", fmt.Errorf("portal: session: %w", err)
	}
	if err := audit.Record(ctx, tx, actor, "portal.sign_in", "guardian", strconv.FormatInt(g.ID, 10), map[string]any{"channel": channel}); err != nil {
		return api.PortalVerifyAnswer{}, "", err
	}
	if err := tx.Commit(); err != nil {
		return api.PortalVerifyAnswer{}, "", fmt.Errorf("portal: verify: %w", err)
	}
	return api.PortalVerifyAnswer{Token: token, Guardian: g}, token, nil
}

// SignOut ends the guardian's session h; everywhere ends all of theirs.
func (s *Service) SignOut(ctx context.Context, p *Principal, everywhere bool) error {
	q, arg := `DELETE FROM portal_sessions WHERE token_hash = $1`, any(p.TokenHash)
	switch {
	case everywhere && p.StudentID != 0:
		q, arg = `DELETE FROM portal_sessions WHERE student_id = $1`, p.StudentID
	case everywhere:
		q, arg = `DELETE FROM portal_sessions WHERE guardian_id = $1`, p.Guardian.ID
	}
	if _, err := s.db.ExecContext(ctx, q, arg); err != nil {
		return fmt.Errorf("portal: sign out: %w", err)
	}
	return nil
}

// Withdraw records the guardian's withdrawal of consent: the account is
// closed (every session ends) and the school's messages to the phone stop.
func (s *Service) Withdraw(ctx context.Context, p *Principal) error {
	if err := p.guardianOnly(); err != nil {
		return err
	}
	return pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		now := s.now()
		if _, err := tx.ExecContext(ctx, `UPDATE guardians SET withdrawn_at = $2, updated_at = $2 WHERE id = $1`, p.Guardian.ID, now); err != nil {
			return fmt.Errorf("portal: withdraw: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM portal_sessions WHERE guardian_id = $1`, p.Guardian.ID); err != nil {
			return fmt.Errorf("portal: withdraw sessions: %w", err)
		}
		// What is still queued to the phone is not sent.
		if _, err := tx.ExecContext(ctx, `UPDATE parent_messages SET status = 'cancelled', updated_at = $2
			WHERE phone = $1 AND status = 'queued'`, p.Guardian.Phone, now); err != nil {
			return fmt.Errorf("portal: withdraw messages: %w", err)
		}
		return audit.Record(ctx, tx, p.Actor(), "portal.consent_withdrawn", "guardian", strconv.FormatInt(p.Guardian.ID, 10), nil)
	})
}

// SeedFromStudents gives every active student with a usable parent phone
// and no guardian from the sync yet a guardian from that phone and name
// (an existing guardian with the phone is linked), in a free slot. It is
// idempotent; racing runs meet the unique keys and skip.
func SeedFromStudents(ctx context.Context, tx *sqlx.Tx) error {
	var rows []struct {
		ID    int64  `db:"id"`
		Name  string `db:"parent_name"`
		Phone string `db:"parent_phone"`
	}
	const q = `SELECT s.id, s.parent_name, s.parent_phone FROM students s
		WHERE s.active AND s.parent_phone <> ''
		  AND NOT EXISTS (SELECT 1 FROM guardian_students gs WHERE gs.student_id = s.id)`
	if err := tx.SelectContext(ctx, &rows, q); err != nil {
		return fmt.Errorf("portal: seed: %w", err)
	}
	var ids []int64
	var names, phones []string
	for _, r := range rows {
		n, problem := phone.Normalize(r.Phone)
		if problem != phone.None {
			continue
		}
		name := strings.TrimSpace(r.Name)
		if name == "" || utf8.RuneCountInString(name) > 200 {
			name = "Orang tua"
		}
		ids, names, phones = append(ids, r.ID), append(names, name), append(phones, n)
	}
	if len(ids) == 0 {
		return nil
	}
	const ins = `WITH src AS (SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[]) AS u(student_id, name, phone)),
		g AS (INSERT INTO guardians (name, phone)
		      SELECT DISTINCT ON (phone) name, phone FROM src ORDER BY phone, student_id
		      ON CONFLICT (phone) DO UPDATE SET phone = EXCLUDED.phone
		      RETURNING id, phone),
		slots AS (SELECT src.student_id, g.id AS guardian_id,
		              (SELECT min(n) FROM generate_series(1, 3) n
		               WHERE n NOT IN (SELECT slot FROM guardian_students x WHERE x.student_id = src.student_id)) AS slot
		          FROM src JOIN g USING (phone))
		INSERT INTO guardian_students (guardian_id, student_id, slot, relation, status, source)
		SELECT guardian_id, student_id, slot, 'lainnya', 'verified', 'sync' FROM slots WHERE slot IS NOT NULL
		ON CONFLICT DO NOTHING`
	if _, err := tx.ExecContext(ctx, ins, pq.Array(ids), pq.Array(names), pq.Array(phones)); err != nil {
		return fmt.Errorf("portal: seed: %w", err)
	}
	return nil
}
