package studentsync

import (
	"context"
	"regexp"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/school"
)

// keyStudentAffairs is the connection's key in the settings table.
const keyStudentAffairs = "student_affairs"

// StudentAffairs is the connection to the student-affairs system. The token
// is returned as text: the screen shows it with a copy button (spec,
// Authentication 7).
type StudentAffairs struct {
	URL   string `json:"url"`
	Token string `json:"token"`
	// Schedule is a daily time "HH:MM" (Asia/Jakarta) for the automatic
	// sync, or "" for none.
	Schedule  string     `json:"schedule"`
	UpdatedAt *time.Time `json:"updated_at,omitempty"`
}

// StudentAffairsInput replaces the connection; a null or absent token keeps
// the stored one.
type StudentAffairsInput struct {
	URL      string  `json:"url"`
	Token    *string `json:"token"`
	Schedule string  `json:"schedule"`
}

var scheduleRE = regexp.MustCompile(`^([01][0-9]|2[0-3]):[0-5][0-9]$`)

// Validate checks the connection settings field by field. An empty URL
// switches the integration off.
func (in *StudentAffairsInput) Validate() error {
	f := apperr.Fields{}
	in.URL = strings.TrimSpace(in.URL)
	in.Schedule = strings.TrimSpace(in.Schedule)
	if in.URL != "" {
		norm, key := normalizeBaseURL(in.URL)
		if key != "" {
			f.Add("url", key)
		} else {
			in.URL = norm
		}
	}
	if in.Token != nil {
		t := strings.TrimSpace(*in.Token)
		in.Token = &t
		switch {
		case len(t) > 1000:
			f.Add("token", "school.token.too_long", "max", 1000)
		case strings.ContainsAny(t, " \t\r\n"):
			f.Add("token", "school.token.spaces")
		}
	}
	if in.Schedule != "" && !scheduleRE.MatchString(in.Schedule) {
		f.Add("schedule", "school.schedule.format")
	}
	if in.Schedule != "" && in.URL == "" {
		f.Add("schedule", "school.schedule.needs_url")
	}
	return f.Err()
}

// Profile is the school profile used on letters, PDFs, exports and the
// journal ping answer.
// LoadStudentAffairs returns the stored connection (zero when unset).
func LoadStudentAffairs(ctx context.Context, q sqlx.QueryerContext) (StudentAffairs, error) {
	var s StudentAffairs
	found, at, err := school.ReadSetting(ctx, q, keyStudentAffairs, &s)
	if found {
		s.UpdatedAt = &at
	}
	return s, err
}

// SaveStudentAffairs validates and stores the connection, audited.
func SaveStudentAffairs(ctx context.Context, db *sqlx.DB, actor audit.Actor, in StudentAffairsInput) (StudentAffairs, error) {
	if err := in.Validate(); err != nil {
		return StudentAffairs{}, err
	}
	var out StudentAffairs
	err := pg.InTx(ctx, db, func(tx *sqlx.Tx) error {
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtext('tatib.settings.student_affairs'))`); err != nil {
			return err
		}
		before, err := LoadStudentAffairs(ctx, tx)
		if err != nil {
			return err
		}
		out = StudentAffairs{URL: in.URL, Token: before.Token, Schedule: in.Schedule}
		if in.Token != nil {
			out.Token = *in.Token
		}
		if err := school.WriteSetting(ctx, tx, keyStudentAffairs, out, actor.ID); err != nil {
			return err
		}
		// The token itself never goes to the audit log.
		return audit.Record(ctx, tx, actor, "settings.student_affairs.update", "setting", keyStudentAffairs, map[string]any{
			"before":        map[string]any{"url": before.URL, "schedule": before.Schedule},
			"after":         map[string]any{"url": out.URL, "schedule": out.Schedule},
			"token_changed": out.Token != before.Token,
		})
	})
	if err != nil {
		return StudentAffairs{}, err
	}
	now := time.Now()
	out.UpdatedAt = &now
	return out, nil
}

// LoadProfile returns the school profile, with defaults for what was never
