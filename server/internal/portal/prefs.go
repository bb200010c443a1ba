package portal

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/parentmsg"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/shared/api"
)

// prefKind is a kind of message a guardian chooses for: the modes it
// allows and its mode when the guardian never chose (docs/portal.md,
// "Preferences and the daily digest"). The table's CHECKs say the same.
type prefKind struct {
	kind  string
	modes []string
	def   string
}

var (
	allModes = []string{api.NotifyImmediate, api.NotifyDigest, api.NotifyOff}
	// notOff: the school's formal notices (warning letters, summons) may
	// wait for the digest but never be turned off.
	notOff    = []string{api.NotifyImmediate, api.NotifyDigest}
	prefKinds = []prefKind{
		{api.NotifyViolation, allModes, api.NotifyImmediate},
		{api.NotifyAttendance, allModes, api.NotifyImmediate},
		{api.NotifyWarningLetter, notOff, api.NotifyImmediate},
		{api.NotifySummons, notOff, api.NotifyImmediate},
		{api.NotifyAchievement, allModes, api.NotifyImmediate},
		{api.NotifyExcuse, allModes, api.NotifyImmediate},
		// "belum hadir" matters only that morning: no digest; opt-in.
		{api.NotifyAbsentNotice, []string{api.NotifyImmediate, api.NotifyOff}, api.NotifyOff},
	}
)

// pushOn is true when the guardian g takes the kind (an SQL expression)
// at once: a kind in the digest or off sends no Web Push either.
func pushOn(kind string) string {
	return `NOT EXISTS (SELECT 1 FROM guardian_notification_prefs np WHERE np.guardian_id = g.id AND np.kind = ` + kind + ` AND np.mode <> 'immediate')`
}

// Preferences returns the guardian's choice for every kind.
func Preferences(ctx context.Context, db sqlx.QueryerContext, p *Principal) (api.NotificationPrefs, error) {
	var out api.NotificationPrefs
	if err := p.guardianOnly(); err != nil {
		return out, err
	}
	var rows []struct {
		Kind string `db:"kind"`
		Mode string `db:"mode"`
	}
	if err := sqlx.SelectContext(ctx, db, &rows, `SELECT kind, mode FROM guardian_notification_prefs WHERE guardian_id = $1`, p.Guardian.ID); err != nil {
		return out, fmt.Errorf("portal: preferences: %w", err)
	}
	chosen := map[string]string{}
	for _, r := range rows {
		chosen[r.Kind] = r.Mode
	}
	set, err := LoadSettings(ctx, db)
	if err != nil {
		return out, err
	}
	for _, k := range prefKinds {
		mode := chosen[k.kind]
		if mode == "" {
			mode = k.def
		}
		out.Preferences = append(out.Preferences, api.NotificationPref{Kind: k.kind, Mode: mode, Modes: k.modes})
	}
	out.DigestAt = digestAt(set)
	out.AbsentNotice = set.AbsentNotice
	return out, nil
}

// SavePreferences stores the kinds named in in; a kind or mode it does not
// know, or a mode the kind does not allow (a warning letter off), is a 422
// on preferences.<kind>.
func SavePreferences(ctx context.Context, db *sqlx.DB, p *Principal, in api.NotificationPrefsInput) (api.NotificationPrefs, error) {
	if err := p.guardianOnly(); err != nil {
		return api.NotificationPrefs{}, err
	}
	f := apperr.Fields{}
	if len(in.Preferences) == 0 {
		f.Add("preferences", "portal.prefs.empty")
	}
	var kinds, modes []string
	for kind, mode := range in.Preferences {
		i := slices.IndexFunc(prefKinds, func(k prefKind) bool { return k.kind == kind })
		switch {
		case i < 0:
			f.Add("preferences", "portal.prefs.kind")
		case !slices.Contains(prefKinds[i].modes, mode):
			f.Add("preferences."+kind, "portal.prefs.mode")
		default:
			kinds, modes = append(kinds, kind), append(modes, mode)
		}
	}
	if len(f) > 0 {
		return api.NotificationPrefs{}, f.Err()
	}
	err := pg.InTx(ctx, db, func(tx *sqlx.Tx) error {
		const q = `INSERT INTO guardian_notification_prefs (guardian_id, kind, mode)
			SELECT $1, u.kind, u.mode FROM unnest($2::text[], $3::text[]) AS u(kind, mode)
			ON CONFLICT (guardian_id, kind) DO UPDATE SET mode = EXCLUDED.mode, updated_at = now()`
		if _, err := tx.ExecContext(ctx, q, p.Guardian.ID, pq.Array(kinds), pq.Array(modes)); err != nil {
			return fmt.Errorf("portal: save preferences: %w", err)
		}
		return audit.Record(ctx, tx, p.Actor(), "portal.preferences", "guardian", strconv.FormatInt(p.Guardian.ID, 10), in.Preferences)
	})
	if err != nil {
		return api.NotificationPrefs{}, err
	}
	return Preferences(ctx, db, p)
}

// clockOf reads "HH:MM" as minutes after midnight.
func clockOf(s string) (int, bool) {
	h, m, ok := strings.Cut(s, ":")
	if !ok || len(h) != 2 || len(m) != 2 {
		return 0, false
	}
	hh, err1 := strconv.Atoi(h)
	mm, err2 := strconv.Atoi(m)
	if err1 != nil || err2 != nil || hh < 0 || hh > 23 || mm < 0 || mm > 59 {
		return 0, false
	}
	return hh*60 + mm, true
}

func digestAt(set api.PortalSettings) string {
	if set.DigestAt == "" {
		return api.DefaultDigestAt
	}
	return set.DigestAt
}

func absentNoticeAt(set api.PortalSettings) string {
	if set.AbsentNoticeAt == "" {
		return api.DefaultAbsentNoticeAt
	}
	return set.AbsentNoticeAt
}

// validateSettings checks the portal settings' times.
func validateSettings(in api.PortalSettings) error {
	f := apperr.Fields{}
	if _, ok := clockOf(digestAt(in)); !ok {
		f.Add("digest_at", "portal.settings.time")
	}
	if _, ok := clockOf(absentNoticeAt(in)); !ok {
		f.Add("absent_notice_at", "portal.settings.time")
	}
	if len(f) > 0 {
		return f.Err()
	}
	return nil
}

// at is the instant of the Jakarta clock time hhmm on now's school day.
func at(now time.Time, hhmm string) time.Time {
	m, _ := clockOf(hhmm)
	return schoolday.DateOf(now).Start().Add(time.Duration(m) * time.Minute)
}

// digestLock is the advisory lock of a digest run: of two replicas, one
// builds the day's digests (the unique index decides too).
const digestLock = 0x7461_7469_6264 // "tatibd"

// Digests queues the daily digest of every guardian with messages held for
// it, once the school's digest time has passed on now's Jakarta day: one
// message per guardian and day carrying every held message's text (the
// newest cut when it runs past the outbox's limit), through the outbox,
// held past the quiet hours like any message. It returns how many it
// queued; a guardian already given today's digest gets the rest tomorrow.
func Digests(ctx context.Context, db *sqlx.DB, now time.Time) (int, error) {
	n := 0
	err := pg.InTx(ctx, db, func(tx *sqlx.Tx) error {
		set, err := LoadSettings(ctx, tx)
		if err != nil {
			return err
		}
		if now.Before(at(now, digestAt(set))) {
			return nil
		}
		var locked bool
		if err := tx.GetContext(ctx, &locked, `SELECT pg_try_advisory_xact_lock($1)`, digestLock); err != nil {
			return fmt.Errorf("portal: digest lock: %w", err)
		}
		if !locked {
			return nil
		}
		msg, err := parentmsg.Load(ctx, tx)
		if err != nil {
			return err
		}
		if !msg.Configured() {
			return nil
		}
		prof, err := school.LoadProfile(ctx, tx)
		if err != nil {
			return err
		}
		next := now
		if until, quiet := parentmsg.QuietUntil(msg.QuietHours, now); quiet {
			next = until
		}
		const more = "\n\n… Selengkapnya di portal orang tua."
		const q = `WITH held AS (
			SELECT g.id AS guardian_id, g.name, g.phone, m.id, m.student_id, m.body
			FROM guardians g JOIN parent_messages m ON m.phone = g.phone AND m.status = 'skipped' AND m.skip_reason = 'digest'
			    AND m.digest_id IS NULL AND m.created_at <= $1
			WHERE g.withdrawn_at IS NULL
			  AND NOT EXISTS (SELECT 1 FROM parent_messages d WHERE d.event = 'digest' AND d.guardian_id = g.id AND d.notice_day = $2::date)
			FOR UPDATE OF m),
		texts AS (
			SELECT guardian_id, name, phone, min(student_id) AS student_id,
			    format('Ringkasan harian %s untuk %s, %s (%s pesan):', $3::text, name, $4::text, count(*)) || E'\n\n'
			        || string_agg(body, E'\n\n———\n\n' ORDER BY id) AS body
			FROM held GROUP BY guardian_id, name, phone),
		ins AS (
			INSERT INTO parent_messages (student_id, event, guardian_id, notice_day, parent_name, phone_raw, phone, body, status, next_attempt_at)
			SELECT student_id, 'digest', guardian_id, $2::date, left(name, 200), phone, phone,
			    CASE WHEN length(body) <= $5 THEN body ELSE left(body, $5 - length($6::text)) || $6 END, 'queued', $7
			FROM texts ORDER BY guardian_id
			ON CONFLICT DO NOTHING
			RETURNING id, guardian_id),
		upd AS (
			UPDATE parent_messages m SET digest_id = ins.id, updated_at = now()
			FROM held JOIN ins ON ins.guardian_id = held.guardian_id WHERE m.id = held.id
			RETURNING m.id)
		SELECT (SELECT count(*) FROM ins), (SELECT count(*) FROM upd)`
		day := schoolday.Of(now)
		var carried int
		if err := tx.QueryRowxContext(ctx, q, now, day, prof.Name, parentmsg.LongDay(schoolday.DateOf(now)), parentmsg.MaxBody,
			more, next).Scan(&n, &carried); err != nil {
			return fmt.Errorf("portal: digests: %w", err)
		}
		if n > 0 {
			if _, err := tx.ExecContext(ctx, `SELECT pg_notify($1, '')`, parentmsg.Channel); err != nil {
				return fmt.Errorf("portal: digests: %w", err)
			}
		}
		return nil
	})
	return n, err
}
