package points

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/notify"
	"github.com/tatib/tatib/server/internal/parentmsg"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/server/internal/timing"
)

// state is what the letter rule reads for the batch's years, with what
// telling people needs: the messaging settings, and each student's
// lifetime total when asked.
type state struct {
	totals     map[Key]int
	letters    map[Key][]letterRow
	thresholds []Threshold
	messaging  parentmsg.Settings
	lifetime   map[int64]int
}

// workableSQL is true for a letter (warning_letters w) whose status may
// still change: the letters of an ended academic year issued before the
// running one began are read-only (docs/data-safety.md, "The new academic
// year"). $n is the running year's first day (a Jakarta date).
func workableSQL(n int) string {
	p := "$" + strconv.Itoa(n)
	return "(w.academic_year_start >= " + p + "::date OR w.issued_at >= (" + p + "::date)::timestamp AT TIME ZONE 'Asia/Jakarta')"
}

// readSQL is the ledger's read (see read): $1 students, $2 their years'
// first days, $3 the running year's first day, $4 WithdrawReason, $5
// whether to sum lifetimes, $6 the messaging settings' key. It is also the
// body of the function ledger_read (migration 00192), which a batch of at
// most readFunctionKeys keys calls instead; a change here is a new
// migration replacing the function (a test compares them).
var readSQL = `WITH k AS (SELECT * FROM unnest($1::bigint[], $2::date[]) AS k(student_id, start))
		SELECT
		    (SELECT json_agg(json_build_object('s', k.student_id, 'y', to_char(k.start, 'YYYY-MM-DD'),
		        't', COALESCE((SELECT p.total FROM student_year_points(k.start) p WHERE p.student_id = k.student_id), 0),
		        'l', CASE WHEN $5 THEN COALESCE((SELECT sum(v.points) FROM violations v WHERE v.student_id = k.student_id), 0)
		            - COALESCE((SELECT sum(r.points) FROM point_reductions r WHERE r.student_id = k.student_id), 0) END)) FROM k) AS totals,
		    (SELECT COALESCE(json_agg(json_build_object('id', w.id, 's', w.student_id, 'y', to_char(w.academic_year_start, 'YYYY-MM-DD'),
		        'status', w.status, 'level', w.level, 'levels', w.levels_covered, 'name', w.name, 'min', w.min_points,
		        'workable', ` + workableSQL(3) + `, 'fallen', w.total_fallen_at IS NOT NULL,
		        'revivable', w.status = 'withdrawn') ORDER BY w.id), '[]')
		     FROM k JOIN warning_letters w ON w.student_id = k.student_id AND w.academic_year_start = k.start
		     WHERE w.status <> 'withdrawn'
		        OR (w.printed_at IS NULL AND w.number IS NULL AND w.sent_to_parent_at IS NULL AND w.withdrawn_reason = $4)) AS letters,
		    (SELECT COALESCE(json_agg(json_build_object('level', t.level, 'name', t.name, 'min', t.min_points, 'colour', t.colour)
		        ORDER BY t.level), '[]') FROM sp_thresholds t) AS thresholds,
		    (SELECT value FROM settings WHERE key = $6) AS messaging`

// readCall runs readSQL as the function ledger_read.
const readCall = `SELECT r_totals AS totals, r_letters AS letters, r_thresholds AS thresholds, r_messaging AS messaging
	FROM ledger_read($1, $2, $3, $4, $5, $6)`

// readFunctionKeys is the most keys read through ledger_read: its plan is
// a generic one, made for a few rows.
const readFunctionKeys = 8

// read reads, in one statement, each key's net year total
// (student_year_points, migration 00175; after the writer's
// rows; the caller holds the locks) and, when lifetime, the student's total
// over every year; its letters (every live one and the drafts a rule
// withdrew before they were printed, numbered or sent); the thresholds; and the
// parents' messaging settings.
func (l *Ledger) read(ctx context.Context, keys []Key, current schoolday.Date, lifetime bool) (state, error) {
	ids, starts := make([]int64, len(keys)), make([]string, len(keys))
	for i, k := range keys {
		ids[i], starts[i] = k.StudentID, k.Start
	}
	// A recording's or a correction's few students: the function, whose
	// plan PostgreSQL keeps per connection (planning the query cost more
	// than running it). A batch of many: the query, planned for its size.
	q := readSQL
	if len(keys) <= readFunctionKeys {
		q = readCall
	}
	var raw Read
	if err := l.tx.GetContext(ctx, &raw, q, pq.Array(ids), pq.Array(starts), current, WithdrawReason,
		lifetime, parentmsg.SettingsKey); err != nil {
		return state{}, fmt.Errorf("points: read totals and letters: %w", err)
	}
	return raw.decode()
}

// Read is the ledger's read (readSQL's row) of one student's academic
// year, made by a writer in a statement of its own (a recording's first:
// migration 00196 runs ledger_read inside it, a round trip less) after it
// took the student's lock. Apply uses it instead of reading when it is of
// the batch's one key, the same running year and the lifetime asked.
type Read struct {
	// Key is the student's year read; Current is the running year's first
	// day (YYYY-MM-DD) the letters' workable flag was computed for.
	Key      Key    `db:"-"`
	Current  string `db:"-"`
	Lifetime bool   `db:"-"`
	// The columns of readSQL, as read.
	Totals     []byte `db:"totals"`
	Letters    []byte `db:"letters"`
	Thresholds []byte `db:"thresholds"`
	Messaging  []byte `db:"messaging"`
}

// fits reports whether r is the read Apply would make of keys.
func (r *Read) fits(keys []Key, current schoolday.Date, lifetime bool) bool {
	return r != nil && len(keys) == 1 && keys[0] == r.Key && r.Current == current.String() &&
		r.Lifetime == lifetime && r.Totals != nil
}

// decode decodes readSQL's row.
func (raw Read) decode() (state, error) {
	st := state{totals: map[Key]int{}, letters: map[Key][]letterRow{}, lifetime: map[int64]int{}}
	var totals []struct {
		S int64  `json:"s"`
		Y string `json:"y"`
		T int    `json:"t"`
		L *int   `json:"l"`
	}
	var letters []struct {
		ID        int64  `json:"id"`
		S         int64  `json:"s"`
		Y         string `json:"y"`
		Status    string `json:"status"`
		Level     int    `json:"level"`
		Levels    []int  `json:"levels"`
		Name      string `json:"name"`
		Min       int    `json:"min"`
		Workable  bool   `json:"workable"`
		Fallen    bool   `json:"fallen"`
		Revivable bool   `json:"revivable"`
	}
	var ths []struct {
		Level  int    `json:"level"`
		Name   string `json:"name"`
		Min    int    `json:"min"`
		Colour string `json:"colour"`
	}
	for _, x := range []struct {
		b []byte
		v any
	}{{raw.Totals, &totals}, {raw.Letters, &letters}, {raw.Thresholds, &ths}} {
		if err := json.Unmarshal(x.b, x.v); err != nil {
			return st, fmt.Errorf("points: decode: %w", err)
		}
	}
	for _, t := range totals {
		st.totals[Key{t.S, t.Y}] = t.T
		if t.L != nil {
			st.lifetime[t.S] = *t.L
		}
	}
	var err error
	if st.messaging, err = parentmsg.Parse(raw.Messaging); err != nil {
		return st, err
	}
	for _, w := range letters {
		k := Key{w.S, w.Y}
		st.letters[k] = append(st.letters[k], letterRow{ID: w.ID, Status: w.Status, Level: w.Level, Levels: w.Levels, Name: w.Name,
			MinPoints: w.Min, Workable: w.Workable, Fallen: w.Fallen, Revivable: w.Revivable})
	}
	st.thresholds = make([]Threshold, len(ths))
	for i, t := range ths {
		st.thresholds[i] = Threshold{Level: t.Level, Name: t.Name, MinPoints: t.Min, Colour: t.Colour}
	}
	return st, nil
}

// keyedOp is an op of one student's year.
type keyedOp struct {
	Key
	op
}

// levelsText writes levels as a PostgreSQL array literal.
func levelsText(ls []int) string {
	s := make([]string, len(ls))
	for i, l := range ls {
		s[i] = strconv.Itoa(l)
	}
	return "{" + strings.Join(s, ",") + "}"
}

// writeLetters carries out the ops: the new drafts in one statement, every
// change of an existing letter in another, each with its history; then the
// audit entries of the letters issued, raised and lowered (the writer names
// the withdrawn ones in its own entry).
func (l *Ledger) writeLetters(ctx context.Context, b Batch, ops []keyedOp) (Letters, error) {
	var out Letters
	if len(ops) == 0 {
		return out, nil
	}
	var actorID *int64
	if b.Actor.ID != 0 {
		actorID = &b.Actor.ID
	}
	var issue, change []keyedOp
	for _, o := range ops {
		if o.Kind == opIssue {
			issue = append(issue, o)
		} else {
			change = append(change, o)
		}
	}
	if len(issue) > 0 {
		n := len(issue)
		sids, starts, levels, mins, pts, causes := make([]int64, n), make([]string, n), make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n)
		names, covered := make([]string, n), make([]string, n)
		for i, o := range issue {
			sids[i], starts[i], levels[i], mins[i], pts[i], causes[i] = o.StudentID, o.Start, int64(o.Level), int64(o.MinPoints), int64(o.Points), o.Cause
			names[i], covered[i] = o.Name, levelsText(o.Levels)
		}
		const q = `WITH u AS (SELECT * FROM unnest($1::bigint[], $2::date[], $3::int[], $4::text[], $5::int[], $6::int[], $7::text[], $8::bigint[])
		        WITH ORDINALITY AS u(student_id, start, level, name, min_points, points, levels, cause, ord)),
		    i AS (INSERT INTO warning_letters (student_id, class_id, class_name, level, name, min_points, academic_year_start, points,
		            violation_id, levels_covered)
		        SELECT s.id, s.class_id, COALESCE(c.name, ''), u.level, u.name, u.min_points, u.start, u.points, NULLIF(u.cause, 0), u.levels::int[]
		        FROM u JOIN students s ON s.id = u.student_id LEFT JOIN classes c ON c.id = s.class_id
		        ORDER BY u.ord
		        RETURNING id, level, violation_id),
		    e AS (INSERT INTO warning_letter_events (letter_id, status, actor_id, actor_name, level, violation_id)
		        SELECT id, 'draft', $9, $10, level, violation_id FROM i)
		    SELECT id FROM i ORDER BY id`
		if err := l.tx.SelectContext(ctx, &out.Issued, q, pq.Array(sids), pq.Array(starts), pq.Array(levels), pq.Array(names),
			pq.Array(mins), pq.Array(pts), pq.Array(covered), pq.Array(causes), actorID, b.Actor.Display()); err != nil {
			return out, fmt.Errorf("points: issue letters: %w", err)
		}
	}
	if len(change) > 0 {
		n := len(change)
		ids, levels, mins, pts, causes := make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n)
		kinds, names, covered := make([]string, n), make([]string, n), make([]string, n)
		for i, o := range change {
			ids[i], levels[i], mins[i], pts[i], causes[i] = o.LetterID, int64(o.Level), int64(o.MinPoints), int64(o.Points), o.Cause
			names[i], covered[i] = o.Name, levelsText(o.Levels)
			switch o.Kind {
			case opRevive:
				kinds[i] = "revive"
				out.Issued = append(out.Issued, o.LetterID)
			case opRaise:
				kinds[i] = "raise"
				out.Raised = append(out.Raised, o.LetterID)
			case opLower:
				kinds[i] = "lower"
				out.Lowered = append(out.Lowered, o.LetterID)
			case opWithdraw:
				kinds[i] = "withdraw"
				out.Withdrawn = append(out.Withdrawn, o.LetterID)
			case opFall:
				kinds[i] = "fall"
			case opUnfall:
				kinds[i] = "unfall"
			}
			if o.Kind == opFall || o.Kind == opUnfall || o.Kind == opWithdraw {
				covered[i] = "{}"
			}
		}
		// A withdrawal keeps the levels it covered (the record of what it
		// stood for); fall and unfall touch only the flag.
		const q = `WITH u AS (SELECT * FROM unnest($1::bigint[], $2::text[], $3::int[], $4::text[], $5::int[], $6::int[], $7::text[], $8::bigint[])
		        AS u(id, kind, level, name, min_points, points, levels, cause)),
		    w AS (UPDATE warning_letters w SET
		            status = CASE u.kind WHEN 'withdraw' THEN 'withdrawn' WHEN 'revive' THEN 'draft' ELSE w.status END,
		            withdrawn_at = CASE u.kind WHEN 'withdraw' THEN now() WHEN 'revive' THEN NULL ELSE w.withdrawn_at END,
		            withdrawn_reason = CASE u.kind WHEN 'withdraw' THEN $9 WHEN 'revive' THEN '' ELSE w.withdrawn_reason END,
		            issued_at = CASE u.kind WHEN 'revive' THEN now() ELSE w.issued_at END,
		            level = CASE WHEN u.kind IN ('revive', 'raise', 'lower') THEN u.level ELSE w.level END,
		            name = CASE WHEN u.kind IN ('revive', 'raise', 'lower') THEN u.name ELSE w.name END,
		            min_points = CASE WHEN u.kind IN ('revive', 'raise', 'lower') THEN u.min_points ELSE w.min_points END,
		            points = CASE WHEN u.kind IN ('revive', 'raise', 'lower') THEN u.points ELSE w.points END,
		            levels_covered = CASE WHEN u.kind IN ('revive', 'raise', 'lower') THEN u.levels::int[] ELSE w.levels_covered END,
		            violation_id = CASE WHEN u.kind IN ('revive', 'raise') AND u.cause <> 0 THEN u.cause ELSE w.violation_id END,
		            total_fallen_at = CASE u.kind WHEN 'fall' THEN now() WHEN 'unfall' THEN NULL ELSE w.total_fallen_at END,
		            updated_at = now()
		        FROM u WHERE w.id = u.id
		        RETURNING w.id),
		    e AS (INSERT INTO warning_letter_events (letter_id, status, actor_id, actor_name, level, violation_id)
		        SELECT u.id, CASE u.kind WHEN 'revive' THEN 'draft' WHEN 'raise' THEN 'raised' WHEN 'lower' THEN 'lowered' ELSE 'withdrawn' END,
		            $10, $11, u.level, NULLIF(u.cause, 0)
		        FROM u WHERE u.kind IN ('revive', 'raise', 'lower', 'withdraw') ORDER BY u.id)
		    SELECT count(*) FROM w`
		var changed int
		if err := l.tx.GetContext(ctx, &changed, q, pq.Array(ids), pq.Array(kinds), pq.Array(levels), pq.Array(names), pq.Array(mins),
			pq.Array(pts), pq.Array(covered), pq.Array(causes), WithdrawReason, actorID, b.Actor.Display()); err != nil {
			return out, fmt.Errorf("points: change letters: %w", err)
		}
		if changed != n {
			return out, fmt.Errorf("points: %d of %d letters changed", changed, n)
		}
	}
	if len(out.Issued) > 0 {
		if err := audit.Record(ctx, l.tx, b.Actor, "warning_letter.issue", "warning_letter", strconv.FormatInt(out.Issued[0], 10), map[string]any{
			"ids": out.Issued,
		}); err != nil {
			return out, err
		}
	}
	var aIDs []string
	var aDetails []any
	var aActions []string
	for _, o := range change {
		action := map[opKind]string{opRaise: "warning_letter.raise", opLower: "warning_letter.lower"}[o.Kind]
		if action == "" {
			continue
		}
		aIDs = append(aIDs, strconv.FormatInt(o.LetterID, 10))
		aActions = append(aActions, action)
		aDetails = append(aDetails, map[string]any{"student_id": o.StudentID, "levels": o.Levels, "level": o.Level, "name": o.Name,
			"points": o.Points, "violation_id": o.Cause})
	}
	for _, action := range []string{"warning_letter.raise", "warning_letter.lower"} {
		var ids []string
		var ds []any
		for i, a := range aActions {
			if a == action {
				ids, ds = append(ids, aIDs[i]), append(ds, aDetails[i])
			}
		}
		if err := audit.RecordEach(ctx, l.tx, b.Actor, action, "warning_letter", ids, ds); err != nil {
			return out, err
		}
	}
	return out, nil
}

// tell queues what parents and users are told of the batch.
func (l *Ledger) tell(ctx context.Context, b Batch, set *parentmsg.Settings, letters Letters) error {
	var recorded, created, corrected []int64
	days := slices.Clone(b.Days)
	for _, c := range b.Changes {
		switch c.Action {
		case ActionRecord:
			recorded = append(recorded, c.ViolationID)
		case ActionAutoRecord:
			created = append(created, c.ViolationID)
		case ActionCorrect:
			corrected = append(corrected, c.ViolationID)
		}
		if strings.HasPrefix(c.Action, "auto_") && c.Day != "" {
			days = append(days, parentmsg.StudentDay{StudentID: c.StudentID, Date: c.Day})
		}
	}
	slices.SortFunc(days, func(a, b parentmsg.StudentDay) int {
		return cmp.Or(cmp.Compare(a.StudentID, b.StudentID), cmp.Compare(a.Date, b.Date))
	})
	days = slices.Compact(days)
	// The parents: each recorded violation's message; each attendance
	// day's, held back until the day settles; a correction for a letter
	// withdrawn after its message went out. A letter's own message goes
	// when the school sends it (package letter), never from here.
	if set == nil { // a batch of days only: nothing read yet
		if len(days) == 0 {
			return nil
		}
		return parentmsg.AttendanceDaysTx(ctx, l.tx, days)
	}
	if l.pending != nil && len(recorded) > 0 && set.Configured() && set.Events.Violation.Enabled {
		// The violation's message reads its total from the point audit.
		if err := l.flush(ctx); err != nil {
			return err
		}
	}
	if err := parentmsg.ViolationsWithTx(ctx, l.tx, *set, recorded, b.Actor.ID); err != nil {
		return err
	}
	if err := parentmsg.AttendanceDaysWithTx(ctx, l.tx, *set, days); err != nil {
		return err
	}
	if err := parentmsg.LetterCorrectionsWithTx(ctx, l.tx, *set, letters.Withdrawn, b.Actor.ID); err != nil {
		return err
	}
	timing.Mark(ctx, "parents")
	// The users.
	if w := l.pending; w != nil { // the point audit with them
		l.pending = nil
		// Kept only with the writer's entry (pointAudit's later): the
		// function runs both and then the notifications.
		if len(w.ctes) != 2 {
			return fmt.Errorf("points: point audit kept without the writer's entry")
		}
		if err := notify.ViolationsAfterCallTx(ctx, l.tx, pointAuditNotify, w.args, recorded, b.UserID); err != nil {
			return fmt.Errorf("points: point audit: %w", err)
		}
	} else if err := notify.ViolationsTx(ctx, l.tx, recorded, b.UserID); err != nil {
		return err
	}
	if err := notify.CorrectedTx(ctx, l.tx, corrected, b.UserID); err != nil {
		return err
	}
	if b.Source == SourceManual {
		return nil
	}
	if err := notify.AttendanceTx(ctx, l.tx, created, b.Source, b.UserID); err != nil {
		return err
	}
	if err := notify.LettersTx(ctx, l.tx, notify.LetterChanges{Issued: letters.Issued, Raised: letters.Raised,
		Lowered: letters.Lowered, Withdrawn: letters.Withdrawn}, b.Source); err != nil {
		return err
	}
	timing.Mark(ctx, "notify")
	return nil
}

// jsonText encodes v as JSON text.
func jsonText(v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("points: encode details: %w", err)
	}
	return string(b), nil
}
