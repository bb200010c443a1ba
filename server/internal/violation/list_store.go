package violation

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/shared/api"
)

// ListStore reads violations.
type ListStore struct {
	db *sqlx.DB
}

// NewListStore returns a ListStore.
func NewListStore(db *sqlx.DB) *ListStore { return &ListStore{db: db} }

// selectSQL reads a violation with its joined names (student, the class as
// it was that day, its department, type, category, recorder, verifier,
// handler) and its photo count.
const selectSQL = `SELECT v.id, v.student_id, s.full_name AS student_name, s.nisn AS student_nisn, s.nis AS student_nis,
		v.class_id, ` + classNameSQL + ` AS class_name, coalesce(d.name, '') AS department_name,
		t.id AS type_id, t.name AS type_name, t.slug AS type_slug,
		cat.id AS category_id, cat.name AS category_name, cat.colour AS category_colour,
		v.occurred_at, to_char(v.occurred_on, 'YYYY-MM-DD') AS occurred_on, v.points, v.sanction, v.location, v.description,
		v.recorded_by, CASE WHEN v.recorded_by_name <> '' THEN v.recorded_by_name ELSE coalesce(ru.name, '') END AS recorded_by_name,
		v.source, v.verified_by, coalesce(vu.name, '') AS verified_by_name, v.verified_at,
		v.handling_status, v.handled_at, v.handled_by, coalesce(hu.name, '') AS handled_by_name,
		(SELECT count(*) FROM violation_photos p WHERE p.violation_id = v.id) AS photo_count,
		v.created_at, v.updated_at`

// fromSQL joins what selectSQL, OrderBy and the export read.
const fromSQL = `
	FROM violations v
	JOIN students s ON s.id = v.student_id
	JOIN violation_types t ON t.id = v.violation_type_id
	JOIN violation_categories cat ON cat.id = t.category_id
	LEFT JOIN classes c ON c.id = v.class_id
	LEFT JOIN departments d ON d.id = c.department_id
	LEFT JOIN users ru ON ru.id = v.recorded_by
	LEFT JOIN users vu ON vu.id = v.verified_by
	LEFT JOIN users hu ON hu.id = v.handled_by`

// List returns one page of the violations f matches within the caller's
// scope, and how many there are in all. The count reads the violations
// table alone (the filter needs no join), the page only its rows.
func (s *ListStore) List(ctx context.Context, sc Scope, f Filter, p httpx.Paging) ([]api.Violation, int, error) {
	var ca Args
	where := f.Where(sc, &ca)
	var total int
	if err := s.db.GetContext(ctx, &total, `SELECT count(*) FROM violations v WHERE `+where, ca...); err != nil {
		return nil, 0, fmt.Errorf("violationlist: count: %w", err)
	}
	out := []api.Violation{}
	if total == 0 || p.Offset() >= total {
		return out, total, nil
	}
	var a Args
	q := selectSQL + fromSQL + `
	WHERE ` + f.Where(sc, &a) + `
	ORDER BY ` + f.OrderBy() + `
	LIMIT ` + a.Add(p.PerPage) + ` OFFSET ` + a.Add(p.Offset())
	if err := s.db.SelectContext(ctx, &out, q, a...); err != nil {
		return nil, 0, fmt.Errorf("violationlist: list: %w", err)
	}
	return out, total, nil
}

// Get returns one violation within the caller's scope with its photos and
// its handling records (oldest first) and their participants. Outside the
// scope it is NotFound, as if it did not exist.
func (s *ListStore) Get(ctx context.Context, q sqlx.QueryerContext, sc Scope, id int64) (api.Violation, error) {
	var v api.Violation
	var a Args
	idp := a.Add(id)
	err := sqlx.GetContext(ctx, q, &v, selectSQL+fromSQL+` WHERE v.id = `+idp+` AND `+sc.SQL(&a), a...)
	if err != nil {
		return v, pg.Error(err, "violationlist.entity.violation")
	}
	v.Photos = []api.ViolationPhoto{}
	if err := sqlx.SelectContext(ctx, q, &v.Photos, `SELECT id, width, height FROM violation_photos
		WHERE violation_id = $1 ORDER BY position, id`, id); err != nil {
		return v, fmt.Errorf("violationlist: photos: %w", err)
	}
	base := "/api/v1/violations/" + strconv.FormatInt(id, 10) + "/photos/"
	for i := range v.Photos {
		v.Photos[i].URL = base + strconv.FormatInt(v.Photos[i].ID, 10)
		v.Photos[i].ThumbnailURL = v.Photos[i].URL + "/thumbnail"
	}
	if v.Handlings, err = Handlings(ctx, q, id); err != nil {
		return v, err
	}
	return v, Covers(ctx, q, sc, v.Handlings)
}

// handlingSelect reads handling records with their type's name. A shared
// record (violation_id null) reads as its first violation's; Handlings
// puts the violation it was read through instead.
const handlingSelect = `SELECT h.id,
		coalesce(h.violation_id, (SELECT min(hv.violation_id) FROM handling_violations hv WHERE hv.handling_id = h.id), 0) AS violation_id,
		h.handling_type_id, ht.name AS handling_type_name,
		to_char(h.handled_on, 'YYYY-MM-DD') AS handled_on, h.notes, to_char(h.follow_up_on, 'YYYY-MM-DD') AS follow_up_on,
		h.created_by, CASE WHEN h.created_by_name <> '' THEN h.created_by_name ELSE coalesce(u.name, '') END AS created_by_name,
		h.created_at, h.violation_id IS NULL AS shared,
		CASE WHEN h.violation_id IS NULL THEN (SELECT count(*) FROM handling_violations hv WHERE hv.handling_id = h.id) ELSE 1 END AS violation_count
	FROM handlings h
	JOIN handling_types ht ON ht.id = h.handling_type_id
	LEFT JOIN users u ON u.id = h.created_by`

// Handlings returns a violation's handling records in handled_on order,
// its own and the shared ones that cover it, each with its participants.
// The caller has checked the scope.
func Handlings(ctx context.Context, q sqlx.QueryerContext, violationID int64) ([]api.Handling, error) {
	out := []api.Handling{}
	if err := sqlx.SelectContext(ctx, q, &out, handlingSelect+`
		WHERE h.id IN (SELECT vh.handling_id FROM violation_handlings vh WHERE vh.violation_id = $1) ORDER BY h.handled_on, h.id`, violationID); err != nil {
		return nil, fmt.Errorf("violationlist: handlings: %w", err)
	}
	for i := range out {
		out[i].ViolationID = violationID
	}
	return out, participants(ctx, q, out)
}

// Handling returns one handling record with its participants.
func Handling(ctx context.Context, q sqlx.QueryerContext, id int64) (api.Handling, error) {
	var h []api.Handling
	if err := sqlx.SelectContext(ctx, q, &h, handlingSelect+` WHERE h.id = $1`, id); err != nil {
		return api.Handling{}, fmt.Errorf("violationlist: handling: %w", err)
	}
	if len(h) == 0 {
		return api.Handling{}, pg.Error(sql.ErrNoRows, "handling.entity.handling")
	}
	return h[0], participants(ctx, q, h)
}

func participants(ctx context.Context, q sqlx.QueryerContext, hs []api.Handling) error {
	if len(hs) == 0 {
		return nil
	}
	ids := make([]int64, len(hs))
	at := make(map[int64]int, len(hs))
	for i := range hs {
		ids[i] = hs[i].ID
		at[hs[i].ID] = i
		hs[i].Participants = []api.HandlingParticipant{}
		hs[i].Covers = []api.HandlingViolation{}
	}
	var rows []struct {
		HandlingID int64 `db:"handling_id"`
		api.HandlingParticipant
	}
	if err := sqlx.SelectContext(ctx, q, &rows, `SELECT handling_id, user_id, name, role FROM handling_participants
		WHERE handling_id = ANY($1) ORDER BY id`, pq.Array(ids)); err != nil {
		return fmt.Errorf("violationlist: participants: %w", err)
	}
	for _, r := range rows {
		i := at[r.HandlingID]
		hs[i].Participants = append(hs[i].Participants, r.HandlingParticipant)
	}
	return nil
}
