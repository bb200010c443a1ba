package achievement

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/parentmsg"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/pointspolicy"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/server/internal/violation"
	"github.com/tatib/tatib/server/internal/violationtype"
	"github.com/tatib/tatib/shared/api"
)

// Record is one recording: one achievement of one or several students.
type Record struct {
	api.CreateAchievementRequest
	RecordedBy     int64
	RecordedByName string
	Scope          Scope
	Photos         []violation.Photo
	// Now is the clock (zero: time.Now()).
	Now time.Time
}

// earliest is the oldest day an achievement may be recorded for.
var earliest = schoolday.NewDate(2000, 1, 1)

// validate checks the request's own fields.
func (in *Record) validate(f apperr.Fields) schoolday.Date {
	in.StudentIDs = slices.Compact(slices.Sorted(slices.Values(in.StudentIDs)))
	switch {
	case len(in.StudentIDs) == 0:
		f.Add("student_ids", "achievement.students.required")
	case len(in.StudentIDs) > MaxStudents:
		f.Add("student_ids", "achievement.students.too_many", "max", MaxStudents)
	case in.StudentIDs[0] <= 0:
		f.Add("student_ids", "achievement.students.not_found")
	}
	if in.TypeID <= 0 {
		f.Add("type_id", "achievement.type.required")
	}
	if !slices.Contains(api.AchievementLevels, in.Level) {
		f.Add("level", "achievement.level.invalid")
	}
	now := in.Now
	if now.IsZero() {
		now = time.Now()
	}
	day, err := schoolday.ParseDate(in.AchievedOn)
	switch {
	case err != nil:
		f.Add("achieved_on", "achievement.achieved_on.invalid")
	case day.After(schoolday.DateOf(now)):
		f.Add("achieved_on", "achievement.achieved_on.future")
	case day.Before(earliest):
		f.Add("achieved_on", "achievement.achieved_on.too_old")
	}
	in.Description = violationtype.CleanText(in.Description)
	if utf8.RuneCountInString(in.Description) > maxDescription {
		f.Add("description", "achievement.description_too_long", "max", maxDescription)
	}
	return day
}

// Create records one achievement for its students in one transaction: the
// type at the level (its points copied), the students (each active; a
// homeroom teacher's all in their class), photos, an audit entry.
func (s *Store) Create(ctx context.Context, actor audit.Actor, in Record) (api.Achievement, error) {
	f := apperr.Fields{}
	in.validate(f)
	if err := invalid(f); err != nil {
		return api.Achievement{}, err
	}
	var newID int64
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		var t struct {
			api.LevelPoints
			Name   string `db:"name"`
			Active bool   `db:"active"`
		}
		err := tx.GetContext(ctx, &t, `SELECT name, active, points_sekolah, points_kabupaten, points_provinsi, points_nasional, points_internasional
			FROM achievement_types WHERE id = $1`, in.TypeID)
		if errors.Is(err, sql.ErrNoRows) {
			return invalid(apperr.Fields{"type_id": apperr.M("achievement.type.not_found")})
		}
		if err != nil {
			return fmt.Errorf("achievement: type: %w", err)
		}
		if !t.Active {
			f.Add("type_id", "achievement.type.inactive", "name", t.Name)
		}
		pts, ok := t.LevelPoints.At(in.Level)
		if !ok {
			f.Add("level", "achievement.level.not_for_type", "name", t.Name)
		}
		// The students, and whether each is the caller's: a homeroom
		// teacher records for their own class only.
		var students []struct {
			ID      int64  `db:"id"`
			Name    string `db:"full_name"`
			Active  bool   `db:"active"`
			Mine    bool   `db:"mine"`
			ClassID *int64 `db:"class_id"`
		}
		if err := tx.SelectContext(ctx, &students, `SELECT s.id, s.full_name, s.active, s.class_id,
				($2::bigint = 0 OR EXISTS (SELECT 1 FROM classes hc WHERE hc.id = s.class_id AND hc.homeroom_teacher_id = $2)) AS mine
			FROM students s WHERE s.id = ANY($1) ORDER BY s.id`, pq.Array(in.StudentIDs), in.Scope.HomeroomID); err != nil {
			return fmt.Errorf("achievement: students: %w", err)
		}
		if len(students) != len(in.StudentIDs) {
			f.Add("student_ids", "achievement.students.not_found")
		}
		for _, st := range students {
			if !st.Mine {
				// Never the student's name: looping over ids would list the school.
				return apperr.New(apperr.Forbidden, "achievement.student.not_your_class")
			}
			if !st.Active {
				f.Add("student_ids", "achievement.students.inactive", "name", st.Name)
			}
		}
		if err := invalid(f); err != nil {
			return err
		}
		var recordedBy *int64
		if in.RecordedBy != 0 {
			recordedBy = &in.RecordedBy
		}
		if err := tx.GetContext(ctx, &newID, `INSERT INTO achievements (achievement_type_id, level, points, achieved_on, description, recorded_by, recorded_by_name)
			VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`, in.TypeID, in.Level, pts, in.AchievedOn, in.Description, recordedBy, in.RecordedByName); err != nil {
			return fmt.Errorf("achievement: insert: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO achievement_students (achievement_id, student_id, class_id, class_name)
			SELECT $1, s.id, s.class_id, COALESCE(c.name, '') FROM students s LEFT JOIN classes c ON c.id = s.class_id
			WHERE s.id = ANY($2)`, newID, pq.Array(in.StudentIDs)); err != nil {
			return fmt.Errorf("achievement: students insert: %w", err)
		}
		if len(in.Photos) > 0 {
			n := len(in.Photos)
			pos, ws, hs := make([]int64, n), make([]int64, n), make([]int64, n)
			imgs, thumbs := make([][]byte, n), make([][]byte, n)
			for i, p := range in.Photos {
				pos[i], ws[i], hs[i], imgs[i], thumbs[i] = int64(i), int64(p.Width), int64(p.Height), p.Image, p.Thumbnail
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO achievement_photos (achievement_id, position, content_type, width, height, image, thumbnail)
				SELECT $1, p.pos, 'image/jpeg', p.w, p.h, p.image, p.thumb
				FROM unnest($2::smallint[], $3::int[], $4::int[], $5::bytea[], $6::bytea[]) AS p(pos, w, h, image, thumb)`,
				newID, pq.Array(pos), pq.Array(ws), pq.Array(hs), pq.ByteaArray(imgs), pq.ByteaArray(thumbs)); err != nil {
				return fmt.Errorf("achievement: photos: %w", err)
			}
		}
		return audit.Record(ctx, tx, actor, "achievement.create", "achievement", id(newID), map[string]any{
			"type": t.Name, "level": in.Level, "points": pts, "achieved_on": in.AchievedOn, "student_ids": in.StudentIDs, "photos": len(in.Photos)})
	})
	if err != nil {
		return api.Achievement{}, err
	}
	return s.Get(ctx, in.Scope, newID)
}

const achievementSelect = `SELECT a.id, a.achievement_type_id AS type_id, t.name AS type_name, c.name AS category_name,
	a.level, a.points, to_char(a.achieved_on, 'YYYY-MM-DD') AS achieved_on, a.description,
	a.recorded_by, a.recorded_by_name, a.verified_by, COALESCE(vu.name, '') AS verified_by_name, a.verified_at,
	(SELECT count(*) FROM achievement_photos p WHERE p.achievement_id = a.id) AS photo_count, a.created_at, a.updated_at
	FROM achievements a
	JOIN achievement_types t ON t.id = a.achievement_type_id
	JOIN achievement_categories c ON c.id = t.category_id
	LEFT JOIN users vu ON vu.id = a.verified_by`

// visible is the condition that achievement a has a student the caller
// may see ($n: the homeroom id).
func visible(n int) string {
	return `EXISTS (SELECT 1 FROM achievement_students x JOIN students s ON s.id = x.student_id
		WHERE x.achievement_id = a.id AND ` + studentInScope(n) + `)`
}

// Filter narrows the achievement list.
type Filter struct {
	StudentID int64
	ClassID   int64
	// Verified: nil both, true verified only, false awaiting verification.
	Verified *bool
	From, To string // YYYY-MM-DD, inclusive; "" open
	Limit    int
	Offset   int
}

// List returns a page of achievements, newest first, and the total.
func (s *Store) List(ctx context.Context, sc Scope, f Filter) ([]api.Achievement, int, error) {
	var total int
	const where = ` WHERE ` + `($1::bigint = 0 OR EXISTS (SELECT 1 FROM achievement_students y WHERE y.achievement_id = a.id AND y.student_id = $1))
		AND ($2::bigint = 0 OR EXISTS (SELECT 1 FROM achievement_students y JOIN students ys ON ys.id = y.student_id
		    WHERE y.achievement_id = a.id AND (y.class_id = $2 OR ys.class_id = $2)))
		AND ($3::boolean IS NULL OR (a.verified_at IS NOT NULL) = $3)
		AND ($4 = '' OR a.achieved_on >= $4::date) AND ($5 = '' OR a.achieved_on <= $5::date)
		AND `
	args := []any{f.StudentID, f.ClassID, f.Verified, f.From, f.To, sc.HomeroomID}
	if err := s.db.GetContext(ctx, &total, `SELECT count(*) FROM achievements a`+where+visible(6), args...); err != nil {
		return nil, 0, fmt.Errorf("achievement: count: %w", err)
	}
	out := []api.Achievement{}
	if err := s.db.SelectContext(ctx, &out, achievementSelect+where+visible(6)+` ORDER BY a.achieved_on DESC, a.id DESC LIMIT $7 OFFSET $8`,
		append(args, f.Limit, f.Offset)...); err != nil {
		return nil, 0, fmt.Errorf("achievement: list: %w", err)
	}
	return out, total, s.withStudents(ctx, s.db, sc, out)
}

// withStudents fills each achievement's students the caller may see.
func (s *Store) withStudents(ctx context.Context, q sqlx.QueryerContext, sc Scope, as []api.Achievement) error {
	if len(as) == 0 {
		return nil
	}
	ids := make([]int64, len(as))
	for i, a := range as {
		ids[i] = a.ID
	}
	var rows []struct {
		AchievementID int64 `db:"achievement_id"`
		api.AchievementStudent
	}
	q1 := `SELECT x.achievement_id, s.id, s.full_name AS name, s.nisn, x.class_id, x.class_name
		FROM achievement_students x JOIN students s ON s.id = x.student_id
		WHERE x.achievement_id = ANY($1) AND ` + studentInScope(2) + ` ORDER BY x.achievement_id, s.full_name, s.id`
	if err := sqlx.SelectContext(ctx, q, &rows, q1, pq.Array(ids), sc.HomeroomID); err != nil {
		return fmt.Errorf("achievement: students: %w", err)
	}
	at := make(map[int64]int, len(as))
	for i := range as {
		at[as[i].ID] = i
		as[i].Students = []api.AchievementStudent{}
	}
	for _, r := range rows {
		i := at[r.AchievementID]
		as[i].Students = append(as[i].Students, r.AchievementStudent)
	}
	return nil
}

// Get returns one achievement with its photos; 404 when the caller may not
// see it.
func (s *Store) Get(ctx context.Context, sc Scope, achID int64) (api.Achievement, error) {
	var a api.Achievement
	err := s.db.GetContext(ctx, &a, achievementSelect+` WHERE a.id = $1 AND `+visible(2), achID, sc.HomeroomID)
	if errors.Is(err, sql.ErrNoRows) {
		return a, apperr.New(apperr.NotFound, "achievement.not_found")
	}
	if err != nil {
		return a, fmt.Errorf("achievement: get: %w", err)
	}
	as := []api.Achievement{a}
	if err := s.withStudents(ctx, s.db, sc, as); err != nil {
		return a, err
	}
	a = as[0]
	if err := s.db.SelectContext(ctx, &a.Photos, `SELECT id, width, height FROM achievement_photos WHERE achievement_id = $1 ORDER BY position, id`, achID); err != nil {
		return a, fmt.Errorf("achievement: photos: %w", err)
	}
	for i := range a.Photos {
		p := &a.Photos[i]
		p.URL = fmt.Sprintf("/api/v1/achievements/%d/photos/%d", achID, p.ID)
		p.ThumbnailURL = p.URL + "/thumbnail"
	}
	return a, nil
}

// Verify marks an achievement verified (once; verifying again changes
// nothing) and, in the same transaction, applies the points policy's
// offset (pointspolicy.OffsetTx).
func (s *Store) Verify(ctx context.Context, sc Scope, actor audit.Actor, achID int64) (api.Achievement, error) {
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		var verifiedNow bool
		err := tx.GetContext(ctx, &verifiedNow, `UPDATE achievements a SET
				verified_by = CASE WHEN a.verified_at IS NULL THEN $3 ELSE a.verified_by END,
				verified_at = COALESCE(a.verified_at, now()),
				updated_at = CASE WHEN a.verified_at IS NULL THEN now() ELSE a.updated_at END
			WHERE a.id = $1 AND `+visible(2)+`
			RETURNING a.updated_at = now()`, achID, sc.HomeroomID, nullID(actor.ID))
		if errors.Is(err, sql.ErrNoRows) {
			return apperr.New(apperr.NotFound, "achievement.not_found")
		}
		if err != nil {
			return fmt.Errorf("achievement: verify: %w", err)
		}
		if !verifiedNow {
			return nil
		}
		if err := audit.Record(ctx, tx, actor, "achievement.verify", "achievement", id(achID), nil); err != nil {
			return err
		}
		// Under offset, the students' totals fall now, through the ledger;
		// the parents hear of it (when the school switched the event on).
		if _, err := pointspolicy.OffsetTx(ctx, tx, actor, achID, time.Now()); err != nil {
			return err
		}
		return parentmsg.AchievementTx(ctx, tx, achID, actor.ID)
	})
	if err != nil {
		return api.Achievement{}, err
	}
	return s.Get(ctx, sc, achID)
}

func nullID(n int64) *int64 {
	if n == 0 {
		return nil
	}
	return &n
}

// Photo returns a photo's bytes (or its thumbnail's) when the caller may
// see its achievement.
func (s *Store) Photo(ctx context.Context, sc Scope, achID, photoID int64, thumbnail bool) ([]byte, error) {
	col := "p.image"
	if thumbnail {
		col = "p.thumbnail"
	}
	var b []byte
	err := s.db.GetContext(ctx, &b, `SELECT `+col+` FROM achievement_photos p JOIN achievements a ON a.id = p.achievement_id
		WHERE p.id = $1 AND p.achievement_id = $2 AND `+visible(3), photoID, achID, sc.HomeroomID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "achievement.photo.not_found")
	}
	if err != nil {
		return nil, fmt.Errorf("achievement: photo: %w", err)
	}
	return b, nil
}
