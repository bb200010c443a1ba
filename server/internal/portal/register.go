package portal

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/phone"
	"github.com/tatib/tatib/shared/api"
)

// The registration throttle: attempts per address and per phone in
// RegisterWindow, whatever their outcome.
const (
	RegisterWindow   = time.Hour
	RegisterPerAddr  = 10
	RegisterPerPhone = 5
)

var nisnRE = regexp.MustCompile(`^[0-9]{10}$`)

func validateRegistration(in *api.PortalRegistration) (string, error) {
	f := apperr.Fields{}
	in.NISN = strings.TrimSpace(in.NISN)
	in.Name = strings.TrimSpace(in.Name)
	if !nisnRE.MatchString(in.NISN) {
		f.Add("nisn", "portal.nisn_invalid")
	}
	if _, err := time.Parse(time.DateOnly, in.DateOfBirth); err != nil {
		f.Add("date_of_birth", "portal.excuse.date")
	}
	if in.Name == "" {
		f.Add("name", "portal.name_required")
	} else if utf8.RuneCountInString(in.Name) > 200 {
		f.Add("name", "portal.too_long", "max", 200)
	}
	if in.Relationship == "" {
		in.Relationship = api.RelationLainnya
	}
	if !slices.Contains(Relations, in.Relationship) {
		f.Add("relationship", "portal.relation_invalid")
	}
	p, err := normalPhone(in.Phone)
	if e, ok := apperr.As(err); ok {
		for k, v := range e.Fields {
			f[k] = v
		}
	}
	return p, f.Err()
}

// Register links a guardian to a child by NISN and date of birth: at once
// when the phone is the school's record for the child, else pending for
// the homeroom teacher or an admin. A NISN and date of birth that match no
// active student answer pending as well and link nothing, so the answer
// never tells a stranger which children exist.
func (s *Service) Register(ctx context.Context, in api.PortalRegistration, addr string) (api.PortalRegistrationAnswer, error) {
	p, err := validateRegistration(&in)
	if err != nil {
		return api.PortalRegistrationAnswer{}, err
	}
	addr = httpx.CleanHeader(addr, 100)
	var out api.PortalRegistrationAnswer
	err = pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		const lock = `SELECT pg_advisory_xact_lock(hashtext('tatib.portal.register.phone'), hashtext($1)),
			pg_advisory_xact_lock(hashtext('tatib.portal.register.address'), hashtext($2))`
		if _, err := tx.ExecContext(ctx, lock, p, addr); err != nil {
			return fmt.Errorf("portal: register lock: %w", err)
		}
		var nPhone, nAddr int
		const count = `SELECT count(*) FILTER (WHERE phone = $1), count(*) FILTER (WHERE address = $2)
			FROM portal_registrations WHERE created_at > $3 AND (phone = $1 OR address = $2)`
		if err := tx.QueryRowxContext(ctx, count, p, addr, s.now().Add(-RegisterWindow)).Scan(&nPhone, &nAddr); err != nil {
			return fmt.Errorf("portal: register throttle: %w", err)
		}
		if nPhone >= RegisterPerPhone || nAddr >= RegisterPerAddr {
			return apperr.New(apperr.RateLimited, "portal.too_many_registrations", "minutes", int(RegisterWindow.Minutes()))
		}
		var st struct {
			ID    int64  `db:"id"`
			Phone string `db:"parent_phone"`
		}
		err := tx.GetContext(ctx, &st, `SELECT id, parent_phone FROM students WHERE active AND nisn = $1 AND date_of_birth = $2::date ORDER BY id LIMIT 1`,
			in.NISN, in.DateOfBirth)
		outcome := api.GuardianLinkPending
		var studentID, guardianID *int64
		switch {
		case errors.Is(err, sql.ErrNoRows):
			outcome = "no_match"
		case err != nil:
			return fmt.Errorf("portal: register: %w", err)
		default:
			studentID = &st.ID
			status := api.GuardianLinkPending
			if rec, problem := phone.Normalize(st.Phone); problem == phone.None && rec == p {
				status = api.GuardianLinkVerified
			}
			gid, err := s.linkSelf(ctx, tx, st.ID, in, p, status)
			if err != nil {
				return err
			}
			guardianID = &gid
			outcome = status
		}
		const ins = `INSERT INTO portal_registrations (nisn, phone, name, relation, address, student_id, guardian_id, outcome)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`
		var id int64
		if err := tx.GetContext(ctx, &id, ins, in.NISN, p, in.Name, in.Relationship, addr, studentID, guardianID, outcome); err != nil {
			return fmt.Errorf("portal: register: %w", err)
		}
		out.Status = api.GuardianLinkPending
		if outcome == api.GuardianLinkVerified {
			out.Status = api.GuardianLinkVerified
		}
		return audit.Record(ctx, tx, audit.Actor{Name: "portal", Address: addr}, "portal.register", "portal_registration", strconv.FormatInt(id, 10),
			map[string]any{"outcome": outcome})
	})
	return out, err
}

// linkSelf links the registering guardian; a link that exists keeps its
// status (a verified one is not demoted by a second registration).
func (s *Service) linkSelf(ctx context.Context, tx *sqlx.Tx, studentID int64, in api.PortalRegistration, p, status string) (int64, error) {
	var existing struct {
		GuardianID int64  `db:"guardian_id"`
		Status     string `db:"status"`
	}
	err := tx.GetContext(ctx, &existing, `SELECT gs.guardian_id, gs.status FROM guardian_students gs JOIN guardians g ON g.id = gs.guardian_id
		WHERE g.phone = $1 AND gs.student_id = $2`, p, studentID)
	switch {
	case err == nil:
		if status == api.GuardianLinkVerified && existing.Status == api.GuardianLinkPending {
			if _, err := tx.ExecContext(ctx, `UPDATE guardian_students SET status = 'verified' WHERE guardian_id = $1 AND student_id = $2`,
				existing.GuardianID, studentID); err != nil {
				return 0, fmt.Errorf("portal: register: %w", err)
			}
		}
		return existing.GuardianID, nil
	case !errors.Is(err, sql.ErrNoRows):
		return 0, fmt.Errorf("portal: register: %w", err)
	}
	return LinkTx(ctx, tx, studentID, in.Name, p, in.Relationship, status, "self", 0)
}

// Verify decides a pending self-registration: approve makes the link
// verified; refuse removes it (its slot is free again), with a reason kept
// on the registration and in the audit log.
func Verify(ctx context.Context, db *sqlx.DB, actor audit.Actor, homeroom, guardianID int64, in api.GuardianVerification) error {
	in.Reason = strings.TrimSpace(in.Reason)
	if in.StudentID <= 0 {
		return apperr.Fields{"student_id": apperr.M("portal.student_required")}.Err()
	}
	if !in.Approve && in.Reason == "" {
		return apperr.Fields{"reason": apperr.M("portal.excuse.refusal_required")}.Err()
	}
	if utf8.RuneCountInString(in.Reason) > 500 {
		return apperr.Fields{"reason": apperr.M("portal.too_long", "max", 500)}.Err()
	}
	return pg.InTx(ctx, db, func(tx *sqlx.Tx) error {
		var status string
		err := tx.GetContext(ctx, &status, `SELECT gs.status FROM guardian_students gs
			WHERE gs.guardian_id = $2 AND gs.student_id = $3 AND `+studentScope("gs.student_id", "$1")+` FOR UPDATE`, homeroom, guardianID, in.StudentID)
		if errors.Is(err, sql.ErrNoRows) {
			return apperr.New(apperr.NotFound, "portal.guardian_not_found")
		}
		if err != nil {
			return fmt.Errorf("portal: verify: %w", err)
		}
		if status != api.GuardianLinkPending {
			return apperr.New(apperr.Conflict, "portal.not_pending")
		}
		q, outcome := `UPDATE guardian_students SET status = 'verified' WHERE guardian_id = $1 AND student_id = $2`, "approved"
		if !in.Approve {
			q, outcome = `DELETE FROM guardian_students WHERE guardian_id = $1 AND student_id = $2`, "refused"
		}
		if _, err := tx.ExecContext(ctx, q, guardianID, in.StudentID); err != nil {
			return fmt.Errorf("portal: verify: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE portal_registrations SET outcome = $3, reason = $4, decided_by = NULLIF($5::bigint, 0)
			WHERE guardian_id = $1 AND student_id = $2 AND outcome = 'pending'`, guardianID, in.StudentID, outcome, in.Reason, actor.ID); err != nil {
			return fmt.Errorf("portal: verify: %w", err)
		}
		return audit.Record(ctx, tx, actor, "guardian.verify", "guardian", strconv.FormatInt(guardianID, 10),
			map[string]any{"student_id": in.StudentID, "approve": in.Approve, "reason": in.Reason})
	})
}

// CodeRequests lists the latest code requests (at most 200). A homeroom
// teacher sees only those of their class's guardians.
func CodeRequests(ctx context.Context, db *sqlx.DB, homeroom int64) ([]api.PortalCodeRequestRow, error) {
	out := []api.PortalCodeRequestRow{}
	const q = `SELECT pc.id, pc.phone, pc.address, pc.kind, COALESCE(g.name, '') AS guardian_name, pc.tries, pc.used_at IS NOT NULL AS used, pc.created_at
		FROM portal_codes pc LEFT JOIN guardians g ON g.id = pc.guardian_id
		WHERE $1::bigint = 0 OR EXISTS (SELECT 1 FROM guardian_students gs JOIN students s2 ON s2.id = gs.student_id JOIN classes c2 ON c2.id = s2.class_id
		    WHERE gs.guardian_id = pc.guardian_id AND c2.homeroom_teacher_id = $1)
		ORDER BY pc.created_at DESC, pc.id DESC LIMIT 200`
	if err := sqlx.SelectContext(ctx, db, &out, q, homeroom); err != nil {
		return nil, fmt.Errorf("portal: code requests: %w", err)
	}
	return out, nil
}

// Sessions lists the active portal sessions in the reader's scope.
func Sessions(ctx context.Context, db *sqlx.DB, homeroom int64, now time.Time) ([]api.PortalSessionRow, error) {
	out := []api.PortalSessionRow{}
	const q = `SELECT ps.guardian_id, g.name AS guardian_name, ps.created_at, ps.last_seen_at, ps.user_agent, ps.address
		FROM portal_sessions ps JOIN guardians g ON g.id = ps.guardian_id
		WHERE ps.last_seen_at > $2 AND ps.created_at > $3 AND ($1::bigint = 0 OR EXISTS (SELECT 1 FROM guardian_students gs
		    JOIN students s2 ON s2.id = gs.student_id JOIN classes c2 ON c2.id = s2.class_id WHERE gs.guardian_id = g.id AND c2.homeroom_teacher_id = $1))
		ORDER BY ps.last_seen_at DESC LIMIT 500`
	if err := sqlx.SelectContext(ctx, db, &out, q, homeroom, now.Add(-SessionIdle), now.Add(-SessionMaxAge)); err != nil {
		return nil, fmt.Errorf("portal: sessions: %w", err)
	}
	return out, nil
}

// Registrations lists the latest self-registrations in the reader's scope
// (a homeroom teacher: those of their class's students).
func Registrations(ctx context.Context, db *sqlx.DB, homeroom int64) ([]api.PortalRegistrationRow, error) {
	out := []api.PortalRegistrationRow{}
	const q = `SELECT r.id, r.nisn, r.phone, r.name, r.relation, COALESCE(s.full_name, '') AS student_name, r.outcome, r.reason, r.created_at
		FROM portal_registrations r LEFT JOIN students s ON s.id = r.student_id LEFT JOIN classes c ON c.id = s.class_id
		WHERE $1::bigint = 0 OR c.homeroom_teacher_id = $1
		ORDER BY r.created_at DESC, r.id DESC LIMIT 200`
	if err := sqlx.SelectContext(ctx, db, &out, q, homeroom); err != nil {
		return nil, fmt.Errorf("portal: registrations: %w", err)
	}
	return out, nil
}
