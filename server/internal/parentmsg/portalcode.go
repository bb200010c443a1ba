package parentmsg

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/school"
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
