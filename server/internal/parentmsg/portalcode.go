package parentmsg

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/server/internal/schoolday"
)

// EventPortalCode is a family portal sign-in code (docs/portal.md). It is
// due at once whatever the quiet hours (the worker sends codes through
// them), goes stale after five minutes, and the delivery log shows it with
// its digits hidden.
const EventPortalCode = "portal_code"

// PortalCodeTx queues the sign-in code for a guardian's phone (normalised)
// in tx and wakes the workers at commit. studentID is one of the guardian's
// children, for the log. It queues nothing and answers false when no
// gateway is configured: staff then print an activation code instead.
func PortalCodeTx(ctx context.Context, tx *sqlx.Tx, guardianID, studentID int64, guardianName, phone, code string) (bool, error) {
	set, err := Load(ctx, tx)
	if err != nil {
		return false, err
	}
	if !set.Configured() {
		return false, nil
	}
	profile, err := school.LoadProfile(ctx, tx)
	if err != nil {
		return false, fmt.Errorf("parentmsg: profile: %w", err)
	}
	body := fmt.Sprintf("Kode masuk portal orang tua %s: %s\nBerlaku 5 menit. Jangan berikan kode ini kepada siapa pun, termasuk petugas sekolah.",
		profile.Name, code)
	const ins = `INSERT INTO parent_messages (student_id, event, guardian_id, parent_name, phone_raw, phone, body, status, next_attempt_at)
		VALUES ($1, 'portal_code', $2, $3, $4, $4, $5, 'queued', now())`
	if _, err := tx.ExecContext(ctx, ins, studentID, guardianID, truncate(guardianName, 200), phone, body); err != nil {
		return false, fmt.Errorf("parentmsg: queue portal code: %w", err)
	}
	return true, notifyWorkers(ctx, tx)
}

// EventExcuse tells a guardian the decision on their excuse (docs/portal.md).
const EventExcuse = "excuse"

// ExcuseDecisionTx queues the decision on an excuse to the guardian who
// asked (their phone, not the student's), once per excuse, held by the
// quiet hours like any message. Nothing without a gateway or a guardian
// who still consents.
func ExcuseDecisionTx(ctx context.Context, tx *sqlx.Tx, excuseID int64) error {
	set, err := Load(ctx, tx)
	if err != nil {
		return err
	}
	if !set.Configured() {
		return nil
	}
	var e struct {
		StudentID int64          `db:"student_id"`
		Student   string         `db:"student_name"`
		Guardian  string         `db:"guardian_name"`
		Phone     string         `db:"phone"`
		Kind      string         `db:"kind"`
		From      schoolday.Date `db:"date_from"`
		To        schoolday.Date `db:"date_to"`
		Status    string         `db:"status"`
		By        string         `db:"decided_by_name"`
		Refusal   string         `db:"refusal_reason"`
	}
	const q = `SELECT e.student_id, s.full_name AS student_name, g.name AS guardian_name, g.phone, e.kind, e.date_from, e.date_to,
		    e.status, e.decided_by_name, e.refusal_reason
		FROM excuses e JOIN students s ON s.id = e.student_id JOIN guardians g ON g.id = e.guardian_id
		WHERE e.id = $1 AND g.withdrawn_at IS NULL`
	if err := tx.GetContext(ctx, &e, q, excuseID); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		return fmt.Errorf("parentmsg: excuse: %w", err)
	}
	days := LongDay(e.From)
	if e.To != e.From {
		days += " – " + LongDay(e.To)
	}
	body := fmt.Sprintf("Pengajuan %s untuk %s (%s) disetujui oleh %s.", e.Kind, e.Student, days, e.By)
	if e.Status != "approved" {
		body = fmt.Sprintf("Pengajuan %s untuk %s (%s) tidak disetujui oleh %s. Alasan: %s", e.Kind, e.Student, days, e.By, e.Refusal)
	}
	next := time.Now()
	if until, quiet := QuietUntil(set.QuietHours, next); quiet {
		next = until
	}
	const ins = `WITH ins AS (
		INSERT INTO parent_messages (student_id, event, excuse_id, parent_name, phone_raw, phone, body, status, next_attempt_at)
		VALUES ($1, 'excuse', $2, $3, $4, $4, $5, 'queued', $6)
		ON CONFLICT DO NOTHING RETURNING id)
		SELECT pg_notify('` + Channel + `', '') FROM ins`
	if _, err := tx.ExecContext(ctx, ins, e.StudentID, excuseID, truncate(e.Guardian, 200), e.Phone, truncate(body, MaxBody), next); err != nil {
		return fmt.Errorf("parentmsg: queue excuse: %w", err)
	}
	return nil
}
