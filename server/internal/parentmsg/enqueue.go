package parentmsg

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/phone"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/shared/api"
)

// The outbox. The code that records a violation, sends a letter to the
// parent or saves a summons calls one of these in its own transaction (and
// the points ledger, for an attendance day: AttendanceDaysTx): the messages
// commit or roll back with what caused them, and a worker (parentmsg/worker)
// sends them later. Each reads the settings in the transaction, renders every
// message from one SELECT and writes them with one INSERT; a source row
// already queued is skipped by the unique indexes, so a hook run twice
// queues once.

// Channel is the LISTEN/NOTIFY channel that wakes the workers when a
// queued message commits.
const Channel = "tatib_parent_messages"

// MaxBody is the longest message body stored (the table's limit).
const MaxBody = 4000

// Skip reasons of a message that cannot be sent.
const (
	SkipNoPhone      = "no_phone"
	SkipInvalidPhone = "invalid_phone"
)

// months are the Indonesian month names, as parents read dates.
var months = [...]string{"Januari", "Februari", "Maret", "April", "Mei", "Juni", "Juli",
	"Agustus", "September", "Oktober", "November", "Desember"}

// LongDay writes school day d in Indonesian: "3 November 2026".
func LongDay(d schoolday.Date) string {
	return fmt.Sprintf("%d %s %d", d.Day(), months[d.Month()-1], d.Year())
}

// QuietUntil reports whether t falls in the quiet hours q (Jakarta,
// "HH:MM", may span midnight: 21:00–06:00) and when they end. A nil q, an
// unreadable one or From equal to To means no quiet hours.
func QuietUntil(q *api.QuietHours, t time.Time) (time.Time, bool) {
	if q == nil {
		return time.Time{}, false
	}
	from, ok1 := clock(q.From)
	to, ok2 := clock(q.To)
	if !ok1 || !ok2 || from == to {
		return time.Time{}, false
	}
	j := schoolday.In(t)
	now := j.Hour()*60 + j.Minute()
	midnight := schoolday.DateOf(t).Start()
	at := func(days, minutes int) time.Time {
		return midnight.AddDate(0, 0, days).Add(time.Duration(minutes) * time.Minute)
	}
	switch {
	case from < to: // 12:00–13:00, the same day
		if now >= from && now < to {
			return at(0, to), true
		}
	case now >= from: // 21:00–06:00, before midnight
		return at(1, to), true
	case now < to: // 21:00–06:00, after midnight
		return at(0, to), true
	}
	return time.Time{}, false
}

// clock reads "HH:MM" as minutes after midnight.
func clock(s string) (int, bool) {
	h, m, ok := strings.Cut(s, ":")
	if !ok {
		return 0, false
	}
	hh, err1 := strconv.Atoi(h)
	mm, err2 := strconv.Atoi(m)
	if err1 != nil || err2 != nil || hh < 0 || hh > 23 || mm < 0 || mm > 59 {
		return 0, false
	}
	return hh*60 + mm, true
}

// source is one message's facts, read in one SELECT per batch.
type source struct {
	ID          int64          `db:"source_id"`
	StudentID   int64          `db:"student_id"`
	Name        string         `db:"full_name"`
	NIS         string         `db:"nis"`
	NISN        string         `db:"nisn"`
	Class       string         `db:"class_name"`
	ParentName  string         `db:"parent_name"`
	ParentPhone string         `db:"parent_phone"`
	TypeName    string         `db:"type_name"`
	Points      int            `db:"points"`
	Total       int            `db:"total"`
	Level       string         `db:"level_name"`
	Day         schoolday.Date `db:"day"`
	SummonsDay  schoolday.Date `db:"summons_day"`
	// LetterLevel is a letter's level when queued (its message goes once
	// per letter and level).
	LetterLevel int `db:"letter_level"`
}

// yearTotal is the student's points in the academic year containing the
// date expression d, the year starting on month $2, day $3: the
// violations' points less the points policy's reductions, as the ledger
// counts them (student_year_points, migration 00175).
func yearTotal(d string) string {
	start := `make_date(extract(year FROM ` + d + `)::int - (to_char(` + d + `, 'MM-DD') < lpad($2::int::text, 2, '0') || '-' || lpad($3::int::text, 2, '0'))::int, $2::int, $3::int)`
	return `COALESCE((SELECT p.total FROM student_year_points(` + start + `) p WHERE p.student_id = s.id), 0)`
}

const studentColumns = `s.id AS student_id, s.full_name, s.nis, s.nisn, s.parent_name, s.parent_phone`

// The SELECTs of each event; $1 is the source ids, $2 and $3 the month and
// day the academic year starts. A shared handling record (violation_id null)
// that summons covers one student's violations (package handling refuses
// more): the first of them stands for it.
var (
	// total: the point audit's total after the recording (what the
	// recording saw), else the year's sum.
	violationSources = `SELECT v.id AS source_id, ` + studentColumns + `, v.class_name, vt.name AS type_name, v.points,
		    COALESCE((SELECT pa.points_after FROM point_audit pa WHERE pa.student_id = v.student_id AND pa.violation_id = v.id
		        AND pa.action IN ('record', 'auto_record') ORDER BY pa.id DESC LIMIT 1), ` + yearTotal("v.occurred_on") + `) AS total,
		    '' AS level_name, v.occurred_on AS day, v.occurred_on AS summons_day
		FROM violations v JOIN students s ON s.id = v.student_id JOIN violation_types vt ON vt.id = v.violation_type_id
		WHERE v.id = ANY($1::bigint[]) AND $2::int > 0 AND $3::int > 0 ORDER BY v.id`
	letterSources = `SELECT w.id AS source_id, ` + studentColumns + `, w.class_name, COALESCE(vt.name, '') AS type_name,
		    COALESCE(v.points, 0) AS points, w.points AS total, w.name AS level_name,
		    (w.issued_at AT TIME ZONE 'Asia/Jakarta')::date AS day, (w.issued_at AT TIME ZONE 'Asia/Jakarta')::date AS summons_day,
		    w.level AS letter_level
		FROM warning_letters w JOIN students s ON s.id = w.student_id
		LEFT JOIN violations v ON v.id = w.violation_id LEFT JOIN violation_types vt ON vt.id = v.violation_type_id
		WHERE w.id = ANY($1::bigint[]) AND $2::int > 0 AND $3::int > 0 ORDER BY w.id`
	// correctionSources: withdrawn letters whose (non-correction) message
	// was sent.
	correctionSources = strings.Replace(letterSources, "WHERE w.id = ANY($1::bigint[])", `WHERE w.id = ANY($1::bigint[]) AND w.status = 'withdrawn'
		    AND EXISTS (SELECT 1 FROM parent_messages pm WHERE pm.letter_id = w.id AND pm.event = 'warning_letter'
		        AND NOT pm.correction AND pm.status = 'sent')`, 1)
	summonsSources = `SELECT h.id AS source_id, ` + studentColumns + `, v.class_name, vt.name AS type_name, v.points,
		    ` + yearTotal("v.occurred_on") + ` AS total,
		    COALESCE((SELECT w.name FROM warning_letters w WHERE w.student_id = s.id AND w.status <> 'withdrawn'
		        ORDER BY w.academic_year_start DESC, w.level DESC LIMIT 1), '') AS level_name,
		    h.handled_on AS day, COALESCE(h.follow_up_on, h.handled_on) AS summons_day, 0 AS letter_level
		FROM handlings h JOIN handling_types ht ON ht.id = h.handling_type_id AND ht.summons_parent
		JOIN violations v ON v.id = coalesce(h.violation_id, (SELECT min(hv.violation_id) FROM handling_violations hv WHERE hv.handling_id = h.id))
		JOIN students s ON s.id = v.student_id
		JOIN violation_types vt ON vt.id = v.violation_type_id
		WHERE h.id = ANY($1::bigint[]) AND $2::int > 0 AND $3::int > 0 ORDER BY h.id`
	// achievementSources: one row per student of each achievement.
	achievementSources = `SELECT a.id AS source_id, ` + studentColumns + `, x.class_name, t.name AS type_name, a.points,
		    ` + yearTotal("a.achieved_on") + ` AS total,
		    CASE a.level WHEN 'kabupaten' THEN 'Kabupaten/Kota' ELSE initcap(a.level) END AS level_name,
		    a.achieved_on AS day, a.achieved_on AS summons_day, 0 AS letter_level
		FROM achievements a JOIN achievement_students x ON x.achievement_id = a.id JOIN students s ON s.id = x.student_id
		JOIN achievement_types t ON t.id = a.achievement_type_id
		WHERE a.id = ANY($1::bigint[]) AND $2::int > 0 AND $3::int > 0 ORDER BY a.id, s.id`
)

// ViolationsTx queues the message of each manual violation in
// violationIDs (the recording's transaction, which holds them), when the
// violation event is on and the violation reaches its minimum points.
func ViolationsTx(ctx context.Context, tx *sqlx.Tx, violationIDs []int64, actorID int64) error {
	return enqueue(ctx, tx, nil, api.ParentEventViolation, violationIDs, actorID)
}

// ViolationsWithTx is ViolationsTx with the settings already read (Parse).
func ViolationsWithTx(ctx context.Context, tx *sqlx.Tx, set Settings, violationIDs []int64, actorID int64) error {
	return enqueue(ctx, tx, &set, api.ParentEventViolation, violationIDs, actorID)
}

// LettersTx queues the message of each warning letter a counselor sent to
// the parent (or printed, when the school sends on print): once per letter
// and level, so a letter raised since is told again and a second send of
// the same level queues nothing. A rule drafting, raising, lowering or
// withdrawing a letter never calls it.
func LettersTx(ctx context.Context, tx *sqlx.Tx, letterIDs []int64, actorID int64) error {
	return enqueue(ctx, tx, nil, api.ParentEventWarningLetter, letterIDs, actorID)
}

// LetterCorrectionsTx queues one correction message (the event's
// correction template) for each withdrawn letter whose message already went
// out; a message still waiting is cancelled by the worker instead (the
// letter is withdrawn), so nothing needs correcting.
func LetterCorrectionsTx(ctx context.Context, tx *sqlx.Tx, letterIDs []int64, actorID int64) error {
	return enqueue(ctx, tx, nil, letterCorrection, letterIDs, actorID)
}

// LetterCorrectionsWithTx is LetterCorrectionsTx with the settings already
// read (Parse).
func LetterCorrectionsWithTx(ctx context.Context, tx *sqlx.Tx, set Settings, letterIDs []int64, actorID int64) error {
	return enqueue(ctx, tx, &set, letterCorrection, letterIDs, actorID)
}

// letterCorrection is enqueue's event of a letter's correction (stored as
// event warning_letter, correction true).
const letterCorrection = "warning_letter_correction"

// SummonsTx queues the summons message of a handling, when its type
// summons the parent.
func SummonsTx(ctx context.Context, tx *sqlx.Tx, handlingID int64, actorID int64) error {
	return enqueue(ctx, tx, nil, api.ParentEventSummons, []int64{handlingID}, actorID)
}

// AchievementTx queues the message of each student of an achievement a
// counselor has just verified (the verification's transaction), when the
// achievement event is on: once per achievement and student.
func AchievementTx(ctx context.Context, tx *sqlx.Tx, achievementID int64, actorID int64) error {
	return enqueue(ctx, tx, nil, api.ParentEventAchievement, []int64{achievementID}, actorID)
}

// enqueue queues event's messages of the source ids; set is the settings
// when the caller read them (nil: read here).
func enqueue(ctx context.Context, tx *sqlx.Tx, loaded *Settings, event string, ids []int64, actorID int64) error {
	if len(ids) == 0 {
		return nil
	}
	var set Settings
	if loaded != nil {
		set = *loaded
	} else {
		var err error
		if set, err = Load(ctx, tx); err != nil {
			return err
		}
	}
	var ev api.MessagingEvent
	var q string
	switch event {
	case api.ParentEventViolation:
		ev, q = set.Events.Violation, violationSources
	case api.ParentEventWarningLetter:
		ev, q = set.Events.WarningLetter, letterSources
	case letterCorrection:
		ev, q = set.Events.WarningLetter, correctionSources
		ev.Template = ev.CorrectionTemplate
	case api.ParentEventSummons:
		ev, q = set.Events.Summons, summonsSources
	case api.ParentEventAchievement:
		ev, q = set.Events.Achievement, achievementSources
	}
	if !set.Configured() || !ev.Enabled {
		return nil
	}
	profile, err := school.LoadProfile(ctx, tx)
	if err != nil {
		return fmt.Errorf("parentmsg: profile: %w", err)
	}
	month, day := yearStart(profile.AcademicYearStart)
	var srcs []source
	if err := tx.SelectContext(ctx, &srcs, q, pq.Array(ids), month, day); err != nil {
		return fmt.Errorf("parentmsg: read %s: %w", event, err)
	}
	nextAt := ""
	if until, quiet := QuietUntil(set.QuietHours, time.Now()); quiet {
		nextAt = until.UTC().Format(time.RFC3339Nano)
	}
	n := len(srcs)
	srcIDs, students, levels := make([]int64, 0, n), make([]int64, 0, n), make([]int64, 0, n)
	names, raws, phones, bodies, statuses, reasons := make([]string, 0, n), make([]string, 0, n), make([]string, 0, n),
		make([]string, 0, n), make([]string, 0, n), make([]string, 0, n)
	for _, s := range srcs {
		if event == api.ParentEventViolation && s.Points < ev.MinPoints {
			continue
		}
		body := Render(ev.Template, s.values(profile.Name, event))
		number, problem := phone.Normalize(s.ParentPhone)
		status, reason := api.ParentMessageQueued, ""
		switch problem {
		case phone.None:
		case phone.Missing:
			status, reason = api.ParentMessageSkipped, SkipNoPhone
		default:
			status, reason = api.ParentMessageSkipped, SkipInvalidPhone
		}
		srcIDs, students, levels = append(srcIDs, s.ID), append(students, s.StudentID), append(levels, int64(s.LetterLevel))
		names, raws, phones = append(names, s.ParentName), append(raws, s.ParentPhone), append(phones, number)
		bodies, statuses, reasons = append(bodies, truncate(body, MaxBody)), append(statuses, status), append(reasons, reason)
	}
	if len(srcIDs) == 0 {
		return nil
	}
	correction := event == letterCorrection
	if correction {
		event = api.ParentEventWarningLetter
	}
	// The source column is chosen by the event; ON CONFLICT DO NOTHING
	// meets the per-source unique indexes. The NOTIFY is delivered at
	// commit, and only when something is due to be sent.
	const ins = `WITH ins AS (
		INSERT INTO parent_messages (student_id, event, violation_id, letter_id, letter_level, handling_id, achievement_id, parent_name, phone_raw, phone,
		    body, status, skip_reason, next_attempt_at, created_by, correction)
		SELECT u.student_id, $1,
		    CASE WHEN $1 = 'violation' THEN u.source_id END, CASE WHEN $1 = 'warning_letter' THEN u.source_id END,
		    CASE WHEN $1 = 'warning_letter' THEN u.letter_level END, CASE WHEN $1 = 'summons' THEN u.source_id END,
		    CASE WHEN $1 = 'achievement' THEN u.source_id END,
		    u.parent_name, u.phone_raw, u.phone, u.body, u.status, u.skip_reason,
		    COALESCE(NULLIF($2, '')::timestamptz, now()), NULLIF($3::bigint, 0), $13
		FROM unnest($4::bigint[], $5::bigint[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::int[])
		    WITH ORDINALITY AS u(source_id, student_id, parent_name, phone_raw, phone, body, status, skip_reason, letter_level, ord)
		ORDER BY u.ord
		ON CONFLICT DO NOTHING
		RETURNING status)
		SELECT pg_notify('` + Channel + `', '') FROM (SELECT 1 FROM ins WHERE status = 'queued' LIMIT 1) q`
	if _, err := tx.ExecContext(ctx, ins, event, nextAt, actorID, pq.Array(srcIDs), pq.Array(students), pq.Array(names),
		pq.Array(raws), pq.Array(phones), pq.Array(bodies), pq.Array(statuses), pq.Array(reasons), pq.Array(levels), correction); err != nil {
		return fmt.Errorf("parentmsg: queue %s: %w", event, err)
	}
	return nil
}

// values are the placeholders' values of s for event: an achievement's
// type and level fill jenis_prestasi and tingkat, a violation's or a
// letter's jenis_pelanggaran and level_sp; the others are empty.
func (s source) values(schoolName, event string) map[string]string {
	v := map[string]string{
		"nama_siswa":        s.Name,
		"nis":               s.NIS,
		"nisn":              s.NISN,
		"kelas":             s.Class,
		"nama_orang_tua":    s.ParentName,
		"jenis_pelanggaran": s.TypeName,
		"poin":              strconv.Itoa(s.Points),
		"total_poin":        strconv.Itoa(s.Total),
		"level_sp":          s.Level,
		"tanggal":           LongDay(s.Day),
		"tanggal_panggilan": LongDay(s.SummonsDay),
		"nama_sekolah":      schoolName,
		"jenis_prestasi":    "",
		"tingkat":           "",
	}
	if event == api.ParentEventAchievement {
		v["jenis_prestasi"], v["tingkat"] = s.TypeName, s.Level
		v["jenis_pelanggaran"], v["level_sp"] = "", ""
	}
	return v
}

// yearStart reads the profile's "MM-DD" (default 1 July).
func yearStart(mmdd string) (int, int) {
	m, d, ok := strings.Cut(mmdd, "-")
	mm, err1 := strconv.Atoi(m)
	dd, err2 := strconv.Atoi(d)
	if !ok || err1 != nil || err2 != nil || mm < 1 || mm > 12 || dd < 1 || dd > 31 {
		return 7, 1
	}
	return mm, dd
}

// truncate cuts s to at most n characters.
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n])
}
