package handling

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/server/internal/violation"
	"github.com/tatib/tatib/shared/api"
)

// DefaultTypeName is the handling type a bulk resolve records when the
// caller names none: resolving a week of automatic lateness says nothing
// about a talk or a letter, so "Other" with the notes is the honest
// record.
const DefaultTypeName = "Lainnya"

// attendanceKinds maps a bulk resolve's kind to violations.auto_kind.
var attendanceKinds = map[string][]string{
	api.AttendanceKindLate:  {"late"},
	api.AttendanceKindAlpha: {"alpha"},
	api.AttendanceKindAll:   {"late", "alpha"},
}

// attendanceRange is a checked class, range and kind.
type attendanceRange struct {
	ClassID  int64
	From, To string
	Kinds    []string
}

// validateRange checks from, to (dates, from not after to) and kind into
// f, and returns the range.
func validateRange(f apperr.Fields, classID int64, from, to, kind string) attendanceRange {
	r := attendanceRange{ClassID: classID, From: strings.TrimSpace(from), To: strings.TrimSpace(to)}
	for name, v := range map[string]string{"from": r.From, "to": r.To} {
		switch {
		case v == "":
			f.Add(name, "handling.bulk.date_required")
		case !isDate(v):
			f.Add(name, "handling.handled_on.invalid")
		}
	}
	if isDate(r.From) && isDate(r.To) && r.To < r.From {
		f.Add("to", "handling.bulk.date_order")
	}
	kinds, ok := attendanceKinds[strings.TrimSpace(kind)]
	if !ok {
		f.Add("kind", "handling.bulk.kind")
	}
	r.Kinds = kinds
	return r
}

// validateAttendance checks a bulk resolve; handled_on "" is today.
func validateAttendance(in *api.ResolveAttendanceRequest, classID int64, today string) (attendanceRange, error) {
	f := apperr.Fields{}
	r := validateRange(f, classID, in.From, in.To, in.Kind)
	if in.HandlingTypeID < 0 {
		f.Add("handling_type_id", "handling.type.not_found")
	}
	in.HandledOn = strings.TrimSpace(in.HandledOn)
	switch {
	case in.HandledOn == "":
		in.HandledOn = today
	case !isDate(in.HandledOn):
		f.Add("handled_on", "handling.handled_on.invalid")
	case in.HandledOn > today:
		f.Add("handled_on", "handling.handled_on.future")
	}
	in.Notes = strings.TrimSpace(in.Notes)
	if utf8.RuneCountInString(in.Notes) > MaxNotes {
		f.Add("notes", "handling.notes.too_long", "max", MaxNotes)
	}
	if len(f) > 0 {
		return r, &apperr.Error{Code: apperr.Invalid, Msg: apperr.M("handling.invalid"), Fields: f}
	}
	return r, nil
}

// checkClass finds the class within the caller's scope: a homeroom
// teacher's own class only; another is NotFound.
func checkClass(ctx context.Context, q sqlx.QueryerContext, sc violation.Scope, classID int64) error {
	var id int64
	err := sqlx.GetContext(ctx, q, &id, `SELECT id FROM classes WHERE id = $1 AND ($2::bigint = 0 OR homeroom_teacher_id = $2)`,
		classID, sc.HomeroomID)
	if errors.Is(err, sql.ErrNoRows) {
		return apperr.New(apperr.NotFound, "handling.class_not_found")
	}
	if err != nil {
		return fmt.Errorf("handling: class: %w", err)
	}
	return nil
}

// openAttendanceSQL selects the class's automatic attendance violations of
// the range and kinds that are not resolved ($1 class, $2 kinds, $3 from,
// $4 to): the violation's class as it was that day.
const openAttendanceSQL = `FROM violations v WHERE v.class_id = $1 AND v.auto_kind = ANY($2) AND v.occurred_on BETWEEN $3::date AND $4::date
	AND v.handling_status <> 'resolved'`

// defaultType is the active handling type named DefaultTypeName, else the
// first active one that does not summon parents (0 when there is none).
func defaultType(ctx context.Context, q sqlx.QueryerContext) (int64, string, error) {
	var t struct {
		ID   int64  `db:"id"`
		Name string `db:"name"`
	}
	err := sqlx.GetContext(ctx, q, &t, `SELECT id, name FROM handling_types WHERE active AND NOT summons_parent
		ORDER BY lower(name) = lower($1) DESC, sort_order, id LIMIT 1`, DefaultTypeName)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, "", nil
	}
	if err != nil {
		return 0, "", fmt.Errorf("handling: default type: %w", err)
	}
	return t.ID, t.Name, nil
}

// OpenAttendance counts what a bulk resolve of the class, range and kind
// would cover now, and names the handling type it would record by
// default.
func (s *Store) OpenAttendance(ctx context.Context, sc violation.Scope, classID int64, from, to, kind string) (api.OpenAttendanceViolations, error) {
	out := api.OpenAttendanceViolations{Max: MaxViolations}
	f := apperr.Fields{}
	r := validateRange(f, classID, from, to, kind)
	if len(f) > 0 {
		return out, &apperr.Error{Code: apperr.Invalid, Msg: apperr.M("handling.invalid"), Fields: f}
	}
	if err := checkClass(ctx, s.db, sc, classID); err != nil {
		return out, err
	}
	var n struct {
		Count    int `db:"count"`
		Students int `db:"students"`
	}
	if err := s.db.GetContext(ctx, &n, `SELECT count(*) AS count, count(DISTINCT v.student_id) AS students `+openAttendanceSQL,
		r.ClassID, pq.Array(r.Kinds), r.From, r.To); err != nil {
		return out, fmt.Errorf("handling: open attendance: %w", err)
	}
	out.Count, out.Students = n.Count, n.Students
	var err error
	out.HandlingTypeID, out.HandlingTypeName, err = defaultType(ctx, s.db)
	return out, err
}

// ResolveAttendance resolves the class's open automatic attendance
// violations of the range and kind with one shared record (the type given,
// else the default), made and resolved in one transaction with one audit
// entry naming the count and the ids. Nothing open answers Resolved 0 and
// writes nothing; more than MaxViolations is Invalid (a shorter range).
func (s *Store) ResolveAttendance(ctx context.Context, actor audit.Actor, sc violation.Scope, classID int64, in api.ResolveAttendanceRequest) (api.ResolveAttendanceResponse, error) {
	out := api.ResolveAttendanceResponse{ViolationIDs: []int64{}}
	r, err := validateAttendance(&in, classID, schoolday.Of(s.now()))
	if err != nil {
		return out, err
	}
	err = pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		if err := checkClass(ctx, tx, sc, classID); err != nil {
			return err
		}
		typeID, summons := in.HandlingTypeID, false
		if typeID == 0 {
			if typeID, _, err = defaultType(ctx, tx); err != nil {
				return err
			}
			if typeID == 0 {
				return apperr.New(apperr.Invalid, "handling.invalid").WithField("handling_type_id", "handling.type.none_active")
			}
		} else if summons, err = checkType(ctx, tx, typeID); err != nil {
			return err
		}
		// In id order, as lockViolations: the same violations picked one
		// by one on the list wait for this, or this for them.
		var vs []covered
		if err := tx.SelectContext(ctx, &vs, `SELECT v.id, v.student_id, v.handling_status `+openAttendanceSQL+`
			ORDER BY v.id LIMIT $5 FOR UPDATE OF v`, r.ClassID, pq.Array(r.Kinds), r.From, r.To, MaxViolations+1); err != nil {
			return fmt.Errorf("handling: lock attendance: %w", err)
		}
		if len(vs) > MaxViolations {
			return apperr.New(apperr.Invalid, "handling.bulk.too_many", "max", MaxViolations).
				WithField("to", "handling.bulk.too_many", "max", MaxViolations)
		}
		if len(vs) == 0 {
			return nil
		}
		if err := checkSummons(summons, vs); err != nil {
			return err
		}
		id, err := insertShared(ctx, tx, actor, sharedRecord{TypeID: typeID, HandledOn: in.HandledOn, Notes: in.Notes}, vs)
		if err != nil {
			return err
		}
		ids := idsOf(vs)
		if err := resolveCovered(ctx, tx, actor, id, ids); err != nil {
			return err
		}
		if err := audit.Record(ctx, tx, actor, "handling.bulk_resolve", "class", strconv.FormatInt(classID, 10), map[string]any{
			"handling_id": id, "count": len(vs), "students": studentCount(vs), "violation_ids": ids,
			"from": r.From, "to": r.To, "kind": strings.TrimSpace(in.Kind), "handling_type_id": typeID, "status_before": byStatus(vs),
		}); err != nil {
			return err
		}
		h, err := readShared(ctx, tx, sc, id)
		if err != nil {
			return err
		}
		out = api.ResolveAttendanceResponse{Resolved: len(vs), Students: studentCount(vs), ViolationIDs: ids, Handling: &h}
		return nil
	})
	return out, err
}
