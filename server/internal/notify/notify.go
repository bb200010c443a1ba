// Package notify tells people about recorded violations: one notification
// per recipient written in the recording's own transaction, the REST list
// with its unread count, and live delivery over a WebSocket to every
// session of each recipient on whichever replica it is connected, fanned
// out through PostgreSQL LISTEN/NOTIFY. See docs/notifications.md.
package notify

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// Channel is the PostgreSQL channel new notifications and read marks are
// announced on. A payload "<min>-<max>" is a range of new notification
// ids; "r<user id>" says that user's unread count changed.
const Channel = "tatib_notifications"

// SessionsChannel is where ended sessions are announced (a trigger on
// sessions, migration 00061): users' ids comma separated, or "*".
const SessionsChannel = "tatib_sessions"

// viewerRoles are the roles the catalogue gives violations.view by
// default; the role matrix overrides them row by row.
func viewerRoles() []string {
	var out []string
	if p, ok := perm.Lookup(perm.ViolationsView); ok {
		for _, r := range p.DefaultRoles {
			out = append(out, string(r))
		}
	}
	return out
}

// recipientsSQL joins "users u" to the violation v (with its student s):
// the active users allowed to see it, as auth.Service.Can and the homeroom
// scope decide (admin always; a role with violations.view in the matrix,
// else by the catalogue default; a homeroom teacher only for their own
// class, that day's or the student's current one), plus the recorder. $1
// is the recorder's id (0: none), $2 the default viewer roles.
const recipientsSQL = `JOIN users u ON u.active AND (u.id = $1 OR (
		` + mayViewSQL + `
		AND (u.role <> '` + string(perm.WaliKelas) + `' OR EXISTS (SELECT 1 FROM classes hc WHERE hc.homeroom_teacher_id = u.id
			AND (hc.id = v.class_id OR hc.id = s.class_id)))))`

// mayViewSQL is true for a user u whose role may see violations (before
// the homeroom scope): admin always; a role with violations.view in the
// matrix, else by the catalogue default ($2).
const mayViewSQL = `(u.role = 'admin'
		 OR EXISTS (SELECT 1 FROM role_permissions rp WHERE rp.role = u.role AND rp.permission = '` + string(perm.ViolationsView) + `' AND rp.granted)
		 OR (u.role = ANY($2::text[]) AND NOT EXISTS (SELECT 1 FROM role_permissions rp
			WHERE rp.role = u.role AND rp.permission = '` + string(perm.ViolationsView) + `')))`

// seenSQL is recipientsSQL's rule for many violations at once, as a
// query named seen of (user_id, occurred_on, auto_kind, class_id,
// class_name): one row per violation ($3) and user who may see it. The
// users are checked once (not once per violation and user, which took a
// school day's push 0.3-0.9 s), then joined: everyone unscoped sees every
// violation, a homeroom teacher those of their class: that day's, or the
// student's current one when it is another (a teacher has one class, so
// one row).
const seenSQL = `vs AS MATERIALIZED (
		SELECT v.occurred_on, v.auto_kind, v.class_id, v.class_name, s.class_id AS student_class
		FROM violations v JOIN students s ON s.id = v.student_id
		WHERE v.id = ANY($3::bigint[])
	), viewers AS MATERIALIZED (
		SELECT u.id, u.id <> $1 AND u.role = '` + string(perm.WaliKelas) + `' AS scoped
		FROM users u WHERE u.active AND (u.id = $1 OR ` + mayViewSQL + `)
	), homeroom AS (
		SELECT u.id, hc.id AS class_id FROM viewers u JOIN classes hc ON hc.homeroom_teacher_id = u.id WHERE u.scoped
	), seen AS (
		SELECT u.id AS user_id, vs.occurred_on, vs.auto_kind, vs.class_id, vs.class_name
		FROM vs CROSS JOIN viewers u WHERE NOT u.scoped
		UNION ALL
		SELECT w.id, vs.occurred_on, vs.auto_kind, vs.class_id, vs.class_name
		FROM vs JOIN homeroom w ON w.class_id = vs.class_id
		UNION ALL
		SELECT w.id, vs.occurred_on, vs.auto_kind, vs.class_id, vs.class_name
		FROM vs JOIN homeroom w ON w.class_id = vs.student_class
		WHERE vs.student_class IS DISTINCT FROM vs.class_id
	)`

// announceSQL wraps an INSERT … RETURNING id named ins: the new ids'
// range goes out on Channel when the transaction commits.
const announceSQL = ` SELECT count(*) FROM (SELECT pg_notify('` + Channel + `', min(id) || '-' || max(id)) FROM ins HAVING count(*) > 0) n`

// ViolationsTx writes, in the recording's transaction, one notification
// per manually recorded violation per recipient (kind violation), in one
// statement whatever the number of violations and recipients.
func ViolationsTx(ctx context.Context, tx *sqlx.Tx, violationIDs []int64, recorderID int64) error {
	return violationsTx(ctx, tx, api.NotificationViolation, violationIDs, recorderID)
}

// CorrectedTx writes, in the correction's transaction, one notification
// per corrected violation (kind violation_corrected, "diperbaiki") to the
// same recipients a recording tells: whoever may see it, and the one who
// corrected it.
func CorrectedTx(ctx context.Context, tx *sqlx.Tx, violationIDs []int64, correctorID int64) error {
	return violationsTx(ctx, tx, api.NotificationViolationCorrected, violationIDs, correctorID)
}

func violationsTx(ctx context.Context, tx *sqlx.Tx, kind string, violationIDs []int64, recorderID int64) error {
	if len(violationIDs) == 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `SELECT notify_violations($1, $2, $3, $4)`,
		recorderID, pq.Array(viewerRoles()), pq.Array(violationIDs), kind); err != nil {
		return fmt.Errorf("notify: %s: %w", kind, err)
	}
	return nil
}

// ViolationsAfterCallTx is ViolationsTx sent in one statement after a
// writer's own, a round trip less: a PL/pgSQL function (its plans kept per
// connection) that runs the writer's statements with args and then
// notify_violations with the four parameters after them (the ledger's
// point_audit_notify, migration 00197: the recording's point audit and
// audit entry).
func ViolationsAfterCallTx(ctx context.Context, tx *sqlx.Tx, function string, args []any, violationIDs []int64, recorderID int64) error {
	if len(violationIDs) == 0 {
		return fmt.Errorf("notify: %s: no violations after %s", api.NotificationViolation, function)
	}
	args = append(slices.Clone(args), recorderID, pq.Array(viewerRoles()), pq.Array(violationIDs), api.NotificationViolation)
	var sb strings.Builder
	sb.WriteString("SELECT " + function + "(")
	for i := range args {
		if i > 0 {
			sb.WriteString(", ")
		}
		fmt.Fprintf(&sb, "$%d", i+1)
	}
	sb.WriteString(")")
	if _, err := tx.ExecContext(ctx, sb.String(), args...); err != nil {
		return fmt.Errorf("notify: %s: %w", api.NotificationViolation, err)
	}
	return nil
}

// violationsSQL writes the notifications of violations $3 of kind $4 to
// their recipients (recipientsSQL) and announces them. It runs as the
// body of the function notify_violations (migration 00191, replaced by
// 00197), whose plan PostgreSQL keeps per connection: sent as a query with
// its parameters it was planned on every recording, which cost more than
// running it. Its generic plan expects ten violations: each one's student
// is found by its key (OFFSET 0 keeps the subquery from being joined as a
// table), else the plan hashed every student. A change here is a new
// migration replacing the function (a test compares them).
const violationsSQL = `WITH ins AS (
		INSERT INTO notifications (user_id, kind, params, url, violation_id)
		SELECT u.id, $4,
			jsonb_build_object('student', s.full_name, 'class', v.class_name, 'type', t.name, 'points', v.points,
				'date', v.occurred_on::text, 'student_id', s.id),
			'/violations/' || v.id, v.id
		FROM violations v
		JOIN LATERAL (SELECT s.id, s.full_name, s.class_id FROM students s WHERE s.id = v.student_id OFFSET 0) s ON true
		JOIN violation_types t ON t.id = v.violation_type_id
		` + recipientsSQL + `
		WHERE v.id = ANY($3::bigint[])
		ORDER BY v.id, u.id
		RETURNING id)` + announceSQL

// Attendance sources (the grouped notification's params.source).
const (
	SourceJournal = "journal"
	SourceForm    = "form"
	SourceFace    = "face" // a gate kiosk's Face-ID scan
)

// AttendanceTx keeps, in the attendance save's transaction, one grouped
// notification per recipient and school day for the automatic violations
// (kind attendance): the alpha and late counts of what that recipient may
// see, and the class when they are all of one class. A journal that pushes
// entry by entry still gives each recipient one notification a day: a
// push that adds to a day replaces that day's notification with one that
// counts both (a new id, unread again, announced like a new one). One
// statement whatever the size of the push. source is journal, form or face.
func AttendanceTx(ctx context.Context, tx *sqlx.Tx, violationIDs []int64, source string, recorderID int64) error {
	if len(violationIDs) == 0 {
		return nil
	}
	if !slices.Contains([]string{SourceJournal, SourceForm, SourceFace}, source) {
		return fmt.Errorf("notify: attendance: unknown source %q", source)
	}
	// Two pushes adding to the same day at once would each find no
	// notification to merge with; they take turns for this statement only.
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtext('tatib.notify.attendance'))`); err != nil {
		return fmt.Errorf("notify: attendance: lock: %w", err)
	}
	const q = `WITH ` + seenSQL + `, agg AS (
		SELECT user_id, occurred_on::text AS day, count(*) AS n,
			count(*) FILTER (WHERE auto_kind = 'alpha') AS alpha,
			count(*) FILTER (WHERE auto_kind = 'late') AS late,
			CASE WHEN count(DISTINCT coalesce(class_id, 0)) = 1 AND min(class_name) <> '' THEN min(class_name) END AS class
		FROM seen GROUP BY user_id, occurred_on
	), old AS (
		DELETE FROM notifications n USING agg
		WHERE n.kind = '` + api.NotificationAttendance + `' AND n.user_id = agg.user_id AND n.params->>'date' = agg.day
		RETURNING n.user_id, n.params
	), prev AS (
		SELECT user_id, params->>'date' AS day, sum((params->>'count')::int) AS n,
			sum(coalesce((params->>'alpha')::int, 0)) AS alpha, sum(coalesce((params->>'late')::int, 0)) AS late,
			count(*) FILTER (WHERE params ? 'class') AS with_class, count(*) AS rows,
			min(params->>'class') AS class, max(params->>'class') AS class_max
		FROM old GROUP BY user_id, params->>'date'
	), ins AS (
		INSERT INTO notifications (user_id, kind, params, url)
		SELECT a.user_id, '` + api.NotificationAttendance + `',
			jsonb_build_object('date', a.day, 'source', $4::text, 'count', a.n + coalesce(p.n, 0),
				'alpha', a.alpha + coalesce(p.alpha, 0), 'late', a.late + coalesce(p.late, 0))
			|| CASE WHEN a.class IS NOT NULL AND (p.user_id IS NULL
					OR (p.with_class = p.rows AND p.class = a.class AND p.class_max = a.class))
				THEN jsonb_build_object('class', a.class) ELSE '{}' END,
			'/violations?from=' || a.day || '&to=' || a.day || '&source=` + api.SourceAttendance + `'
		FROM agg a
		LEFT JOIN prev p ON p.user_id = a.user_id AND p.day = a.day
		ORDER BY a.day, a.user_id
		RETURNING id)` + announceSQL
	if _, err := tx.ExecContext(ctx, q, recorderID, pq.Array(viewerRoles()), pq.Array(violationIDs), source); err != nil {
		return fmt.Errorf("notify: attendance: %w", err)
	}
	return nil
}

// LetterChanges are the letters an attendance save or push changed, by id.
type LetterChanges struct {
	Issued, Raised, Lowered, Withdrawn []int64
}

// LettersTx writes, in the attendance save's or push's transaction, one
// notification per warning letter it issued, raised, lowered or withdrew
// (kind letter) to each active counselor (role bk) and to the homeroom
// teacher of the student's class (now, or when the letter was issued): the
// people who follow that student. One statement whatever the number of
// letters. source is journal, form or face.
func LettersTx(ctx context.Context, tx *sqlx.Tx, ch LetterChanges, source string) error {
	n := len(ch.Issued) + len(ch.Raised) + len(ch.Lowered) + len(ch.Withdrawn)
	if n == 0 {
		return nil
	}
	if !slices.Contains([]string{SourceJournal, SourceForm, SourceFace}, source) {
		return fmt.Errorf("notify: letters: unknown source %q", source)
	}
	ids := make([]int64, 0, n)
	changes := make([]string, 0, n)
	for _, c := range []struct {
		ids    []int64
		change string
	}{{ch.Issued, api.LetterChangeIssued}, {ch.Raised, api.LetterChangeRaised}, {ch.Lowered, api.LetterChangeLowered},
		{ch.Withdrawn, api.LetterChangeWithdrawn}} {
		for _, id := range c.ids {
			ids, changes = append(ids, id), append(changes, c.change)
		}
	}
	const q = `WITH ins AS (
		INSERT INTO notifications (user_id, kind, params, url)
		SELECT u.id, '` + api.NotificationLetter + `',
			jsonb_build_object('student', s.full_name, 'student_id', s.id, 'class', COALESCE(c.name, wl.class_name),
				'letter', wl.name, 'level', wl.level, 'letter_id', wl.id, 'change', l.change, 'source', $3::text),
			'/surat-peringatan/' || wl.id
		FROM unnest($1::bigint[], $2::text[]) AS l(id, change)
		JOIN warning_letters wl ON wl.id = l.id
		JOIN students s ON s.id = wl.student_id
		LEFT JOIN classes c ON c.id = s.class_id
		LEFT JOIN classes wc ON wc.id = wl.class_id
		JOIN users u ON u.active AND (u.role = '` + string(perm.BK) + `'
			OR (u.role = '` + string(perm.WaliKelas) + `' AND u.id IN (c.homeroom_teacher_id, wc.homeroom_teacher_id)))
		ORDER BY wl.id, u.id
		RETURNING id)` + announceSQL
	if _, err := tx.ExecContext(ctx, q, pq.Array(ids), pq.Array(changes), source); err != nil {
		return fmt.Errorf("notify: letters: %w", err)
	}
	return nil
}

// CaseReportTx writes, in the anonymous report's transaction, one
// notification (kind case_report) to each active member of case caseID's
// team and each active administrator: the people who may triage it
// (docs/cases.md). It names the case number and the category only —
// never the reporter, nor anything of what was reported.
func CaseReportTx(ctx context.Context, tx *sqlx.Tx, caseID int64) error {
	const q = `WITH ins AS (
		INSERT INTO notifications (user_id, kind, params, url)
		SELECT u.id, '` + api.NotificationCaseReport + `',
			jsonb_build_object('case_id', c.id::text, 'category', cc.name),
			'/kasus/' || c.id
		FROM cases c
		JOIN case_categories cc ON cc.id = c.category_id
		JOIN users u ON u.active AND (u.role = '` + string(perm.Admin) + `'
			OR EXISTS (SELECT 1 FROM case_team t WHERE t.case_id = c.id AND t.user_id = u.id))
		WHERE c.id = $1
		ORDER BY u.id
		RETURNING id)` + announceSQL
	if _, err := tx.ExecContext(ctx, q, caseID); err != nil {
		return fmt.Errorf("notify: case report: %w", err)
	}
	return nil
}
