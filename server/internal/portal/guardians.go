package portal

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/shared/api"
)

// Relations are the valid guardian relations.
var Relations = []string{api.RelationAyah, api.RelationIbu, api.RelationWali, api.RelationLainnya}

// MaxGuardians is how many guardians a student may have (one per slot).
const MaxGuardians = 3

// studentScope keeps the students a homeroom teacher ($param, 0: everyone)
// may reach: those of the class they lead.
func studentScope(col, param string) string {
	return `(` + param + `::bigint = 0 OR ` + col + ` IN (SELECT s2.id FROM students s2 JOIN classes c2 ON c2.id = s2.class_id
		WHERE c2.homeroom_teacher_id = ` + param + `::bigint))`
}

// GuardianFilter selects the staff list.
type GuardianFilter struct {
	StudentID int64
	Pending   bool
	Homeroom  int64
}

// ListGuardians lists guardians with their links in the reader's scope,
// with their session counts; at most 500.
func ListGuardians(ctx context.Context, q sqlx.QueryerContext, f GuardianFilter) ([]api.Guardian, error) {
	const sel = `SELECT g.id, g.name, g.phone, g.consent_at, g.consent_channel, g.withdrawn_at,
		    (SELECT count(*) FROM portal_sessions ps WHERE ps.guardian_id = g.id) AS sessions,
		    (SELECT max(last_seen_at) FROM portal_sessions ps WHERE ps.guardian_id = g.id) AS last_seen_at,
		    json_agg(json_build_object('student_id', st.id, 'student_name', st.full_name, 'class_name', COALESCE(c.name, ''),
		        'relation', gs.relation, 'status', gs.status, 'source', gs.source, 'created_at', gs.created_at)
		        ORDER BY st.full_name, st.id) AS links
		FROM guardians g
		JOIN guardian_students gs ON gs.guardian_id = g.id
		JOIN students st ON st.id = gs.student_id
		LEFT JOIN classes c ON c.id = st.class_id
		WHERE ` + `(` + `$1::bigint = 0 OR gs.student_id = $1) AND (NOT $2 OR gs.status = 'pending') AND ` + `(` + `$3::bigint = 0 OR c.homeroom_teacher_id = $3)
		GROUP BY g.id ORDER BY g.name, g.id LIMIT 500`
	rows, err := q.QueryxContext(ctx, sel, f.StudentID, f.Pending, f.Homeroom)
	if err != nil {
		return nil, fmt.Errorf("portal: list guardians: %w", err)
	}
	defer rows.Close()
	out := []api.Guardian{}
	for rows.Next() {
		var g api.Guardian
		var links string
		if err := rows.Scan(&g.ID, &g.Name, &g.Phone, &g.ConsentAt, &g.ConsentChannel, &g.WithdrawnAt, &g.Sessions, &g.LastSeenAt, &links); err != nil {
			return nil, fmt.Errorf("portal: list guardians: %w", err)
		}
		if err := json.Unmarshal([]byte(links), &g.Students); err != nil {
			return nil, fmt.Errorf("portal: list guardians: %w", err)
		}
		out = append(out, g)
	}
	return out, rows.Err()
}

// Validate checks a staff-added guardian; it returns the normalised phone.
func validateGuardian(in *api.GuardianInput) (string, error) {
	f := apperr.Fields{}
	in.Name = strings.TrimSpace(in.Name)
	if in.StudentID <= 0 {
		f.Add("student_id", "portal.student_required")
	}
	if in.Name == "" {
		f.Add("name", "portal.name_required")
	} else if utf8.RuneCountInString(in.Name) > 200 {
		f.Add("name", "portal.too_long", "max", 200)
	}
	if in.Relation == "" {
		in.Relation = api.RelationLainnya
	}
	if !slices.Contains(Relations, in.Relation) {
		f.Add("relation", "portal.relation_invalid")
	}
	p, err := normalPhone(in.Phone)
	if err != nil {
		e, _ := apperr.As(err)
		for k, v := range e.Fields {
			f[k] = v
		}
	}
	return p, f.Err()
}

// LinkTx links the guardian of phone (created with name when new) to the
// student in the first free slot. A student with three guardians answers
// Conflict; so does the loser of two requests racing for the last slot
// (the unique (student_id, slot) key decides).
func LinkTx(ctx context.Context, tx *sqlx.Tx, studentID int64, name, phone, relation, status, source string, by int64) (int64, error) {
	var gid int64
	const up = `INSERT INTO guardians (name, phone, created_by) VALUES ($1, $2, NULLIF($3::bigint, 0))
		ON CONFLICT (phone) DO UPDATE SET updated_at = now() RETURNING id`
	if err := tx.GetContext(ctx, &gid, up, name, phone, by); err != nil {
		return 0, fmt.Errorf("portal: guardian: %w", err)
	}
	var linked bool
	if err := tx.GetContext(ctx, &linked, `SELECT EXISTS (SELECT 1 FROM guardian_students WHERE guardian_id = $1 AND student_id = $2)`, gid, studentID); err != nil {
		return 0, fmt.Errorf("portal: link: %w", err)
	}
	if linked {
		return 0, apperr.New(apperr.Conflict, "portal.already_linked")
	}
	const ins = `INSERT INTO guardian_students (guardian_id, student_id, slot, relation, status, source)
		SELECT $1, $2, n, $3, $4, $5 FROM generate_series(1, 3) n
		WHERE n NOT IN (SELECT slot FROM guardian_students WHERE student_id = $2)
		ORDER BY n LIMIT 1`
	res, err := tx.ExecContext(ctx, ins, gid, studentID, relation, status, source)
	if err != nil {
		if pg.IsUnique(err, "guardian_students_pkey") {
			return 0, apperr.New(apperr.Conflict, "portal.already_linked")
		}
		if pg.IsUnique(err, "guardian_students_student_id_slot_key") {
			return 0, apperr.New(apperr.Conflict, "portal.guardians_full", "max", MaxGuardians)
		}
		return 0, fmt.Errorf("portal: link: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return 0, apperr.New(apperr.Conflict, "portal.guardians_full", "max", MaxGuardians)
	}
	return gid, nil
}

// AddGuardian adds a guardian to a student in the staff member's scope.
func AddGuardian(ctx context.Context, db *sqlx.DB, actor audit.Actor, homeroom int64, in api.GuardianInput) (api.Guardian, error) {
	p, err := validateGuardian(&in)
	if err != nil {
		return api.Guardian{}, err
	}
	var gid int64
	err = pg.InTx(ctx, db, func(tx *sqlx.Tx) error {
		var ok bool
		if err := tx.GetContext(ctx, &ok, `SELECT EXISTS (SELECT 1 FROM students WHERE id = $2 AND `+studentScope("id", "$1")+`)`, homeroom, in.StudentID); err != nil {
			return fmt.Errorf("portal: student: %w", err)
		}
		if !ok {
			return apperr.New(apperr.NotFound, "portal.student_not_found")
		}
		if gid, err = LinkTx(ctx, tx, in.StudentID, in.Name, p, in.Relation, api.GuardianLinkVerified, "staff", actor.ID); err != nil {
			return err
		}
		return audit.Record(ctx, tx, actor, "guardian.link", "guardian", strconv.FormatInt(gid, 10),
			map[string]any{"student_id": in.StudentID, "relation": in.Relation})
	})
	if err != nil {
		return api.Guardian{}, err
	}
	gs, err := ListGuardians(ctx, db, GuardianFilter{StudentID: in.StudentID, Homeroom: homeroom})
	if err != nil {
		return api.Guardian{}, err
	}
	for _, g := range gs {
		if g.ID == gid {
			return g, nil
		}
	}
	return api.Guardian{}, apperr.New(apperr.NotFound, "portal.guardian_not_found")
}

// inScope reports whether the guardian has a link to a student the staff
// member may reach.
func inScope(ctx context.Context, q sqlx.QueryerContext, homeroom, guardianID int64) (string, error) {
	var phone string
	err := sqlx.GetContext(ctx, q, &phone, `SELECT g.phone FROM guardians g WHERE g.id = $2 AND EXISTS (
		SELECT 1 FROM guardian_students gs WHERE gs.guardian_id = g.id AND `+studentScope("gs.student_id", "$1")+`)`, homeroom, guardianID)
	if errors.Is(err, sql.ErrNoRows) {
		return "", apperr.New(apperr.NotFound, "portal.guardian_not_found")
	}
	if err != nil {
		return "", fmt.Errorf("portal: guardian: %w", err)
	}
	return phone, nil
}

// IssueActivationCode prints a one-time code for a guardian (8 digits,
// valid ActivationTTL, MaxTries tries); an earlier unused one is voided.
func (s *Service) IssueActivationCode(ctx context.Context, actor audit.Actor, homeroom, guardianID int64) (api.ActivationCode, error) {
	var out api.ActivationCode
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		p, err := inScope(ctx, tx, homeroom, guardianID)
		if err != nil {
			return err
		}
		now := s.now()
		if _, err := tx.ExecContext(ctx, `UPDATE portal_codes SET expires_at = $2 WHERE guardian_id = $1 AND kind = 'activation' AND used_at IS NULL AND expires_at > $2`, guardianID, now); err != nil {
			return fmt.Errorf("portal: void codes: %w", err)
		}
		code := newCode(8)
		out = api.ActivationCode{GuardianID: guardianID, Phone: p, Code: code, ExpiresAt: now.Add(ActivationTTL)}
		const ins = `INSERT INTO portal_codes (phone, guardian_id, kind, code_hash, expires_at, created_by, created_at)
			VALUES ($1, $2, 'activation', $3, $4, NULLIF($5::bigint, 0), $6)`
		if _, err := tx.ExecContext(ctx, ins, p, guardianID, hashCode(code), out.ExpiresAt, actor.ID, now); err != nil {
			return fmt.Errorf("portal: activation code: %w", err)
		}
		return audit.Record(ctx, tx, actor, "guardian.activation_code", "guardian", strconv.FormatInt(guardianID, 10), nil)
	})
	return out, err
}

// RevokeSessions ends every portal session of a guardian, by staff.
func RevokeSessions(ctx context.Context, db *sqlx.DB, actor audit.Actor, homeroom, guardianID int64) error {
	return pg.InTx(ctx, db, func(tx *sqlx.Tx) error {
		if _, err := inScope(ctx, tx, homeroom, guardianID); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM portal_sessions WHERE guardian_id = $1`, guardianID)
		if err != nil {
			return fmt.Errorf("portal: revoke: %w", err)
		}
		n, _ := res.RowsAffected()
		return audit.Record(ctx, tx, actor, "guardian.revoke_sessions", "guardian", strconv.FormatInt(guardianID, 10), map[string]any{"sessions": n})
	})
}
