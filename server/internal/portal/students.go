package portal

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/shared/api"
)

// SettingsKey is the settings row of the portal's switches.
const SettingsKey = "portal"

// studentsOnSQL is true while the school lets students in (off by default).
const studentsOnSQL = `COALESCE((SELECT (value->>'students')::boolean FROM settings WHERE key = 'portal'), false)`

// LoadSettings returns the portal's switches (all off when unset).
func LoadSettings(ctx context.Context, q sqlx.QueryerContext) (api.PortalSettings, error) {
	var out api.PortalSettings
	var raw string
	err := sqlx.GetContext(ctx, q, &raw, `SELECT value::text FROM settings WHERE key = $1`, SettingsKey)
	if errors.Is(err, sql.ErrNoRows) {
		return out, nil
	}
	if err != nil {
		return out, fmt.Errorf("portal: settings: %w", err)
	}
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		return out, fmt.Errorf("portal: settings: %w", err)
	}
	return out, nil
}

// SaveSettings stores the switches; turning students off ends their
// sessions at once (Authenticate also checks the switch).
func SaveSettings(ctx context.Context, db *sqlx.DB, actor audit.Actor, in api.PortalSettings) error {
	if err := validateSettings(in); err != nil {
		return err
	}
	b, err := json.Marshal(in)
	if err != nil {
		return err
	}
	return pg.InTx(ctx, db, func(tx *sqlx.Tx) error {
		const q = `INSERT INTO settings (key, value, updated_at, updated_by) VALUES ($1, $2, now(), NULLIF($3::bigint, 0))
			ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now(), updated_by = EXCLUDED.updated_by`
		if _, err := tx.ExecContext(ctx, q, SettingsKey, string(b), actor.ID); err != nil {
			return fmt.Errorf("portal: save settings: %w", err)
		}
		if !in.Students {
			if _, err := tx.ExecContext(ctx, `DELETE FROM portal_sessions WHERE student_id IS NOT NULL`); err != nil {
				return fmt.Errorf("portal: end student sessions: %w", err)
			}
		}
		return audit.Record(ctx, tx, actor, "settings.portal", "setting", SettingsKey, in)
	})
}

func studentsOff() error { return apperr.New(apperr.Conflict, "portal.students_off") }

// IssueStudentCode prints a student's sign-in code (8 digits, valid
// ActivationTTL, MaxTries tries, once); an earlier unused one is voided.
func (s *Service) IssueStudentCode(ctx context.Context, actor audit.Actor, homeroom, studentID int64) (api.ActivationCode, error) {
	var out api.ActivationCode
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		set, err := LoadSettings(ctx, tx)
		if err != nil {
			return err
		}
		if !set.Students {
			return studentsOff()
		}
		var nisn string
		err = tx.GetContext(ctx, &nisn, `SELECT nisn FROM students WHERE id = $2 AND active AND `+studentScope("id", "$1"), homeroom, studentID)
		if errors.Is(err, sql.ErrNoRows) {
			return apperr.New(apperr.NotFound, "portal.student_not_found")
		}
		if err != nil {
			return fmt.Errorf("portal: student: %w", err)
		}
		if nisn == "" {
			return apperr.New(apperr.Conflict, "portal.student_no_nisn")
		}
		now := s.now()
		if _, err := tx.ExecContext(ctx, `UPDATE portal_codes SET expires_at = $2 WHERE student_id = $1 AND kind = 'student' AND used_at IS NULL AND expires_at > $2`, studentID, now); err != nil {
			return fmt.Errorf("portal: void codes: %w", err)
		}
		code := newCode(8)
		out = api.ActivationCode{Phone: nisn, Code: code, ExpiresAt: now.Add(ActivationTTL)}
		const ins = `INSERT INTO portal_codes (phone, student_id, kind, code_hash, expires_at, created_by, created_at)
			VALUES ('', $1, 'student', $2, $3, NULLIF($4::bigint, 0), $5)`
		if _, err := tx.ExecContext(ctx, ins, studentID, hashCode(code), out.ExpiresAt, actor.ID, now); err != nil {
			return fmt.Errorf("portal: student code: %w", err)
		}
		return audit.Record(ctx, tx, actor, "student.portal_code", "student", strconv.FormatInt(studentID, 10), nil)
	})
	return out, err
}

// StudentSignIn signs a student in with their NISN and printed code while
// the school lets students in. Tries are spent as for guardians' codes.
func (s *Service) StudentSignIn(ctx context.Context, in api.PortalStudentSignIn, addr, userAgent string) (api.PortalVerifyAnswer, string, error) {
	nisn, code := strings.TrimSpace(in.NISN), strings.TrimSpace(in.Code)
	f := apperr.Fields{}
	if !nisnRE.MatchString(nisn) {
		f.Add("nisn", "portal.nisn_invalid")
	}
	if _, err := strconv.ParseUint(code, 10, 64); err != nil || len(code) != 8 {
		f.Add("code", "portal.code_format")
	}
	if err := f.Err(); err != nil {
		return api.PortalVerifyAnswer{}, "", err
	}
	addr = httpx.CleanHeader(addr, 100)
	now := s.now()
	var out api.PortalVerifyAnswer
	var token string
	var bad bool
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		set, err := LoadSettings(ctx, tx)
		if err != nil {
			return err
		}
		if !set.Students {
			return studentsOff()
		}
		var live []struct {
			ID        int64  `db:"id"`
			StudentID int64  `db:"student_id"`
			Name      string `db:"full_name"`
			Hash      []byte `db:"code_hash"`
		}
		const q = `UPDATE portal_codes pc SET tries = pc.tries + 1 FROM students st
			WHERE st.id = pc.student_id AND st.nisn = $1 AND st.active AND pc.kind = 'student' AND pc.used_at IS NULL AND pc.expires_at > $2 AND pc.tries < $3
			RETURNING pc.id, pc.student_id, st.full_name, pc.code_hash`
		if err := tx.SelectContext(ctx, &live, q, nisn, now, MaxTries); err != nil {
			return fmt.Errorf("portal: student sign-in: %w", err)
		}
		match := -1
		for i, c := range live {
			if codeMatches(c.Hash, code) {
				match = i
			}
		}
		if match < 0 {
			bad = true // the spent tries commit with the answer
			return nil
		}
		c := live[match]
		if _, err := tx.ExecContext(ctx, `UPDATE portal_codes SET used_at = $2 WHERE id = $1`, c.ID, now); err != nil {
			return fmt.Errorf("portal: use code: %w", err)
		}
		token = newToken()
		const ins = `INSERT INTO portal_sessions (token_hash, student_id, created_at, last_seen_at, user_agent, address) VALUES ($1, $2, $3, $3, $4, $5)`
		if _, err := tx.ExecContext(ctx, ins, hashToken(token), c.StudentID, now, httpx.CleanHeader(userAgent, 300), addr); err != nil {
			return fmt.Errorf("portal: session: %w", err)
		}
		out = api.PortalVerifyAnswer{Token: token, Guardian: api.PortalGuardian{Name: c.Name, StudentID: c.StudentID}}
		p := &Principal{Guardian: out.Guardian, StudentID: c.StudentID, Address: addr}
		return audit.Record(ctx, tx, p.Actor(), "portal.sign_in", "student", strconv.FormatInt(c.StudentID, 10), map[string]any{"channel": "student_code"})
	})
	if err == nil && bad {
		err = errBadCode
	}
	return out, token, err
}
