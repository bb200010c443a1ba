package violation

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/locale"
	"github.com/tatib/tatib/server/internal/parentmsg"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/points"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/server/internal/schoolday"
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
	// Violations are the recorded violations as the API shows them (nil
	// when photos came with them: Store.Record reads them again).
	Violations []api.Violation
	// Letters are the letters the recording issued or raised.
	Letters []api.WarningLetter
	// Thresholds are the SP levels, lowest first.
	Thresholds []points.Threshold
	// Lifetime is the student's total over every year after it.
	Lifetime int
	// Before and After are the student's totals in the academic year of
	// the recording, which starts on YearStart.
	Before, After int
	YearStart     schoolday.Date
}

type recType struct {
	ID       int64  `db:"id" json:"id"`
	Name     string `db:"name" json:"name"`
	Points   int    `db:"points" json:"points"`
	Sanction string `db:"default_sanction" json:"default_sanction"`
	Active   bool   `db:"active" json:"active"`
	System   bool   `db:"is_system" json:"is_system"`
}

// recordCall is a recording's first statement, the function
// record_violations_read (migration 00196). It runs record_violations
// (00190), which locks the student (as points.Lock does: FOR UPDATE OF the
// student's row), reads the student, the types and the school's profile
// for the checks, and inserts the violations, answering them as the API
// shows them (violationSelect's columns). Then, in a statement of its own
// that sees what committed while the lock was awaited, it runs the
// ledger's read (ledger_read, 00192) of the recording's academic year,
// which the ledger uses instead of reading (points.Batch.Read) when that
// year and the running one are the ones Go counts from the profile. The
// checks come after it, in Go: when one fails the transaction is rolled
// back with the rows. Reading and writing at once saves five round trips,
// and PostgreSQL keeps a function's plan per connection where a query sent
// with its parameters is planned every time (which cost more than running
// it).
//
// $1 student, $2 type ids, $3 points (-1: the type's), $4 sanctions (”:
// the recording's, else the type's default), $5 the recording's sanction,
// $6 occurred_at, $7 occurred_on, $8 location, $9 description, $10
// recorded_by, $11 recorded_by_name, $12 source, $13 case_id, $14 the
// profile's settings key, $15 today (the running year's day), $16
// points.WithdrawReason, $17 the messaging settings' key.
const recordCall = `SELECT r_student AS student, r_types AS types, r_profile AS profile, r_profile_at AS profile_at,
	r_violations AS violations, to_char(r_year_start, 'YYYY-MM-DD') AS year_start, to_char(r_current, 'YYYY-MM-DD') AS current,
	r_totals AS totals, r_letters AS letters, r_thresholds AS thresholds, r_messaging AS messaging
	FROM record_violations_read($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)`

// RecordTx records in through tx (the caller commits): it locks the
// student, inserts one violation per item and checks the student, the
// scope and the types (recordCall: one statement; a failed check rolls the
// transaction back), inserts the photos and the audit entry, and hands the
// points to the ledger (points.Apply: point audit, letters, messages,
// notifications). in must have passed Validate.
func RecordTx(ctx context.Context, tx *sqlx.Tx, in Record, actor audit.Actor) (Result, error) {
	var res Result
	day := schoolday.DateOf(in.OccurredAt)
	ids := make([]int64, len(in.Items))
	itemPoints := make([]int64, len(in.Items))
	itemSanctions := make([]string, len(in.Items))
	for i, it := range in.Items {
		ids[i], itemPoints[i], itemSanctions[i] = it.TypeID, -1, it.Sanction
		if it.Points != nil {
			itemPoints[i] = int64(*it.Points)
		}
	}
	var row struct {
		Student    []byte     `db:"student"`
		Types      []byte     `db:"types"`
		Profile    []byte     `db:"profile"`
		ProfileAt  *time.Time `db:"profile_at"`
		Violations []byte     `db:"violations"`
		YearStart  *string    `db:"year_start"`
		Current    *string    `db:"current"`
		points.Read
	}
	if err := tx.GetContext(ctx, &row, recordCall, in.StudentID, pq.Array(ids), pq.Array(itemPoints), pq.Array(itemSanctions),
		in.Sanction, in.OccurredAt, day.String(), in.Location, in.Description, in.RecordedBy, in.RecordedByName,
		in.Source, in.CaseID, school.ProfileKey, schoolday.DateOf(in.now()).String(), points.WithdrawReason,
		parentmsg.SettingsKey); err != nil {
		return res, fmt.Errorf("violation: record: %w", err)
	}
	if row.Student == nil {
		return res, apperr.New(apperr.Invalid, "violation.invalid").WithField("student_id", "violation.student.not_found")
	}
	var js struct {
		ID        int64  `json:"id"`
		Name      string `json:"full_name"`
		Active    bool   `json:"active"`
		ClassID   *int64 `json:"class_id"`
		ClassName string `json:"class_name"`
		Homeroom  int64  `json:"homeroom"`
	}
	if err := json.Unmarshal(row.Student, &js); err != nil {
		return res, fmt.Errorf("violation: record: student: %w", err)
	}
	st := points.Student{ID: js.ID, Name: js.Name, Active: js.Active, ClassID: js.ClassID, ClassName: js.ClassName, Homeroom: js.Homeroom}
	if in.Scope.HomeroomID != 0 && st.Homeroom != in.Scope.HomeroomID {
		// Never the student's name: looping over ids would list the school.
		return res, apperr.New(apperr.Forbidden, "violation.student.not_your_class")
	}
	ledger := points.Adopt(tx, st)
	f := apperr.Fields{}
	if !st.Active {
		f.Add("student_id", "violation.student.inactive", "name", st.Name)
	}
	var types []recType
	if err := json.Unmarshal(row.Types, &types); err != nil {
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
	var profileAt time.Time
	if row.ProfileAt != nil {
		profileAt = *row.ProfileAt
	}
	profile, err := school.ProfileFrom(row.Profile, profileAt)
	if err != nil {
		return res, fmt.Errorf("violation: profile: %w", err)
	}
	start := profile.YearStartOf(day)
	res.YearStart = start
	if in.Source != api.SourceAttendance {
		if earliest := earliestDay(profile, in.now()); day.Before(earliest) {
			f.Add("occurred_at", "violation.occurred_at.too_old", "date", earliest.String())
		}
	}
	if len(f) > 0 {
		return res, invalid(f)
	}

	if err := json.Unmarshal(row.Violations, &res.Violations); err != nil {
		return res, fmt.Errorf("violation: record: violations: %w", err)
	}
	if len(res.Violations) != len(in.Items) {
		return res, fmt.Errorf("violation: record: %d of %d violations inserted", len(res.Violations), len(in.Items))
	}
	// In the items' order (the answer lists them by id).
	byType := make(map[int64]api.Violation, len(res.Violations))
	for _, v := range res.Violations {
		byType[v.TypeID] = v
	}
	typeIDs := make([]int64, len(in.Items))
	pts := make([]int64, len(in.Items))
	res.ViolationIDs = make([]int64, len(in.Items))
	for i, it := range in.Items {
		v := byType[it.TypeID]
		typeIDs[i], pts[i], res.ViolationIDs[i] = v.TypeID, int64(v.Points), v.ID
	}
	if len(in.Photos) > 0 {
		if err := insertPhotos(ctx, tx, res.ViolationIDs, in.Photos); err != nil {
			return res, err
		}
		res.Violations = nil // read again with their photos
	}

	action := points.ActionRecord
	if in.Source == api.SourceAttendance {
		action = points.ActionAutoRecord
	}
	b := points.Batch{Actor: actor, Source: points.SourceManual, UserID: actor.ID, Profile: &profile, Now: in.Now, Lifetime: true}
	if row.YearStart != nil && row.Current != nil {
		// The ledger checks that these are the years it would read.
		row.Read.Key, row.Read.Current, row.Read.Lifetime = points.Key{StudentID: st.ID, Start: *row.YearStart}, *row.Current, true
		b.Read = &row.Read
	}
	for i, id := range res.ViolationIDs {
		b.Changes = append(b.Changes, points.Change{StudentID: st.ID, ViolationID: id, Action: action, YearStart: start,
			Delta: int(pts[i]), Day: day.String()})
	}
	k := points.Key{StudentID: st.ID, Start: start.String()}
	// The recording's audit entry: the ledger writes it with the point
	// audit (a round trip less) unless a letter changed.
	b.Entry = func(r points.Result) points.Entry {
		return points.Entry{Action: "violation.record", Entity: "violation", EntityID: strconv.FormatInt(res.ViolationIDs[0], 10),
			Details: map[string]any{
				"ids": res.ViolationIDs, "student_id": st.ID, "student": st.Name, "type_ids": typeIDs, "points": pts,
				"occurred_on": day.String(), "photos": len(in.Photos), "total_before": r.Before[k], "total_after": r.After[k],
			}}
	}
	applied, err := ledger.Apply(ctx, b)
	if err != nil {
		return res, err
	}
	res.Before, res.After, res.Thresholds, res.Lifetime = applied.Before[k], applied.After[k], applied.Thresholds, applied.Lifetime[st.ID]
	if shown := append(slices.Clone(applied.Letters.Issued), applied.Letters.Raised...); len(shown) > 0 {
		if res.Letters, err = loadLetters(ctx, tx, shown); err != nil {
			return res, err
		}
	} else {
		res.Letters = []api.WarningLetter{}
	}
	return res, nil
}

// earliestDay is the first day a violation may be recorded for at now:
// the start of the academic year before the running one.
func earliestDay(p school.Profile, now time.Time) schoolday.Date {
	return p.YearStartOf(schoolday.DateOf(now)).AddDate(-1, 0, 0)
}

// letterColumns select an api.WarningLetter (w) with its student (s).
const letterColumns = `w.id, w.student_id, s.full_name AS student_name, s.nisn AS student_nisn, w.class_id, w.class_name,
	w.level, w.name, w.min_points, to_char(w.academic_year_start, 'YYYY-MM-DD') AS academic_year_start, w.points, w.violation_id,
	w.status, w.issued_at, w.levels_covered, w.total_fallen_at IS NOT NULL AS total_fallen, w.total_fallen_at,
	w.sent_to_parent_at, w.sent_level,
	COALESCE((SELECT NULLIF(t.colour, '') FROM sp_thresholds t WHERE t.level = w.level), 'red') AS colour`

// loadLetters returns the letters with ids, lowest level first.
func loadLetters(ctx context.Context, q sqlx.QueryerContext, ids []int64) ([]api.WarningLetter, error) {
	out := []api.WarningLetter{}
	if err := sqlx.SelectContext(ctx, q, &out, `SELECT `+letterColumns+`
		FROM warning_letters w JOIN students s ON s.id = w.student_id WHERE w.id = ANY($1) ORDER BY w.level, w.id`, pq.Array(ids)); err != nil {
		return nil, fmt.Errorf("violation: letters: %w", err)
	}
	return out, nil
}

// invalid is the answer to a form with field errors.
func invalid(f apperr.Fields) error {
	return &apperr.Error{Code: apperr.Invalid, Msg: apperr.M("violation.invalid"), Fields: f}
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

// WithdrawReason is the withdrawn_reason of a letter the ledger withdrew
// (points.WithdrawReason).
const WithdrawReason = points.WithdrawReason

// Delete deletes a violation the caller may see (its photos and handlings
// go with it) and its audit entry, and hands the points to the ledger: the
// point audit, and the letters of that academic year settled (an open
// letter lowered or withdrawn, a delivered one marked as fallen below).
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
		ledger, err := points.Lock(ctx, tx, []int64{studentID})
		if err != nil {
			return err
		}
		st, _ := ledger.Student(studentID)
		var v struct {
			Points     int            `db:"points"`
			OccurredOn schoolday.Date `db:"occurred_on"`
			TypeID     int64          `db:"violation_type_id"`
			TypeName   string         `db:"type_name"`
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
		day := v.OccurredOn
		start, _, err := AcademicYear(ctx, tx, day.Start())
		if err != nil {
			return err
		}
		applied, err := ledger.Apply(ctx, points.Batch{Actor: actor, Source: points.SourceManual, UserID: actor.ID,
			Changes: []points.Change{{StudentID: studentID, ViolationID: id, Action: points.ActionDelete, YearStart: start,
				Delta: -v.Points, Day: day.String()}}})
		if err != nil {
			return err
		}
		k := points.Key{StudentID: studentID, Start: start.String()}
		return audit.Record(ctx, tx, actor, "violation.delete", "violation", strconv.FormatInt(id, 10), map[string]any{
			"student_id": studentID, "student": st.Name, "type_id": v.TypeID, "type": v.TypeName, "points": v.Points,
			"occurred_on": day.String(), "total_before": applied.Before[k], "total_after": applied.After[k],
			"letters_withdrawn": applied.Letters.Withdrawn, "letters_lowered": applied.Letters.Lowered,
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

// violationSelect selects an api.Violation by id. The names from optional
// rows are scalar subqueries rather than outer joins: it is read a few rows
// at a time after every write, and eight joined relations cost the planner
// more (about 2 ms) than the whole read.
const violationSelect = `SELECT v.id, v.student_id, s.full_name AS student_name, s.nisn AS student_nisn, s.nis AS student_nis,
		v.class_id, v.class_name, COALESCE((SELECT d.name FROM classes vc JOIN departments d ON d.id = vc.department_id WHERE vc.id = v.class_id), '') AS department_name,
		v.violation_type_id AS type_id, t.name AS type_name, t.slug AS type_slug,
		t.category_id, cat.name AS category_name, cat.colour AS category_colour,
		v.occurred_at, to_char(v.occurred_on, 'YYYY-MM-DD') AS occurred_on, v.points, v.sanction, v.location, v.description,
		v.recorded_by, v.recorded_by_name, v.source, v.verified_by, COALESCE((SELECT vu.name FROM users vu WHERE vu.id = v.verified_by), '') AS verified_by_name, v.verified_at,
		v.handling_status, v.handled_at, v.handled_by, COALESCE((SELECT hu.name FROM users hu WHERE hu.id = v.handled_by), '') AS handled_by_name,
		(SELECT count(*) FROM violation_photos p WHERE p.violation_id = v.id) AS photo_count,
		v.created_at, v.updated_at
	FROM violations v
	JOIN students s ON s.id = v.student_id
	JOIN violation_types t ON t.id = v.violation_type_id
	JOIN violation_categories cat ON cat.id = t.category_id`

// loadViolations returns the violations with ids, in id order, with their
// photos' addresses.
func loadViolations(ctx context.Context, q sqlx.QueryerContext, ids []int64) ([]api.Violation, error) {
	out := []api.Violation{}
	if err := sqlx.SelectContext(ctx, q, &out, violationSelect+` WHERE v.id = ANY($1) ORDER BY v.id`, pq.Array(ids)); err != nil {
		return nil, fmt.Errorf("violation: load: %w", err)
	}
	withPhotos := false
	for _, v := range out {
		withPhotos = withPhotos || v.PhotoCount > 0
	}
	if !withPhotos {
		return out, nil
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
// a homeroom teacher sees those of their class's students. Newest is by id:
// the ledger takes it under the student's lock, so a student's entries
// list in the order they committed (their "at" is the transaction's start).
func (s *Store) PointAudit(ctx context.Context, sc Scope, studentID int64, limit, offset int) ([]api.PointAuditEntry, int, error) {
	const q = `SELECT pa.id, pa.at, pa.student_id, s.full_name AS student_name, pa.violation_id, pa.action,
		pa.points_before, pa.points_after, pa.actor_name, pa.address, pa.details, count(*) OVER () AS total
		FROM point_audit pa JOIN students s ON s.id = pa.student_id
		WHERE ($1::bigint = 0 OR pa.student_id = $1)
		  AND ($2::bigint = 0 OR s.class_id IN (SELECT id FROM classes WHERE homeroom_teacher_id = $2))
		ORDER BY pa.id DESC LIMIT $3 OFFSET $4`
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
