// Package points is the one ledger of students' points. Every change to a
// student's points goes through it, in the writer's own transaction: a
// violation recorded, corrected or deleted (package violation), an
// automatic alpha or late violation created, updated or removed by
// attendance (package attendance). The writer locks the students (Lock),
// writes its violations, and hands the ledger what changed (Apply), which
// then, in a fixed number of statements whatever the batch:
//
//  1. reads each touched student's academic-year totals (after the
//     writer's rows, under the locks, so concurrent writers queue and each
//     sees the others' committed points);
//  2. writes one point-audit entry per change with the running totals
//     before and after it; the entries' ids are taken under the lock, so a
//     student's audit lists in commit order;
//  3. settles the warning letters of each touched student's year by the
//     letter rule (settle in plan.go: one open letter that rises and falls
//     with the level, delivered letters never changed) and writes their
//     history and audit entries;
//  4. queues the parents' messages (the school's messaging settings
//     decide): each recorded violation's; each touched attendance day's,
//     one per student and day, held back until the day settles and dropped
//     when the day is left with nothing to report; one correction for a
//     letter withdrawn after its message went out. Never a letter's own
//     message: a letter reaches the parent when a counselor sends it
//     (package letter);
//  5. writes the notifications of what changed: each recorded violation to
//     whoever may see it, a corrected one to the same people ("diperbaiki"),
//     attendance's automatic violations grouped per recipient and day, and
//     the letters attendance issued, raised, lowered or withdrew to the
//     counselors and the homeroom teacher.
//
// The writer keeps its own audit entry of what it did and names the
// letters withdrawn in it.
package points

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/parentmsg"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/server/internal/timing"
)

// Point-audit actions.
const (
	ActionRecord     = "record"
	ActionDelete     = "delete"
	ActionCorrect    = "correct"
	ActionAutoRecord = "auto_record"
	ActionAutoUpdate = "auto_update"
	ActionAutoDelete = "auto_delete"
	// ActionOffset and ActionAmnesty are reductions by the points policy
	// (package pointspolicy): a row of point_reductions, which the year
	// total subtracts; the entry's details name the policy.
	ActionOffset  = "offset"
	ActionAmnesty = "amnesty"
)

// Sources of a batch: the violation form, or attendance's journal, class
// form and gate kiosk (the notification's params.source, as package
// notify names them).
const (
	SourceManual  = "manual"
	SourceJournal = "journal"
	SourceForm    = "form"
	SourceFace    = "face"
)

// WithdrawReason is the withdrawn_reason of a letter a rule withdrew: the
// student's total no longer reaches any of its levels.
const WithdrawReason = "violation.letter.withdrawn_below"

// Student is a locked student as writers check them.
type Student struct {
	ID        int64  `db:"id"`
	Name      string `db:"full_name"`
	Active    bool   `db:"active"`
	ClassID   *int64 `db:"class_id"`
	ClassName string `db:"class_name"`
	// Homeroom is the user id of the homeroom teacher of the student's
	// class (0: none).
	Homeroom int64 `db:"homeroom"`
}

// Ledger is a transaction holding the row locks of some students: only
// their points may be applied through it.
type Ledger struct {
	tx       *sqlx.Tx
	students map[int64]Student
	// pending is the point audit's statement when tell sends it.
	pending *pending
}

// ErrNotLocked is a programming error: a change of a student whose lock
// the ledger does not hold.
var ErrNotLocked = errors.New("points: a change of a student not locked")

// Lock takes the row locks of the students (in id order, so overlapping
// batches queue instead of deadlocking) through tx and returns the ledger
// that applies their points. Every change to a student's points holds the
// lock from before the writer reads what it changes until commit. A
// student that does not exist is missing from Students.
func Lock(ctx context.Context, tx *sqlx.Tx, ids []int64) (*Ledger, error) {
	ids = slices.Clone(ids)
	slices.Sort(ids)
	ids = slices.Compact(ids)
	l := &Ledger{tx: tx, students: make(map[int64]Student, len(ids))}
	if len(ids) == 0 {
		return l, nil
	}
	const q = `SELECT s.id, s.full_name, s.active, s.class_id, COALESCE(c.name, '') AS class_name,
		    COALESCE(c.homeroom_teacher_id, 0) AS homeroom
		FROM students s LEFT JOIN classes c ON c.id = s.class_id
		WHERE s.id = ANY($1::bigint[]) ORDER BY s.id FOR UPDATE OF s`
	var rows []Student
	if err := tx.SelectContext(ctx, &rows, q, pq.Array(ids)); err != nil {
		return nil, fmt.Errorf("points: lock students: %w", err)
	}
	for _, s := range rows {
		l.students[s.ID] = s
	}
	return l, nil
}

// Adopt is Lock for a writer that took the students' row locks through tx
// itself, as Lock takes them (FOR UPDATE OF the students' rows, in id
// order), in a statement that reads or writes more at once (a recording's
// first statement): the ledger of those students.
func Adopt(tx *sqlx.Tx, students ...Student) *Ledger {
	l := &Ledger{tx: tx, students: make(map[int64]Student, len(students))}
	for _, s := range students {
		l.students[s.ID] = s
	}
	return l
}

// LockIDs is Lock for a writer of many students that needs only the locks
// (attendance's batches): the same locks, in the same order, in one row,
// without reading the students' names and classes (Student answers only
// their ids).
func LockIDs(ctx context.Context, tx *sqlx.Tx, ids []int64) (*Ledger, error) {
	ids = slices.Clone(ids)
	slices.Sort(ids)
	ids = slices.Compact(ids)
	l := &Ledger{tx: tx, students: make(map[int64]Student, len(ids))}
	if len(ids) == 0 {
		return l, nil
	}
	var locked pq.Int64Array
	if err := tx.GetContext(ctx, &locked, `SELECT COALESCE(array_agg(id), '{}') FROM (SELECT s.id FROM students s
		WHERE s.id = ANY($1::bigint[]) ORDER BY s.id FOR UPDATE OF s) l`, pq.Array(ids)); err != nil {
		return nil, fmt.Errorf("points: lock students: %w", err)
	}
	for _, id := range locked {
		l.students[id] = Student{ID: id}
	}
	return l, nil
}

// Student returns a locked student; ok is false for one not locked (or
// not found).
func (l *Ledger) Student(id int64) (Student, bool) {
	s, ok := l.students[id]
	return s, ok
}

// Locked is how many students the ledger holds.
func (l *Ledger) Locked() int { return len(l.students) }

// Change is one change of a student's points the writer made in the
// transaction: a violation recorded, corrected or deleted.
type Change struct {
	StudentID   int64
	ViolationID int64
	// Action is one of the Action constants.
	Action string
	// YearStart is the first day of the academic year whose total the
	// violation counts in (school.Profile.YearStartOf its day).
	YearStart schoolday.Date
	// Delta is the points added (negative: taken away).
	Delta int
	// Day is the violation's Jakarta day (YYYY-MM-DD): an automatic
	// violation's attendance day.
	Day string
	// Details are kept with the point-audit entry (a correction's before
	// and after).
	Details map[string]any
}

// Batch is what one writer's transaction changed.
type Batch struct {
	Changes []Change
	Actor   audit.Actor
	// Source is one of the Source constants.
	Source string
	// UserID is the person behind the change (0: a machine): the
	// recorder notifications name.
	UserID int64
	// Days are attendance days whose automatic violations changed without
	// a change of points (hours changed at the same points): their
	// parents' message is re-rendered like a changed day's.
	Days []parentmsg.StudentDay
	// Lifetime asks for each student's total over every year too
	// (Result.Lifetime): a recording answers it.
	Lifetime bool
	// Profile is the school's, when the writer has read it already.
	Profile *school.Profile
	// Read is the ledger's read, when the writer made it already after
	// taking the lock (a recording's first statement): used when it is
	// the read Apply would make, else Apply reads.
	Read *Read
	// Now is the clock (zero: time.Now()).
	Now time.Time
	// Entry, when set, is the writer's own audit entry of the batch, made
	// from what Apply found (the totals; Letters only when a letter
	// changed): Apply writes it (audit.Record's row, by Actor) in its
	// point-audit statement when no letter changes, a round trip less,
	// else after the letters' entries.
	Entry func(Result) Entry
}

// Entry is an audit entry (audit.Record's arguments but the actor).
type Entry struct {
	Action, Entity, EntityID string
	Details                  any
}

// Key is a student's academic year; Start is its first day (YYYY-MM-DD).
type Key struct {
	StudentID int64
	Start     string
}

// KeyOf is the key of a change.
func KeyOf(c Change) Key {
	return Key{StudentID: c.StudentID, Start: c.YearStart.String()}
}

// Letters lists the letters a batch changed, each once, by id.
type Letters struct {
	// Issued: new drafts, and withdrawn drafts drafted again.
	Issued []int64
	// Raised: open letters that now cover a higher level.
	Raised []int64
	// Lowered: open letters that cover fewer levels.
	Lowered []int64
	// Withdrawn: open letters no level of which is reached any more.
	Withdrawn []int64
}

// Any reports whether a letter changed.
func (l Letters) Any() bool {
	return len(l.Issued)+len(l.Raised)+len(l.Lowered)+len(l.Withdrawn) > 0
}

// Result is what Apply found and did.
type Result struct {
	// Before and After are each touched year's totals before the batch
	// and after it.
	Before, After map[Key]int
	// Steps are the running totals of each change, in the batch's order.
	Steps   []Step
	Letters Letters
	// Thresholds are the levels, lowest first (read anyway; a recording
	// answers the student's standing with them).
	Thresholds []Threshold
	// Lifetime is each student's total over every year, when the batch
	// asked for it.
	Lifetime map[int64]int
}

// Step is the total before and after one change.
type Step struct{ Before, After int }

func (b Batch) now() time.Time {
	if b.Now.IsZero() {
		return time.Now()
	}
	return b.Now
}

// Apply records the batch's changes, which the writer made through the
// ledger's transaction while holding the students' locks: point audit,
// letters, parents' messages, notifications (see the package comment).
func (l *Ledger) Apply(ctx context.Context, b Batch) (Result, error) {
	res := Result{Before: map[Key]int{}, After: map[Key]int{}}
	if len(b.Changes) == 0 {
		if b.Entry != nil {
			e := b.Entry(res)
			if err := audit.Record(ctx, l.tx, b.Actor, e.Action, e.Entity, e.EntityID, e.Details); err != nil {
				return res, err
			}
		}
		return res, l.tell(ctx, b, nil, Letters{})
	}
	var keys []Key
	seen := map[Key]bool{}
	for _, c := range b.Changes {
		if _, ok := l.students[c.StudentID]; !ok {
			return res, fmt.Errorf("%w: %d", ErrNotLocked, c.StudentID)
		}
		if k := KeyOf(c); !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	var profile school.Profile
	if b.Profile != nil {
		profile = *b.Profile
	} else {
		p, err := school.LoadProfile(ctx, l.tx)
		if err != nil {
			return res, fmt.Errorf("points: profile: %w", err)
		}
		profile = p
	}
	current := profile.YearStartOf(schoolday.DateOf(b.now()))

	var st state
	var err error
	if b.Read.fits(keys, current, b.Lifetime) {
		st, err = b.Read.decode()
	} else {
		st, err = l.read(ctx, keys, current, b.Lifetime)
	}
	if err != nil {
		return res, err
	}
	res.Thresholds, res.Lifetime = st.thresholds, st.lifetime

	// Running totals: each year's total after the batch less the batch's
	// changes is where it started.
	for _, k := range keys {
		res.After[k] = st.totals[k]
		res.Before[k] = st.totals[k]
	}
	for _, c := range b.Changes {
		res.Before[KeyOf(c)] -= c.Delta
	}
	run := make(map[Key]int, len(keys))
	for k, v := range res.Before {
		run[k] = v
	}
	steps := make(map[Key][]step, len(keys))
	res.Steps = make([]Step, len(b.Changes))
	for i, c := range b.Changes {
		k := KeyOf(c)
		before := run[k]
		run[k] = before + c.Delta
		res.Steps[i] = Step{Before: before, After: run[k]}
		if c.Delta != 0 {
			steps[k] = append(steps[k], step{violationID: c.ViolationID, before: before, after: run[k]})
		}
	}
	var plans []keyedOp
	for _, k := range keys {
		for _, o := range settle(res.After[k], steps[k], st.letters[k], st.thresholds) {
			plans = append(plans, keyedOp{Key: k, op: o})
		}
	}
	// The writer's entry goes with the point audit when no letter changes;
	// else after the letters' entries, in the order the writer kept them.
	var entry *Entry
	if b.Entry != nil && len(plans) == 0 {
		e := b.Entry(res)
		entry = &e
	}
	// With no letter changing, nothing between reads the point audit: a
	// recording sends it with its notifications (a round trip less).
	later := entry != nil && slices.ContainsFunc(b.Changes, func(c Change) bool { return c.Action == ActionRecord })
	if err := l.pointAudit(ctx, b, res.Steps, entry, later); err != nil {
		return res, err
	}
	timing.Mark(ctx, "points")

	if res.Letters, err = l.writeLetters(ctx, b, plans); err != nil {
		return res, err
	}
	timing.Mark(ctx, "letters")
	if b.Entry != nil && entry == nil {
		e := b.Entry(res)
		if err := audit.Record(ctx, l.tx, b.Actor, e.Action, e.Entity, e.EntityID, e.Details); err != nil {
			return res, err
		}
	}
	if err := l.tell(ctx, b, &st.messaging, res.Letters); err != nil {
		return res, err
	}
	if err := l.flush(ctx); err != nil { // tell sent it unless it told no one
		return res, err
	}
	return res, nil
}

// Apply locks the batch's students (in id order) and applies it: for a
// writer whose rows need no lock to be written first.
func Apply(ctx context.Context, tx *sqlx.Tx, b Batch) (Result, error) {
	ids := make([]int64, len(b.Changes))
	for i, c := range b.Changes {
		ids[i] = c.StudentID
	}
	l, err := Lock(ctx, tx, ids)
	if err != nil {
		return Result{}, err
	}
	return l.Apply(ctx, b)
}

// pointAudit writes one entry per change, in the batch's order, in one
// statement, with the writer's audit entry when entry is set. When later
// is set (the batch records violations, and no letter changes) it only
// keeps the statement for tell, which sends it with the notifications (or
// first, when the parents are told: their message reads the total from
// the point audit).
func (l *Ledger) pointAudit(ctx context.Context, b Batch, steps []Step, entry *Entry, later bool) error {
	n := len(b.Changes)
	students, violations := make([]int64, n), make([]int64, n)
	actions, details := make([]string, n), make([]string, n)
	befores, afters := make([]int64, n), make([]int64, n)
	for i, c := range b.Changes {
		students[i], violations[i], actions[i] = c.StudentID, c.ViolationID, c.Action
		befores[i], afters[i] = int64(steps[i].Before), int64(steps[i].After)
		details[i] = "{}"
		if len(c.Details) > 0 {
			d, err := jsonText(c.Details)
			if err != nil {
				return err
			}
			details[i] = d
		}
	}
	var actorID *int64
	if b.Actor.ID != 0 {
		actorID = &b.Actor.ID
	}
	w := &pending{ctes: []string{pointAuditSQL}, args: []any{actorID, b.Actor.Display(), b.Actor.Address, pq.Array(students), pq.Array(violations),
		pq.Array(actions), pq.Array(befores), pq.Array(afters), pq.Array(details)}}
	if entry != nil {
		// With the writer's audit entry: audit.Record's row.
		d := entry.Details
		if d == nil {
			d = map[string]any{}
		}
		doc, err := jsonText(d)
		if err != nil {
			return err
		}
		w.ctes = append(w.ctes, entrySQL)
		w.args = append(w.args, b.Actor.Name, entry.Action, entry.Entity, entry.EntityID, doc)
	}
	l.pending = w
	if later {
		return nil
	}
	return l.flush(ctx)
}

// pointAuditSQL writes one point-audit entry per change, in the batch's
// order: $1 the actor's id, $2 the name shown, $3 the address, $4-$9 the
// changes' students, violations, actions, totals before and after, and
// details. entrySQL is the writer's audit entry beside it (audit.Record's
// row): $10 the actor's name, $11 the action, $12 the entity, $13 its id,
// $14 the details. Both are also the body of the function
// point_audit_notify (migration 00197), which a recording calls (tell); a
// change here is a new migration replacing it (a test compares them).
const (
	pointAuditSQL = `INSERT INTO point_audit (student_id, violation_id, action, points_before, points_after, actor_id, actor_name, address, details)
		SELECT u.student_id, NULLIF(u.violation_id, 0), u.action, u.before, u.after, $1, $2, $3, u.details::jsonb
		FROM unnest($4::bigint[], $5::bigint[], $6::text[], $7::int[], $8::int[], $9::text[]) WITH ORDINALITY
		    AS u(student_id, violation_id, action, before, after, details, ord)
		ORDER BY u.ord`
	entrySQL = `INSERT INTO audit_log (actor_id, actor_name, action, entity, entity_id, details, address)
			VALUES ($1, $10, $11, $12, $13, $14::jsonb, $3)`
)

// pointAuditNotify is the function that runs pointAuditSQL, entrySQL and
// then notify_violations with the four parameters after theirs.
const pointAuditNotify = "point_audit_notify"

// flush writes the point audit kept for tell now.
func (l *Ledger) flush(ctx context.Context) error {
	w := l.pending
	if w == nil {
		return nil
	}
	l.pending = nil
	stmt := w.ctes[0]
	if len(w.ctes) == 2 {
		stmt = `WITH pa AS (` + w.ctes[0] + `) ` + w.ctes[1]
	}
	if _, err := l.tx.ExecContext(ctx, stmt, w.args...); err != nil {
		return fmt.Errorf("points: point audit: %w", err)
	}
	return nil
}

// pending is the point audit's statement kept for tell: its
// data-modifying statements and their parameters.
type pending struct {
	ctes []string
	args []any
}
