package attendance

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/locale"
	"github.com/tatib/tatib/server/internal/parentmsg"
	"github.com/tatib/tatib/server/internal/points"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/server/internal/timing"
	"github.com/tatib/tatib/server/internal/violationtype"
	"github.com/tatib/tatib/shared/api"
)

// key is one stored cell's identity.
type key struct {
	student int64
	date    string
	hour    int
}

// pair is one student's day.
type pair struct {
	student int64
	date    string
}

// KeptSample is how many kept entries Applied.Kept names (the push log's
// sample); KeptByPerson counts them all.
const KeptSample = 20

// Applied is what ApplyDetailedTx did: the counts, the letters it issued
// and withdrew, and a sample of the entries it kept for a person.
type Applied struct {
	api.AttendanceResult
	Letters points.Letters
	// Kept: the first KeptSample entries (in key order) not stored because
	// a person set the cell with another status.
	Kept []KeptCell
}

// KeptCell is an entry of a machine not stored because a person set the
// cell: what the machine sent and what stands.
type KeptCell struct {
	StudentID     int64     `json:"student_id"`
	StudentName   string    `json:"student_name"`
	Date          string    `json:"date"`
	LessonHour    int       `json:"lesson_hour"`
	JournalStatus string    `json:"journal_status"`
	Status        string    `json:"status"`
	SetByName     string    `json:"set_by_name"`
	SetAt         time.Time `json:"set_at"`
}

// ApplyTx is ApplyDetailedTx's counts.
func ApplyTx(ctx context.Context, tx *sqlx.Tx, entries []Entry, o Origin) (api.AttendanceResult, error) {
	a, err := ApplyDetailedTx(ctx, tx, entries, o)
	return a.AttendanceResult, err
}

// ApplyDetailedTx stores entries through tx (the caller commits),
// set-based (a fixed number of statements, never one per entry): it takes
// the touched students' row locks in id order (points.Lock, the lock every
// change to a student's points holds), dedups keys (the last entry of a key
// wins), upserts rows (an unchanged status and notes is not rewritten:
// counted unchanged; a machine's entry for a cell a person set with another
// status is not stored: counted kept_by_person, and the journal's is
// remembered as a conflict for the form), recomputes attendance_days for
// the touched (student, date) pairs, recomputes the automatic alpha and
// late violations of those pairs and hands their points to the ledger
// (points.Apply: the point audit, the letters settled, the parents'
// messages, the notifications of the violations and of every letter
// issued, raised, lowered or withdrawn), and writes the audit log (one
// entry for the batch, one per automatic violation removed and per letter
// withdrawn, naming the batch). Entries with status "belum" are counted
// Skipped and ignored.
//
// The journal's notes replace the stored ones (an empty note clears it);
// the form sends none, so a form save keeps the notes the journal sent.
func ApplyDetailedTx(ctx context.Context, tx *sqlx.Tx, entries []Entry, o Origin) (Applied, error) {
	var out Applied
	res := &out.AttendanceResult
	cells, err := dedup(entries, res)
	if err != nil || len(cells) == 0 {
		return out, err
	}
	n := len(cells)
	sids, dates, hours := make([]int64, n), make([]string, n), make([]int64, n)
	statuses, notes := make([]string, n), make([]string, n)
	var students []int64
	for i, c := range cells {
		sids[i], dates[i], hours[i], statuses[i], notes[i] = c.StudentID, c.Date, int64(c.LessonHour), c.Status, c.Notes
		if i == 0 || c.StudentID != cells[i-1].StudentID {
			students = append(students, c.StudentID)
		}
	}

	// The lock every change to a student's points takes (the ledger's), in
	// id order so overlapping batches queue instead of deadlocking. Every
	// writer of a student's cells and journal conflicts holds it.
	ledger, err := points.LockIDs(ctx, tx, students)
	if err != nil {
		return out, err
	}
	if ledger.Locked() != len(students) {
		return out, apperr.New(apperr.Invalid, "attendance.invalid").WithField("entries", "attendance.student.not_found")
	}
	timing.Mark(ctx, "lock")

	// The statements below are a fixed handful whatever the batch size;
	// the planner's estimates for their CTEs (it cannot know how few cells
	// are a person's) reach the cost at which PostgreSQL compiles a query
	// with JIT, which costs a push a second or more and gains nothing
	// here. Off for the rest of this transaction only.
	if _, err := tx.ExecContext(ctx, `SELECT set_config('jit', 'off', true)`); err != nil {
		return out, fmt.Errorf("attendance: jit: %w", err)
	}

	var updatedBy *int64
	if !o.Journal && o.UserID != 0 {
		updatedBy = &o.UserID
	}
	// One statement: the batch's days as stored (read once, by primary
	// key); the upsert; for a machine, the entries it kept for a person
	// (from the stored days) and the journal's conflicts; the conflicts a
	// person's save or a push agreeing with the cell settles; and the day
	// counts of the pairs whose rows changed, from the rows written and
	// the pair's other stored rows (the CTEs read the table as it was
	// before the statement: a row not written is as it was). Rows are only
	// ever added or changed, so a changed pair always keeps a day row.
	var changedStudents, aHours, tHours pq.Int64Array
	var changedDates pq.StringArray
	var keptSample []byte
	if err := tx.QueryRowxContext(ctx, upsertSQL, pq.Array(sids), pq.Array(dates), pq.Array(hours), pq.Array(statuses),
		pq.Array(notes), o.setBy(), updatedBy, KeptSample).Scan(&res.Created, &res.Updated, &res.KeptByPerson, &keptSample,
		&changedStudents, &changedDates, &aHours, &tHours); err != nil {
		return out, fmt.Errorf("attendance: upsert: %w", err)
	}
	timing.Mark(ctx, "upsert")
	res.Unchanged = n - res.Created - res.Updated - res.KeptByPerson
	if res.KeptByPerson > 0 {
		if err := json.Unmarshal(keptSample, &out.Kept); err != nil {
			return out, fmt.Errorf("attendance: kept cells: %w", err)
		}
	}

	var auto autoResult
	if len(changedStudents) > 0 {
		days := make([]dayHours, len(changedStudents))
		for i := range days {
			days[i] = dayHours{StudentID: changedStudents[i], Date: changedDates[i], A: int(aHours[i]), T: int(tHours[i])}
		}
		var err error
		if auto, err = recomputeAuto(ctx, tx, ledger, days, o); err != nil {
			return out, err
		}
		res.ViolationsCreated, res.ViolationsUpdated = len(auto.created), len(auto.updated)
		res.ViolationsRemoved, res.ViolationsKept = len(auto.removed), len(auto.kept)
		res.LettersIssued, res.LettersWithdrawn = len(auto.letters.Issued), len(auto.letters.Withdrawn)
		res.LettersRaised, res.LettersLowered = len(auto.letters.Raised), len(auto.letters.Lowered)
		out.Letters = auto.letters
	}

	action := o.action()
	first, last := dates[0], dates[0]
	for _, d := range dates {
		first, last = min(first, d), max(last, d)
	}
	details := map[string]any{
		"entries": len(entries), "stored": n, "students": len(students), "from": first, "to": last,
		"created": res.Created, "updated": res.Updated, "unchanged": res.Unchanged, "skipped": res.Skipped, "kept_by_person": res.KeptByPerson,
		"violations_created": auto.created, "violations_updated": auto.updated, "violations_removed": auto.removed,
		"violations_kept": auto.kept, "letters_issued": auto.letters.Issued, "letters_withdrawn": auto.letters.Withdrawn,
		"letters_raised": auto.letters.Raised, "letters_lowered": auto.letters.Lowered,
	}
	if o.PushID != 0 {
		details["push_id"] = o.PushID
	}
	if err := audit.Record(ctx, tx, o.Actor, action, "attendance", first, details); err != nil {
		return out, err
	}
	if err := auditRemovals(ctx, tx, o, action, auto); err != nil {
		return out, err
	}
	timing.Mark(ctx, "audit")
	return out, nil
}

// auditRemovals writes one audit entry per automatic violation the batch
// deleted and per letter it withdrew, each naming the batch (its action,
// its audit entry, the push), so a record that existed because of
// attendance is never gone without a trace found by its own id.
func auditRemovals(ctx context.Context, tx *sqlx.Tx, o Origin, action string, auto autoResult) error {
	if len(auto.removedPlan) == 0 && len(auto.letters.Withdrawn) == 0 {
		return nil
	}
	batch, err := audit.LastID(ctx, tx)
	if err != nil {
		return err
	}
	by := func(m map[string]any) map[string]any {
		m["by"], m["batch_audit_id"] = action, batch
		if o.PushID != 0 {
			m["push_id"] = o.PushID
		}
		if o.UserID != 0 {
			m["user_id"] = o.UserID
		}
		return m
	}
	ids, details := make([]string, 0, len(auto.removedPlan)), make([]any, 0, len(auto.removedPlan))
	for _, c := range auto.removedPlan {
		ids = append(ids, strconv.FormatInt(c.id, 10))
		details = append(details, by(map[string]any{"student_id": c.student, "date": c.date, "kind": c.kind, "points": -c.delta}))
	}
	if err := audit.RecordEach(ctx, tx, o.Actor, "violation.auto_delete", "violation", ids, details); err != nil {
		return err
	}
	ids, details = ids[:0], details[:0]
	for _, id := range auto.letters.Withdrawn {
		ids = append(ids, strconv.FormatInt(id, 10))
		details = append(details, by(map[string]any{"reason": points.WithdrawReason}))
	}
	return audit.RecordEach(ctx, tx, o.Actor, "warning_letter.withdraw", "warning_letter", ids, details)
}

// upsertSQL is ApplyDetailedTx's one statement (see the comment there).
const upsertSQL = `WITH u AS MATERIALIZED (
	SELECT * FROM unnest($1::bigint[], $2::date[], $3::smallint[], $4::text[], $5::text[]) AS u(student_id, date, lesson_hour, status, notes)),
-- The batch's days as stored before the statement: one primary-key range
-- probe per (student, date) (OFFSET 0 keeps the planner from turning it
-- into a scan of the whole table). What was kept for a person and the
-- day counts are read from here, never from the table again.
old AS MATERIALIZED (
	SELECT p.student_id, p.date, a.lesson_hour, a.status, a.notes, a.set_by, a.updated_by, a.updated_at
	FROM (SELECT DISTINCT student_id, date FROM u) p
	CROSS JOIN LATERAL (SELECT a.lesson_hour, a.status, a.notes, a.set_by, a.updated_by, a.updated_at FROM attendance a
	    WHERE a.student_id = p.student_id AND a.date = p.date OFFSET 0) a),
-- The batch's cells that were stored, as they were; same: the upsert's
-- condition below would not write it.
uo AS MATERIALIZED (
	SELECT u.student_id, u.date, u.lesson_hour, u.status AS sent, o.status, o.set_by, o.updated_by, o.updated_at,
	    NOT ((o.status <> u.status OR ($6 = 'journal' AND o.notes IS DISTINCT FROM NULLIF(u.notes, '')))
	        AND NOT ($6 IN ('journal', 'kiosk') AND o.set_by IN ('user', 'excuse'))) AS same
	FROM u JOIN old o ON o.student_id = u.student_id AND o.date = u.date AND o.lesson_hour = u.lesson_hour),
-- Only what changes goes to the insert (ON CONFLICT DO UPDATE locks every
-- row it meets, written or not: a replayed day locked 15,000); its own
-- condition stays the rule.
up AS (
	INSERT INTO attendance AS a (student_id, date, lesson_hour, status, from_journal, set_by, updated_by, notes)
	SELECT u.student_id, u.date, u.lesson_hour, u.status, $6 = 'journal', $6, $7, NULLIF(u.notes, '') FROM u
	WHERE NOT EXISTS (SELECT 1 FROM uo WHERE uo.same AND uo.student_id = u.student_id AND uo.date = u.date AND uo.lesson_hour = u.lesson_hour)
	ON CONFLICT (student_id, date, lesson_hour) DO UPDATE
	SET status = EXCLUDED.status, notes = CASE WHEN $6 = 'journal' THEN EXCLUDED.notes ELSE a.notes END,
	    from_journal = EXCLUDED.from_journal, set_by = EXCLUDED.set_by, updated_by = EXCLUDED.updated_by, updated_at = now()
	WHERE (a.status <> EXCLUDED.status OR ($6 = 'journal' AND a.notes IS DISTINCT FROM EXCLUDED.notes))
	    AND NOT ($6 IN ('journal', 'kiosk') AND a.set_by IN ('user', 'excuse'))
	RETURNING a.student_id, a.date, a.lesson_hour, a.status, (a.xmax = 0) AS inserted),
-- A machine's entries the upsert did not write because a person set the
-- cell with another status.
kept AS MATERIALIZED (
	SELECT student_id, date, lesson_hour, sent AS journal_status, status, updated_by, updated_at FROM uo
	WHERE $6 IN ('journal', 'kiosk') AND set_by IN ('user', 'excuse') AND status <> sent),
conflicts AS (
	INSERT INTO attendance_journal_conflicts AS c (student_id, date, lesson_hour, journal_status)
	SELECT student_id, date, lesson_hour, journal_status FROM kept WHERE $6 = 'journal'
	ORDER BY student_id, date, lesson_hour
	ON CONFLICT (student_id, date, lesson_hour) DO UPDATE SET journal_status = EXCLUDED.journal_status, pushed_at = now()
	WHERE c.journal_status <> EXCLUDED.journal_status),
-- (a conflict's cell is always stored: its foreign key)
settled AS (
	DELETE FROM attendance_journal_conflicts c USING uo
	WHERE $6 IN ('journal', 'user', 'excuse')
	    AND c.student_id = uo.student_id AND c.date = uo.date AND c.lesson_hour = uo.lesson_hour
	    AND NOT EXISTS (SELECT 1 FROM kept k WHERE k.student_id = c.student_id AND k.date = c.date AND k.lesson_hour = c.lesson_hour)),
p AS MATERIALIZED (SELECT DISTINCT student_id, date FROM up),
cur AS (
	SELECT student_id, date, status FROM up
	UNION ALL
	SELECT o.student_id, o.date, o.status FROM old o JOIN p ON p.student_id = o.student_id AND p.date = o.date
	WHERE NOT EXISTS (SELECT 1 FROM up WHERE up.student_id = o.student_id AND up.date = o.date AND up.lesson_hour = o.lesson_hour)),
agg AS MATERIALIZED (
	SELECT student_id, date,
	    count(*) FILTER (WHERE status = 'H')::smallint AS h, count(*) FILTER (WHERE status = 'S')::smallint AS s,
	    count(*) FILTER (WHERE status = 'I')::smallint AS i, count(*) FILTER (WHERE status = 'A')::smallint AS a,
	    count(*) FILTER (WHERE status = 'T')::smallint AS t
	FROM cur GROUP BY student_id, date),
days AS (
	INSERT INTO attendance_days AS d (student_id, date, h, s, i, a, t)
	SELECT student_id, date, h, s, i, a, t FROM agg ORDER BY student_id, date
	ON CONFLICT (student_id, date) DO UPDATE SET h = EXCLUDED.h, s = EXCLUDED.s, i = EXCLUDED.i, a = EXCLUDED.a, t = EXCLUDED.t
	WHERE (d.h, d.s, d.i, d.a, d.t) IS DISTINCT FROM (EXCLUDED.h, EXCLUDED.s, EXCLUDED.i, EXCLUDED.a, EXCLUDED.t))
SELECT (SELECT count(*) FROM up WHERE inserted) AS created, (SELECT count(*) FROM up WHERE NOT inserted) AS updated,
    (SELECT count(*) FROM kept) AS kept,
    (SELECT COALESCE(json_agg(x ORDER BY x.student_id, x.date, x.lesson_hour), '[]') FROM (
        SELECT k.student_id, s.full_name AS student_name, to_char(k.date, 'YYYY-MM-DD') AS date, k.lesson_hour, k.journal_status,
            k.status, COALESCE(us.name, '') AS set_by_name, k.updated_at AS set_at
        FROM kept k JOIN students s ON s.id = k.student_id LEFT JOIN users us ON us.id = k.updated_by
        ORDER BY k.student_id, k.date, k.lesson_hour LIMIT $8) x) AS kept_sample,
    (SELECT COALESCE(array_agg(student_id ORDER BY student_id, date), '{}') FROM agg) AS students,
    (SELECT COALESCE(array_agg(to_char(date, 'YYYY-MM-DD') ORDER BY student_id, date), '{}') FROM agg) AS dates,
    (SELECT COALESCE(array_agg(a ORDER BY student_id, date), '{}') FROM agg) AS a,
    (SELECT COALESCE(array_agg(t ORDER BY student_id, date), '{}') FROM agg) AS t`

// dedup normalises the statuses, counts and drops belum, keeps the last
// entry of each key and sorts by student, date and hour (the order rows
// are written in, so concurrent batches meet rows in the same order).
func dedup(entries []Entry, res *api.AttendanceResult) ([]Entry, error) {
	at := make(map[key]int, len(entries))
	out := make([]Entry, 0, len(entries))
	f := apperr.Fields{}
	for i, e := range entries {
		code, ok := ParseStatus(e.Status)
		switch {
		case !ok:
			f.Add("entries["+strconv.Itoa(i)+"].status", "attendance.status.unknown")
			continue
		case code == api.AttendanceNone:
			res.Skipped++
			continue
		}
		e.Status = code
		k := key{e.StudentID, e.Date, e.LessonHour}
		if j, seen := at[k]; seen {
			out[j] = e
			continue
		}
		at[k] = len(out)
		out = append(out, e)
	}
	if len(f) > 0 {
		return nil, invalid(f)
	}
	slices.SortFunc(out, func(a, b Entry) int {
		return cmp.Or(cmp.Compare(a.StudentID, b.StudentID), cmp.Compare(a.Date, b.Date), cmp.Compare(a.LessonHour, b.LessonHour))
	})
	return out, nil
}

// invalid is the answer to entries with field errors.
func invalid(f apperr.Fields) error {
	return &apperr.Error{Code: apperr.Invalid, Msg: apperr.M("attendance.invalid"), Fields: f}
}

// dayHours is a student's A and T hours on a day after the change.
type dayHours struct {
	StudentID int64
	Date      string
	A, T      int
}

// autoResult lists the automatic violations a batch changed.
type autoResult struct {
	created, updated, removed, kept []int64
	// removedPlan: the deleted ones, for their audit entries.
	removedPlan []change
	letters     points.Letters
}

// autoType is a system type automatic violations are recorded under.
type autoType struct {
	ID       int64  `db:"id"`
	Slug     string `db:"slug"`
	Points   int    `db:"points"`
	Sanction string `db:"default_sanction"`
}

// existingAuto is an automatic violation of a changed pair.
type existingAuto struct {
	ID        int64  `db:"id"`
	StudentID int64  `db:"student_id"`
	Date      string `db:"date"`
	Kind      string `db:"auto_kind"`
	Points    int    `db:"points"`
	Hours     int    `db:"hours"`
	Unbacked  bool   `db:"auto_unbacked"`
	Handled   bool   `db:"handled"`
}

// autoKey is one automatic violation's identity.
type autoKey struct {
	pair
	kind string
}

// actionKeep is the planned action of an automatic violation whose day
// lost its hours but that has a handling record: it stays, flagged as no
// longer backed by attendance (the other actions are the point audit's).
const actionKeep = "keep"

// change is one planned change of an automatic violation.
type change struct {
	autoKey
	id      int64 // existing violation (0: new)
	action  string
	delta   int
	points  int
	hours   int
	startOn schoolday.Date
}

// AlphaPoints is the points of an alpha day: max(1, round(typePoints / 10
// × hours)), rounded half away from zero.
func AlphaPoints(typePoints, hours int) int {
	return max(1, int(math.Round(float64(typePoints*hours)/10)))
}

// planAuto is the rule of automatic violations, pure: for each changed day
// (its A and T hours after the change) and kind, what the stored automatic
// violation of that day and kind (have) becomes. None and hours: recorded;
// hours changed (or it was flagged unbacked): updated; no hours left: deleted,
// or kept when it has a handling record (flagged). kinds are the system
// types by kind; yearOf gives a day's academic year. The plan is sorted by
// student, date and kind, the order rows are written in.
func planAuto(days []dayHours, have map[autoKey]existingAuto, kinds map[string]autoType, yearOf func(date string) (schoolday.Date, error)) ([]change, error) {
	var plan []change
	for _, d := range days {
		for _, kind := range []string{api.AutoAlpha, api.AutoLate} {
			k := autoKey{pair{d.StudentID, d.Date}, kind}
			hours := d.A
			if kind == api.AutoLate {
				hours = d.T
			}
			ex, exists := have[k]
			if hours == 0 && (!exists || ex.Unbacked) {
				continue
			}
			start, err := yearOf(d.Date)
			if err != nil {
				return nil, err
			}
			if hours == 0 {
				if ex.Handled {
					plan = append(plan, change{autoKey: k, id: ex.ID, action: actionKeep, points: ex.Points, hours: ex.Hours, startOn: start})
				} else {
					plan = append(plan, change{autoKey: k, id: ex.ID, action: points.ActionAutoDelete, delta: -ex.Points, startOn: start})
				}
				continue
			}
			t, ok := kinds[kind]
			if !ok {
				return nil, fmt.Errorf("attendance: the system violation type of %s is missing", kind)
			}
			pts := t.Points
			if kind == api.AutoAlpha {
				pts = AlphaPoints(t.Points, hours)
			}
			switch {
			case !exists:
				plan = append(plan, change{autoKey: k, action: points.ActionAutoRecord, delta: pts, points: pts, hours: hours, startOn: start})
			case ex.Points != pts || ex.Hours != hours || ex.Unbacked:
				plan = append(plan, change{autoKey: k, id: ex.ID, action: points.ActionAutoUpdate, delta: pts - ex.Points, points: pts,
					hours: hours, startOn: start})
			}
		}
	}
	slices.SortFunc(plan, func(a, b change) int {
		return cmp.Or(cmp.Compare(a.student, b.student), cmp.Compare(a.date, b.date), cmp.Compare(a.kind, b.kind))
	})
	return plan, nil
}

// recomputeAuto brings the automatic violations of the changed days in
// line with their A and T hours (planAuto, then its statements: the
// deletions, the flags, the new and changed rows), and hands the points to
// the ledger, which holds the students' locks.
func recomputeAuto(ctx context.Context, tx *sqlx.Tx, ledger *points.Ledger, days []dayHours, o Origin) (autoResult, error) {
	var out autoResult
	ps, ds := make([]int64, len(days)), make([]string, len(days))
	needTypes := false
	for i, d := range days {
		ps[i], ds[i] = d.StudentID, d.Date
		needTypes = needTypes || d.A > 0 || d.T > 0
	}
	const existingQ = `SELECT v.id, v.student_id, to_char(v.occurred_on, 'YYYY-MM-DD') AS date, v.auto_kind, v.points,
	        COALESCE(v.auto_hours, 0) AS hours, v.auto_unbacked,
	        (v.handling_status <> 'unhandled' OR EXISTS (SELECT 1 FROM handlings h WHERE h.violation_id = v.id)) AS handled
	    FROM unnest($1::bigint[], $2::date[]) AS p(student_id, date)
	    -- one probe of the automatic violations' unique index per day
	    -- (OFFSET 0: never a scan of every automatic violation, which a
	    -- school's year holds by the hundred thousand)
	    CROSS JOIN LATERAL (SELECT v.* FROM violations v
	        WHERE v.student_id = p.student_id AND v.occurred_on = p.date AND v.auto_kind IS NOT NULL OFFSET 0) v`
	var existing []existingAuto
	if err := tx.SelectContext(ctx, &existing, existingQ, pq.Array(ps), pq.Array(ds)); err != nil {
		return out, fmt.Errorf("attendance: automatic violations: %w", err)
	}
	if !needTypes && len(existing) == 0 {
		return out, nil
	}
	have := make(map[autoKey]existingAuto, len(existing))
	for _, e := range existing {
		have[autoKey{pair{e.StudentID, e.Date}, e.Kind}] = e
	}
	var types []autoType
	if err := tx.SelectContext(ctx, &types, `SELECT id, slug, points, default_sanction FROM violation_types
		WHERE slug = ANY($1) AND is_system`, pq.Array(violationtype.SystemSlugs)); err != nil {
		return out, fmt.Errorf("attendance: types: %w", err)
	}
	kinds := map[string]autoType{}
	for _, t := range types {
		switch t.Slug {
		case violationtype.SlugAlpha:
			kinds[api.AutoAlpha] = t
		case violationtype.SlugTerlambat:
			kinds[api.AutoLate] = t
		}
	}
	profile, err := school.LoadProfile(ctx, tx)
	if err != nil {
		return out, fmt.Errorf("attendance: profile: %w", err)
	}
	plan, err := planAuto(days, have, kinds, func(date string) (schoolday.Date, error) {
		d, err := schoolday.ParseDate(date)
		if err != nil {
			return schoolday.Date{}, fmt.Errorf("attendance: date %q: %w", date, err)
		}
		return profile.YearStartOf(d), nil
	})
	if err != nil || len(plan) == 0 {
		return out, err
	}
	if err := writeAuto(ctx, tx, plan, kinds, o); err != nil {
		return out, err
	}
	timing.Mark(ctx, "auto")

	// The ledger: the point audit with totals running through the batch,
	// the letters, the parents' messages and the notifications.
	b := points.Batch{Actor: o.Actor, Source: o.source(), UserID: o.UserID, Profile: &profile}
	for _, c := range plan {
		switch c.action {
		case points.ActionAutoRecord:
			out.created = append(out.created, c.id)
		case points.ActionAutoUpdate:
			out.updated = append(out.updated, c.id)
		case points.ActionAutoDelete:
			out.removed = append(out.removed, c.id)
			out.removedPlan = append(out.removedPlan, c)
		case actionKeep:
			out.kept = append(out.kept, c.id)
		}
		switch {
		case c.delta != 0:
			b.Changes = append(b.Changes, points.Change{StudentID: c.student, ViolationID: c.id, Action: c.action,
				YearStart: c.startOn, Delta: c.delta, Day: c.date})
		case c.action == points.ActionAutoUpdate || c.action == actionKeep:
			b.Days = append(b.Days, parentmsg.StudentDay{StudentID: c.student, Date: c.date})
		}
	}
	applied, err := ledger.Apply(ctx, b)
	if err != nil {
		return out, err
	}
	out.letters = applied.Letters
	return out, nil
}

// writeAuto carries out the plan (filling in the ids of new rows): an
// unhandled violation to remove is deleted, one handled meanwhile is kept
// and flagged instead (the plan says so then); new and changed ones are
// written in one statement, where the unique index makes a second one for
// the same student, day and kind impossible.
func writeAuto(ctx context.Context, tx *sqlx.Tx, plan []change, kinds map[string]autoType, o Origin) error {
	var deleteIDs []int64
	for _, c := range plan {
		if c.action == points.ActionAutoDelete {
			deleteIDs = append(deleteIDs, c.id)
		}
	}
	deleted := map[int64]bool{}
	if len(deleteIDs) > 0 {
		var ids []int64
		if err := tx.SelectContext(ctx, &ids, `DELETE FROM violations v WHERE v.id = ANY($1::bigint[])
			AND v.handling_status = 'unhandled' AND NOT EXISTS (SELECT 1 FROM handlings h WHERE h.violation_id = v.id)
			RETURNING v.id`, pq.Array(deleteIDs)); err != nil {
			return fmt.Errorf("attendance: remove automatic violations: %w", err)
		}
		for _, id := range ids {
			deleted[id] = true
		}
	}
	var keepIDs []int64
	for i, c := range plan {
		if c.action == points.ActionAutoDelete && !deleted[c.id] {
			plan[i].action, plan[i].delta = actionKeep, 0
		}
		if plan[i].action == actionKeep {
			keepIDs = append(keepIDs, c.id)
		}
	}
	if len(keepIDs) > 0 {
		if _, err := tx.ExecContext(ctx, `UPDATE violations SET auto_unbacked = true, updated_at = now()
			WHERE id = ANY($1::bigint[]) AND NOT auto_unbacked`, pq.Array(keepIDs)); err != nil {
			return fmt.Errorf("attendance: flag automatic violations: %w", err)
		}
	}
	var wr []change
	for _, c := range plan {
		if c.action == points.ActionAutoRecord || c.action == points.ActionAutoUpdate {
			wr = append(wr, c)
		}
	}
	if len(wr) == 0 {
		return nil
	}
	n := len(wr)
	ws, wd, wk := make([]int64, n), make([]string, n), make([]string, n)
	wt, wp, wh := make([]int64, n), make([]int64, n), make([]int64, n)
	wsan, wdesc := make([]string, n), make([]string, n)
	for i, c := range wr {
		t := kinds[c.kind]
		ws[i], wd[i], wk[i], wt[i], wp[i], wh[i], wsan[i] = c.student, c.date, c.kind, t.ID, int64(c.points), int64(c.hours), t.Sanction
		wdesc[i] = Description(c.kind, c.hours)
	}
	var recordedBy *int64
	recordedByName := ""
	if !o.Journal && o.UserID != 0 {
		recordedBy, recordedByName = &o.UserID, o.Actor.Display()
	}
	const q = `INSERT INTO violations AS v (student_id, class_id, class_name, violation_type_id, occurred_at, occurred_on,
	        points, sanction, description, recorded_by, recorded_by_name, source, auto_kind, auto_hours)
	    SELECT u.student_id, s.class_id, COALESCE(c.name, ''), u.type_id, (u.date + time '07:00') AT TIME ZONE 'Asia/Jakarta', u.date,
	        u.points, u.sanction, u.description, $9, $10, 'attendance', u.kind, u.hours
	    FROM unnest($1::bigint[], $2::date[], $3::text[], $4::bigint[], $5::int[], $6::smallint[], $7::text[], $8::text[])
	        AS u(student_id, date, kind, type_id, points, hours, sanction, description)
	    JOIN students s ON s.id = u.student_id LEFT JOIN classes c ON c.id = s.class_id
	    ORDER BY u.student_id, u.date, u.kind
	    ON CONFLICT (student_id, occurred_on, auto_kind) WHERE auto_kind IS NOT NULL DO UPDATE
	    SET points = EXCLUDED.points, auto_hours = EXCLUDED.auto_hours, auto_unbacked = false,
	        description = EXCLUDED.description, updated_at = now()
	    RETURNING v.id, v.student_id, to_char(v.occurred_on, 'YYYY-MM-DD') AS date, v.auto_kind`
	var rows []struct {
		ID        int64  `db:"id"`
		StudentID int64  `db:"student_id"`
		Date      string `db:"date"`
		Kind      string `db:"auto_kind"`
	}
	if err := tx.SelectContext(ctx, &rows, q, pq.Array(ws), pq.Array(wd), pq.Array(wk), pq.Array(wt), pq.Array(wp),
		pq.Array(wh), pq.Array(wsan), pq.Array(wdesc), recordedBy, recordedByName); err != nil {
		return fmt.Errorf("attendance: write automatic violations: %w", err)
	}
	idOf := make(map[autoKey]int64, len(rows))
	for _, r := range rows {
		idOf[autoKey{pair{r.StudentID, r.Date}, r.Kind}] = r.ID
	}
	for i, c := range plan {
		if id, ok := idOf[c.autoKey]; ok && (c.action == points.ActionAutoRecord || c.action == points.ActionAutoUpdate) {
			plan[i].id = id
		}
	}
	return nil
}

// Description is the stored description of an automatic violation, in
// the school's language (Indonesian).
func Description(kind string, hours int) string {
	k := "attendance.auto.alpha_description"
	if kind == api.AutoLate {
		k = "attendance.auto.late_description"
	}
	return locale.Render(locale.ID, k, map[string]any{"hours": hours})
}
