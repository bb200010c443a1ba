package violation

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/locale"
	"github.com/tatib/tatib/server/internal/notify"
	"github.com/tatib/tatib/server/internal/parentmsg"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/shared/api"
)

// Store runs the violation queries.
type Store struct {
	db *sqlx.DB
}

// NewStore returns a Store on db.
func NewStore(db *sqlx.DB) *Store { return &Store{db: db} }

// scopeSQL is the homeroom condition on a violation v joined with its
// student s; $n is the homeroom teacher's user id (0: everything).
func scopeSQL(n int) string {
	p := "$" + strconv.Itoa(n)
	return `(` + p + `::bigint = 0 OR EXISTS (SELECT 1 FROM classes hc WHERE hc.homeroom_teacher_id = ` + p +
		` AND (hc.id = v.class_id OR hc.id = s.class_id)))`
}

// Result is what a recording did.
type Result struct {
	ViolationIDs []int64
	Letters      []api.WarningLetter
	// Before and After are the student's totals in the academic year of
	// the recording, which starts on YearStart.
	Before, After int
	YearStart     time.Time
}

type lockedStudent struct {
	ID        int64  `db:"id"`
	Name      string `db:"full_name"`
	Active    bool   `db:"active"`
	ClassID   *int64 `db:"class_id"`
	ClassName string `db:"class_name"`
	Homeroom  int64  `db:"homeroom"`
}

// lockStudent takes the student's row lock: every change to a student's
// points and letters holds it, so totals and "never twice" hold under
// concurrent recordings.
func lockStudent(ctx context.Context, tx *sqlx.Tx, id int64) (lockedStudent, error) {
	const q = `SELECT s.id, s.full_name, s.active, s.class_id, COALESCE(c.name, '') AS class_name,
		COALESCE(c.homeroom_teacher_id, 0) AS homeroom
		FROM students s LEFT JOIN classes c ON c.id = s.class_id WHERE s.id = $1 FOR UPDATE OF s`
	var s lockedStudent
	err := tx.GetContext(ctx, &s, q, id)
	if errors.Is(err, sql.ErrNoRows) {
		return s, apperr.New(apperr.Invalid, "violation.invalid").WithField("student_id", "violation.student.not_found")
	}
	if err != nil {
		return s, fmt.Errorf("violation: lock student: %w", err)
	}
	return s, nil
}

type recType struct {
	ID       int64  `db:"id"`
	Name     string `db:"name"`
	Points   int    `db:"points"`
	Sanction string `db:"default_sanction"`
	Active   bool   `db:"active"`
	System   bool   `db:"is_system"`
}

// RecordTx records in through tx (the caller commits): it locks the
// student, checks the student, the scope and the types, inserts one
// violation per item with its photos, writes the point audit (one entry
// per violation) and the audit log, and issues the letters the new total
// reaches. in must have passed Validate.
func RecordTx(ctx context.Context, tx *sqlx.Tx, in Record, actor audit.Actor) (Result, error) {
	var res Result
	st, err := lockStudent(ctx, tx, in.StudentID)
	if err != nil {
		return res, err
	}
	if in.Scope.HomeroomID != 0 && st.Homeroom != in.Scope.HomeroomID {
		// Never the student's name: looping over ids would list the school.
		return res, apperr.New(apperr.Forbidden, "violation.student.not_your_class")
	}
	f := apperr.Fields{}
	if !st.Active {
		f.Add("student_id", "violation.student.inactive", "name", st.Name)
	}
	ids := make([]int64, len(in.Items))
	for i, it := range in.Items {
		ids[i] = it.TypeID
	}
	var types []recType
	if err := tx.SelectContext(ctx, &types, `SELECT id, name, points, default_sanction, active, is_system
		FROM violation_types WHERE id = ANY($1)`, pq.Array(ids)); err != nil {
		return res, fmt.Errorf("violation: types: %w", err)
	}
	byID := map[int64]recType{}
	for _, t := range types {
		byID[t.ID] = t
	}
	for _, it := range in.Items {
		t, ok := byID[it.TypeID]
		switch {
		case !ok:
			f.Add("type_ids", "violation.types.not_found", "id", it.TypeID)
		case t.System && in.Source != api.SourceAttendance:
			f.Add("type_ids", "violation.types.attendance", "name", t.Name)
		case !t.Active:
			f.Add("type_ids", "violation.types.inactive", "name", t.Name)
		}
		if _, bad := f["type_ids"]; bad {
			break
		}
	}
	day := JakartaDay(in.OccurredAt)
	profile, err := school.LoadProfile(ctx, tx)
	if err != nil {
		return res, fmt.Errorf("violation: profile: %w", err)
	}
	start := profile.AcademicYearStartOn(day)
	end := start.AddDate(1, 0, 0)
	res.YearStart = start
	if in.Source != api.SourceAttendance {
		cur := profile.AcademicYearStartOn(JakartaDay(in.now()))
		if earliest := cur.AddDate(-1, 0, 0); day.Before(earliest) {
			f.Add("occurred_at", "violation.occurred_at.too_old", "date", earliest.Format(time.DateOnly))
		}
	}
	if len(f) > 0 {
		return res, invalid(f)
	}

	if res.Before, err = yearTotal(ctx, tx, st.ID, start, end); err != nil {
		return res, err
	}
	typeIDs := make([]int64, len(in.Items))
	points := make([]int64, len(in.Items))
	sanctions := make([]string, len(in.Items))
	for i, it := range in.Items {
		t := byID[it.TypeID]
		typeIDs[i], points[i] = t.ID, int64(t.Points)
		if it.Points != nil {
			points[i] = int64(*it.Points)
		}
		sanctions[i] = t.Sanction
		switch {
		case it.Sanction != "":
			sanctions[i] = it.Sanction
		case in.Sanction != "":
			sanctions[i] = in.Sanction
		}
	}
	const ins = `INSERT INTO violations (student_id, class_id, class_name, violation_type_id, occurred_at, occurred_on,
			points, sanction, location, description, recorded_by, recorded_by_name, source)
		SELECT $1, $2, $3, u.type_id, $4, $5::date, u.points, u.sanction, $6, $7, $8, $9, $10
		FROM unnest($11::bigint[], $12::int[], $13::text[]) WITH ORDINALITY AS u(type_id, points, sanction, ord)
		ORDER BY u.ord
		RETURNING id, violation_type_id`
	rows, err := tx.QueryContext(ctx, ins, st.ID, st.ClassID, st.ClassName, in.OccurredAt, day.Format(time.DateOnly),
		in.Location, in.Description, in.RecordedBy, in.RecordedByName, in.Source,
		pq.Array(typeIDs), pq.Array(points), pq.Array(sanctions))
	if err != nil {
		return res, fmt.Errorf("violation: insert: %w", err)
	}
	idOf := map[int64]int64{}
	for rows.Next() {
		var id, typeID int64
		if err := rows.Scan(&id, &typeID); err != nil {
			rows.Close()
			return res, fmt.Errorf("violation: insert scan: %w", err)
		}
		idOf[typeID] = id
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return res, fmt.Errorf("violation: insert: %w", err)
	}
	res.ViolationIDs = make([]int64, len(typeIDs))
	befores, afters := make([]int64, len(typeIDs)), make([]int64, len(typeIDs))
	run := int64(res.Before)
	for i, t := range typeIDs {
		res.ViolationIDs[i] = idOf[t]
		befores[i] = run
		run += points[i]
		afters[i] = run
	}
	res.After = int(run)

	if len(in.Photos) > 0 {
		if err := insertPhotos(ctx, tx, res.ViolationIDs, in.Photos); err != nil {
			return res, err
		}
	}
	action := "record"
	if in.Source == api.SourceAttendance {
		action = "auto_record"
	}
	if err := pointAudit(ctx, tx, st.ID, action, res.ViolationIDs, befores, afters, actor); err != nil {
		return res, err
	}
	if err := audit.Record(ctx, tx, actor, "violation.record", "violation", strconv.FormatInt(res.ViolationIDs[0], 10), map[string]any{
		"ids": res.ViolationIDs, "student_id": st.ID, "student": st.Name, "type_ids": typeIDs, "points": points,
		"occurred_on": day.Format(time.DateOnly), "photos": len(in.Photos), "total_before": res.Before, "total_after": res.After,
	}); err != nil {
		return res, err
	}
	// The parents' messages, in the recording's transaction (the
	// violation's before its letters').
	queue := func() error { return parentmsg.ViolationsTx(ctx, tx, res.ViolationIDs, actor.ID) }
	if in.Source == api.SourceAttendance {
		queue = func() error { return parentmsg.AutoViolationsTx(ctx, tx, res.ViolationIDs) }
	}
	if err := queue(); err != nil {
		return res, err
	}
	first := res.ViolationIDs[0]
	if res.Letters, err = issueLetters(ctx, tx, st.ID, start, res.After, &first, actor); err != nil {
		return res, err
	}
	return res, notify.ViolationsTx(ctx, tx, res.ViolationIDs, actor.ID)
}

// invalid is the answer to a form with field errors.
func invalid(f apperr.Fields) error {
	return &apperr.Error{Code: apperr.Invalid, Msg: apperr.M("violation.invalid"), Fields: f}
}

func pointAudit(ctx context.Context, tx *sqlx.Tx, studentID int64, action string, violationIDs, before, after []int64, actor audit.Actor) error {
	var actorID *int64
	if actor.ID != 0 {
		actorID = &actor.ID
	}
	const q = `INSERT INTO point_audit (student_id, violation_id, action, points_before, points_after, actor_id, actor_name, address)
		SELECT $1, u.violation_id, $2, u.before, u.after, $3, $4, $5
		FROM unnest($6::bigint[], $7::int[], $8::int[]) AS u(violation_id, before, after)`
	if _, err := tx.ExecContext(ctx, q, studentID, action, actorID, actor.Display(), actor.Address,
		pq.Array(violationIDs), pq.Array(before), pq.Array(after)); err != nil {
		return fmt.Errorf("violation: point audit: %w", err)
	}
	return nil
}

func insertPhotos(ctx context.Context, tx *sqlx.Tx, violationIDs []int64, photos []Photo) error {
	pos := make([]int64, len(photos))
	ws, hs := make([]int64, len(photos)), make([]int64, len(photos))
	imgs, thumbs := make(pq.ByteaArray, len(photos)), make(pq.ByteaArray, len(photos))
	for i, p := range photos {
		pos[i], ws[i], hs[i], imgs[i], thumbs[i] = int64(i), int64(p.Width), int64(p.Height), p.Image, p.Thumbnail
	}
	const q = `INSERT INTO violation_photos (violation_id, position, content_type, width, height, image, thumbnail)
		SELECT v.id, p.pos, 'image/jpeg', p.w, p.h, p.image, p.thumb
		FROM unnest($1::bigint[]) AS v(id)
		CROSS JOIN unnest($2::smallint[], $3::int[], $4::int[], $5::bytea[], $6::bytea[]) AS p(pos, w, h, image, thumb)`
	if _, err := tx.ExecContext(ctx, q, pq.Array(violationIDs), pq.Array(pos), pq.Array(ws), pq.Array(hs), imgs, thumbs); err != nil {
		return fmt.Errorf("violation: photos: %w", err)
	}
	return nil
}

// IssueLettersTx issues, through tx, a draft warning letter for every
// threshold level the student's total in the academic year of day reaches
// and that has no live (not withdrawn) letter yet that year: all missing
// levels at once, lowest first, never twice. It takes the student's row
// lock (a no-op when the caller holds it already). violationID names the
// violation whose recording crossed the threshold (nil: none).
func IssueLettersTx(ctx context.Context, tx *sqlx.Tx, studentID int64, day time.Time, violationID *int64, actor audit.Actor) ([]api.WarningLetter, error) {
	if _, err := tx.ExecContext(ctx, `SELECT 1 FROM students WHERE id = $1 FOR UPDATE`, studentID); err != nil {
		return nil, fmt.Errorf("violation: lock student: %w", err)
	}
	start, end, err := AcademicYear(ctx, tx, day)
	if err != nil {
		return nil, err
	}
	total, err := yearTotal(ctx, tx, studentID, start, end)
	if err != nil {
		return nil, err
	}
	return issueLetters(ctx, tx, studentID, start, total, violationID, actor)
}

// issueLetters issues the missing letters for total points in the academic
// year starting on start; the caller holds the student's lock.
func issueLetters(ctx context.Context, tx *sqlx.Tx, studentID int64, start time.Time, total int, violationID *int64, actor audit.Actor) ([]api.WarningLetter, error) {
	// The colour is the threshold's, as the letters screen shows it; the
	// CTE is there because RETURNING sees only the inserted row.
	const q = `WITH issued AS (
		INSERT INTO warning_letters (student_id, class_id, class_name, level, name, min_points, academic_year_start, points, violation_id)
		SELECT s.id, s.class_id, COALESCE(c.name, ''), t.level, t.name, t.min_points, $2::date, $3, $4
		FROM students s LEFT JOIN classes c ON c.id = s.class_id
		CROSS JOIN sp_thresholds t
		WHERE s.id = $1 AND t.min_points <= $3
		  AND NOT EXISTS (SELECT 1 FROM warning_letters w WHERE w.student_id = s.id
		      AND w.academic_year_start = $2::date AND w.level = t.level AND w.status <> 'withdrawn')
		ORDER BY t.level
		ON CONFLICT (student_id, academic_year_start, level) WHERE status <> 'withdrawn' DO NOTHING
		RETURNING id, student_id, class_id, class_name, level, name, min_points,
		    to_char(academic_year_start, 'YYYY-MM-DD') AS academic_year_start, points, violation_id, status, issued_at)
		SELECT i.*, COALESCE(NULLIF(t.colour, ''), 'red') AS colour
		FROM issued i LEFT JOIN sp_thresholds t ON t.level = i.level ORDER BY i.level`
	letters := []api.WarningLetter{}
	if err := tx.SelectContext(ctx, &letters, q, studentID, start.Format(time.DateOnly), total, violationID); err != nil {
		return nil, fmt.Errorf("violation: issue letters: %w", err)
	}
	if len(letters) == 0 {
		return letters, nil
	}
	ids := make([]int64, len(letters))
	levels := make([]int, len(letters))
	for i, l := range letters {
		ids[i], levels[i] = l.ID, l.Level
	}
	var actorID *int64
	if actor.ID != 0 {
		actorID = &actor.ID
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO warning_letter_events (letter_id, status, actor_id, actor_name)
		SELECT id, 'draft', $2, $3 FROM unnest($1::bigint[]) AS id`, pq.Array(ids), actorID, actor.Display()); err != nil {
		return nil, fmt.Errorf("violation: letter events: %w", err)
	}
	if err := audit.Record(ctx, tx, actor, "warning_letter.issue", "warning_letter", strconv.FormatInt(ids[0], 10), map[string]any{
		"ids": ids, "levels": levels, "student_id": studentID, "points": total, "academic_year_start": start.Format(time.DateOnly),
	}); err != nil {
		return nil, err
	}
	if err := parentmsg.LettersTx(ctx, tx, ids, actor.ID); err != nil {
		return nil, err
	}
	return letters, nil
}

// letterWorkable is the SQL condition (on warning_letters, unqualified)
// that a letter may still change status: the letters of an ended academic
// year issued before the running one began are read-only (docs/data-safety.md,
// "The new academic year"), so deleting one of that year's violations
// leaves them as they are. $n is the running year's first day (Jakarta).
func letterWorkable(n int) string {
	p := "$" + strconv.Itoa(n)
	return "(academic_year_start >= (" + p + "::timestamptz AT TIME ZONE 'Asia/Jakarta')::date OR issued_at >= " + p + "::timestamptz)"
}

// WithdrawReason is the withdrawn_reason of a draft letter whose level the
// student's total no longer reaches after a violation was deleted.
const WithdrawReason = "violation.letter.withdrawn_below"

// Delete deletes a violation the caller may see (its photos and handlings
// go with it), writes the point audit and the audit log, and withdraws the
// draft letters of that academic year whose level the total no longer
// reaches. Letters already printed, signed or delivered stay: they went out.
func (s *Store) Delete(ctx context.Context, sc Scope, actor audit.Actor, id int64) error {
	return pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		var studentID int64
		err := tx.GetContext(ctx, &studentID, `SELECT v.student_id FROM violations v JOIN students s ON s.id = v.student_id
			WHERE v.id = $1 AND `+scopeSQL(2), id, sc.HomeroomID)
		if errors.Is(err, sql.ErrNoRows) {
			return apperr.New(apperr.NotFound, "violation.not_found")
		}
		if err != nil {
			return fmt.Errorf("violation: delete find: %w", err)
		}
		st, err := lockStudent(ctx, tx, studentID)
		if err != nil {
			return err
		}
		var v struct {
			Points     int       `db:"points"`
			OccurredOn time.Time `db:"occurred_on"`
			TypeID     int64     `db:"violation_type_id"`
			TypeName   string    `db:"type_name"`
		}
		err = tx.GetContext(ctx, &v, `DELETE FROM violations v USING violation_types t
			WHERE v.id = $1 AND v.student_id = $2 AND t.id = v.violation_type_id
			RETURNING v.points, v.occurred_on, v.violation_type_id, t.name AS type_name`, id, studentID)
		if errors.Is(err, sql.ErrNoRows) { // deleted meanwhile
			return apperr.New(apperr.NotFound, "violation.not_found")
		}
		if err != nil {
			return fmt.Errorf("violation: delete: %w", err)
		}
		day := time.Date(v.OccurredOn.Year(), v.OccurredOn.Month(), v.OccurredOn.Day(), 0, 0, 0, 0, jakarta)
		start, end, err := AcademicYear(ctx, tx, day)
		if err != nil {
			return err
		}
		after, err := yearTotal(ctx, tx, studentID, start, end)
		if err != nil {
			return err
		}
		before := after + v.Points
		if err := pointAudit(ctx, tx, studentID, "delete", []int64{id}, []int64{int64(before)}, []int64{int64(after)}, actor); err != nil {
			return err
		}
		var actorID *int64
		if actor.ID != 0 {
			actorID = &actor.ID
		}
		cur, _, err := AcademicYear(ctx, tx, JakartaDay(time.Now()))
		if err != nil {
			return err
		}
		var withdrawn []int64
		if err := tx.SelectContext(ctx, &withdrawn, `UPDATE warning_letters SET status = 'withdrawn', withdrawn_at = now(),
				withdrawn_reason = $4, updated_at = now()
			WHERE student_id = $1 AND academic_year_start = $2::date AND status = 'draft' AND min_points > $3
			  AND `+letterWorkable(5)+`
			RETURNING id`, studentID, start.Format(time.DateOnly), after, WithdrawReason, cur); err != nil {
			return fmt.Errorf("violation: withdraw letters: %w", err)
		}
		if len(withdrawn) > 0 {
			if _, err := tx.ExecContext(ctx, `INSERT INTO warning_letter_events (letter_id, status, actor_id, actor_name)
				SELECT id, 'withdrawn', $2, $3 FROM unnest($1::bigint[]) AS id`, pq.Array(withdrawn), actorID, actor.Display()); err != nil {
				return fmt.Errorf("violation: withdraw events: %w", err)
			}
		}
		return audit.Record(ctx, tx, actor, "violation.delete", "violation", strconv.FormatInt(id, 10), map[string]any{
			"student_id": studentID, "student": st.Name, "type_id": v.TypeID, "type": v.TypeName, "points": v.Points,
			"occurred_on": v.OccurredOn.Format(time.DateOnly), "total_before": before, "total_after": after,
			"letters_withdrawn": withdrawn,
		})
	})
}

// Verify marks a violation verified by actor. Verifying a verified one
// changes nothing (the first verifier stays) and is not an error.
func (s *Store) Verify(ctx context.Context, sc Scope, actor audit.Actor, id int64) (api.Violation, error) {
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		var verifiedNow bool
		err := tx.GetContext(ctx, &verifiedNow, `UPDATE violations v SET
				verified_by = CASE WHEN v.verified_at IS NULL THEN $3 ELSE v.verified_by END,
				verified_at = COALESCE(v.verified_at, now()),
				updated_at = CASE WHEN v.verified_at IS NULL THEN now() ELSE v.updated_at END
			FROM students s WHERE v.id = $1 AND s.id = v.student_id AND `+scopeSQL(2)+`
			RETURNING v.updated_at = now()`, id, sc.HomeroomID, actor.ID)
		if errors.Is(err, sql.ErrNoRows) {
			return apperr.New(apperr.NotFound, "violation.not_found")
		}
		if err != nil {
			return fmt.Errorf("violation: verify: %w", err)
		}
		if !verifiedNow {
			return nil
		}
		return audit.Record(ctx, tx, actor, "violation.verify", "violation", strconv.FormatInt(id, 10), nil)
	})
	if err != nil {
		return api.Violation{}, err
	}
	vs, err := loadViolations(ctx, s.db, []int64{id})
	if err != nil {
		return api.Violation{}, err
	}
	if len(vs) == 0 {
		return api.Violation{}, apperr.New(apperr.NotFound, "violation.not_found")
	}
	return vs[0], nil
}

// violationColumns select an api.Violation from v joined as below.
const violationSelect = `SELECT v.id, v.student_id, s.full_name AS student_name, s.nisn AS student_nisn, s.nis AS student_nis,
		v.class_id, v.class_name, COALESCE(d.name, '') AS department_name,
		v.violation_type_id AS type_id, t.name AS type_name, t.slug AS type_slug,
		t.category_id, cat.name AS category_name, cat.colour AS category_colour,
		v.occurred_at, to_char(v.occurred_on, 'YYYY-MM-DD') AS occurred_on, v.points, v.sanction, v.location, v.description,
		v.recorded_by, v.recorded_by_name, v.source, v.verified_by, COALESCE(vu.name, '') AS verified_by_name, v.verified_at,
		v.handling_status, v.handled_at, v.handled_by, COALESCE(hu.name, '') AS handled_by_name,
		(SELECT count(*) FROM violation_photos p WHERE p.violation_id = v.id) AS photo_count,
		v.created_at, v.updated_at
	FROM violations v
	JOIN students s ON s.id = v.student_id
	JOIN violation_types t ON t.id = v.violation_type_id
	JOIN violation_categories cat ON cat.id = t.category_id
	LEFT JOIN classes vc ON vc.id = v.class_id
	LEFT JOIN departments d ON d.id = vc.department_id
	LEFT JOIN users vu ON vu.id = v.verified_by
	LEFT JOIN users hu ON hu.id = v.handled_by`

// loadViolations returns the violations with ids, in id order, with their
// photos' addresses.
func loadViolations(ctx context.Context, q sqlx.QueryerContext, ids []int64) ([]api.Violation, error) {
	out := []api.Violation{}
	if err := sqlx.SelectContext(ctx, q, &out, violationSelect+` WHERE v.id = ANY($1) ORDER BY v.id`, pq.Array(ids)); err != nil {
		return nil, fmt.Errorf("violation: load: %w", err)
	}
	var photos []struct {
		ID          int64 `db:"id"`
		ViolationID int64 `db:"violation_id"`
		Width       int   `db:"width"`
		Height      int   `db:"height"`
	}
	if err := sqlx.SelectContext(ctx, q, &photos, `SELECT id, violation_id, width, height FROM violation_photos
		WHERE violation_id = ANY($1) ORDER BY violation_id, position, id`, pq.Array(ids)); err != nil {
		return nil, fmt.Errorf("violation: load photos: %w", err)
	}
	at := map[int64]int{}
	for i, v := range out {
		at[v.ID] = i
	}
	for _, p := range photos {
		i := at[p.ViolationID]
		out[i].Photos = append(out[i].Photos, PhotoRef(p.ViolationID, p.ID, p.Width, p.Height))
	}
	return out, nil
}

// PhotoRef is the wire form of a stored photo with its addresses.
func PhotoRef(violationID, photoID int64, w, h int) api.ViolationPhoto {
	base := "/api/v1/violations/" + strconv.FormatInt(violationID, 10) + "/photos/" + strconv.FormatInt(photoID, 10)
	return api.ViolationPhoto{ID: photoID, Width: w, Height: h, URL: base, ThumbnailURL: base + "/thumbnail"}
}

// StudentPoints returns the points of a student the caller may see:
// a homeroom teacher sees a student of their class, or one with a
// violation recorded in their class.
func (s *Store) StudentPoints(ctx context.Context, sc Scope, studentID int64, day time.Time) (api.StudentPoints, error) {
	var ok bool
	err := s.db.GetContext(ctx, &ok, `SELECT true FROM students s WHERE s.id = $1 AND ($2::bigint = 0
		OR EXISTS (SELECT 1 FROM classes hc WHERE hc.homeroom_teacher_id = $2 AND (hc.id = s.class_id
			OR EXISTS (SELECT 1 FROM violations v WHERE v.student_id = s.id AND v.class_id = hc.id))))`, studentID, sc.HomeroomID)
	if errors.Is(err, sql.ErrNoRows) {
		return api.StudentPoints{}, apperr.New(apperr.NotFound, "db.not_found", "what", locale.Key("entity.student"))
	}
	if err != nil {
		return api.StudentPoints{}, fmt.Errorf("violation: student: %w", err)
	}
	return Points(ctx, s.db, studentID, day)
}

// Photo returns a stored photo's JPEG (or its thumbnail) when the caller
// may see its violation.
func (s *Store) Photo(ctx context.Context, sc Scope, violationID, photoID int64, thumbnail bool) ([]byte, error) {
	col := "p.image"
	if thumbnail {
		col = "p.thumbnail"
	}
	var b []byte
	err := s.db.GetContext(ctx, &b, `SELECT `+col+` FROM violation_photos p
		JOIN violations v ON v.id = p.violation_id JOIN students s ON s.id = v.student_id
		WHERE p.id = $1 AND p.violation_id = $2 AND `+scopeSQL(3), photoID, violationID, sc.HomeroomID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "violation.photo.not_found")
	}
	if err != nil {
		return nil, fmt.Errorf("violation: photo: %w", err)
	}
	return b, nil
}

// PointAudit lists point changes, newest first, optionally of one student;
// a homeroom teacher sees those of their class's students.
func (s *Store) PointAudit(ctx context.Context, sc Scope, studentID int64, limit, offset int) ([]api.PointAuditEntry, int, error) {
	const q = `SELECT pa.id, pa.at, pa.student_id, s.full_name AS student_name, pa.violation_id, pa.action,
		pa.points_before, pa.points_after, pa.actor_name, pa.address, count(*) OVER () AS total
		FROM point_audit pa JOIN students s ON s.id = pa.student_id
		WHERE ($1::bigint = 0 OR pa.student_id = $1)
		  AND ($2::bigint = 0 OR s.class_id IN (SELECT id FROM classes WHERE homeroom_teacher_id = $2))
		ORDER BY pa.at DESC, pa.id DESC LIMIT $3 OFFSET $4`
	var rows []struct {
		api.PointAuditEntry
		Total int `db:"total"`
	}
	if err := s.db.SelectContext(ctx, &rows, q, studentID, sc.HomeroomID, limit, offset); err != nil {
		return nil, 0, fmt.Errorf("violation: point audit: %w", err)
	}
	out := make([]api.PointAuditEntry, len(rows))
	total := 0
	for i, r := range rows {
		out[i], total = r.PointAuditEntry, r.Total
	}
	if len(rows) == 0 && offset > 0 {
		if err := s.db.GetContext(ctx, &total, `SELECT count(*) FROM point_audit pa JOIN students s ON s.id = pa.student_id
			WHERE ($1::bigint = 0 OR pa.student_id = $1)
			  AND ($2::bigint = 0 OR s.class_id IN (SELECT id FROM classes WHERE homeroom_teacher_id = $2))`, studentID, sc.HomeroomID); err != nil {
			return nil, 0, fmt.Errorf("violation: point audit count: %w", err)
		}
	}
	return out, total, nil
}
