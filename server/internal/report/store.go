package report

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/server/internal/violation"
	"github.com/tatib/tatib/shared/api"
)

// Store reads the report from PostgreSQL.
type Store struct {
	db *sqlx.DB
}

// NewStore returns a Store.
func NewStore(db *sqlx.DB) *Store { return &Store{db: db} }

// Scope is the caller: a homeroom teacher (HomeroomID != 0) gets their own
// class only.
type Scope struct {
	HomeroomID int64
	// CaseCounts: the caller holds cases.view_counts, so the whole
	// school's report carries the period's cases, counted.
	CaseCounts bool
}

// args collects positional query parameters ($1, $2, …).
type args []any

func (a *args) add(v any) string {
	*a = append(*a, v)
	return "$" + strconv.Itoa(len(*a))
}

// plan is a resolved report: what it covers and the SQL condition on the
// violation aliased v (and its type vt) that selects its rows.
type plan struct {
	q     Query
	scope api.RecapScope
	where string
	args  args
	// ayStart is the first day of the academic year of the period's end:
	// the year whose warning letters give the SP level.
	ayStart schoolday.Date
}

// resolve checks the asked scope against the caller and builds the rows'
// condition. A homeroom teacher may ask for their own class or nothing
// (which is their class); any other class, a grade or a department is
// refused with 403, never answered with a different report. Their class
// is also part of the SQL condition itself, so a mistake above cannot
// widen what is read.
func (s *Store) resolve(ctx context.Context, db sqlx.QueryerContext, sc Scope, q Query, ayStart schoolday.Date) (plan, error) {
	p := plan{q: q, ayStart: ayStart}
	from := p.args.add(q.From.String())
	to := p.args.add(q.To.String())
	p.where = "v.occurred_on BETWEEN " + from + "::date AND " + to + "::date"
	if c := violation.SourceSQL(q.Source); c != "" {
		p.where += " AND " + c
	}

	if sc.HomeroomID != 0 {
		var own struct {
			ID   int64  `db:"id"`
			Name string `db:"name"`
		}
		err := sqlx.GetContext(ctx, db, &own, `SELECT id, name FROM classes WHERE homeroom_teacher_id = $1`, sc.HomeroomID)
		// A homeroom teacher without a class gets an empty report of no
		// class (class_id 0), as their other lists are empty.
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return p, fmt.Errorf("report: homeroom class: %w", err)
		}
		if q.Grade != 0 || q.DepartmentID != 0 || (q.ClassID != 0 && (own.ID == 0 || q.ClassID != own.ID)) {
			return p, apperr.New(apperr.Forbidden, "report.scope.own_class_only")
		}
		h := p.args.add(sc.HomeroomID)
		p.where += " AND v.class_id = (SELECT id FROM classes WHERE homeroom_teacher_id = " + h + ")"
		p.scope = api.RecapScope{Kind: api.RecapScopeClass, ClassID: own.ID, ClassName: own.Name}
		return p, nil
	}

	switch {
	case q.ClassID != 0:
		var name string
		err := sqlx.GetContext(ctx, db, &name, `SELECT name FROM classes WHERE id = $1`, q.ClassID)
		if errors.Is(err, sql.ErrNoRows) {
			return p, apperr.New(apperr.NotFound, "report.scope.class_not_found").WithField("class_id", "report.scope.class_not_found")
		}
		if err != nil {
			return p, fmt.Errorf("report: class: %w", err)
		}
		p.where += " AND v.class_id = " + p.args.add(q.ClassID)
		p.scope = api.RecapScope{Kind: api.RecapScopeClass, ClassID: q.ClassID, ClassName: name}
	case q.Grade != 0:
		p.where += " AND v.class_id IN (SELECT id FROM classes WHERE grade = " + p.args.add(q.Grade) + ")"
		p.scope = api.RecapScope{Kind: api.RecapScopeGrade, Grade: q.Grade}
	case q.DepartmentID != 0:
		var name string
		err := sqlx.GetContext(ctx, db, &name, `SELECT name FROM departments WHERE id = $1`, q.DepartmentID)
		if errors.Is(err, sql.ErrNoRows) {
			return p, apperr.New(apperr.NotFound, "report.scope.department_not_found").WithField("department_id", "report.scope.department_not_found")
		}
		if err != nil {
			return p, fmt.Errorf("report: department: %w", err)
		}
		p.where += " AND v.class_id IN (SELECT id FROM classes WHERE department_id = " + p.args.add(q.DepartmentID) + ")"
		p.scope = api.RecapScope{Kind: api.RecapScopeDepartment, DepartmentID: q.DepartmentID, DepartmentName: name}
	default:
		p.scope = api.RecapScope{Kind: api.RecapScopeSchool}
	}
	return p, nil
}

// summary fills the report's figures: categories, classes, students and
// the totals.
func summary(ctx context.Context, db sqlx.QueryerContext, p plan, out *api.ViolationRecap) error {
	out.Categories = []api.RecapCategory{}
	if err := sqlx.SelectContext(ctx, db, &out.Categories,
		`SELECT id, name, colour FROM violation_categories ORDER BY sort_order, lower(name), id`); err != nil {
		return fmt.Errorf("report: categories: %w", err)
	}
	col := map[int64]int{}
	for i, c := range out.Categories {
		col[c.ID] = i
	}

	// One pass over the rows: per class and category, with the class's
	// distinct students from a window over the same groups.
	var cells []struct {
		ClassID    *int64 `db:"class_id"`
		ClassName  string `db:"class_name"`
		CategoryID int64  `db:"category_id"`
		Violations int    `db:"violations"`
		Points     int    `db:"points"`
		Students   int    `db:"students"`
	}
	err := sqlx.SelectContext(ctx, db, &cells, `
		WITH r AS (
			SELECT v.class_id, v.class_name, vt.category_id, v.student_id, v.points
			FROM violations v JOIN violation_types vt ON vt.id = v.violation_type_id
			WHERE `+p.where+`),
		st AS (
			SELECT class_id, class_name, count(DISTINCT student_id) AS students
			FROM r GROUP BY class_id, class_name)
		SELECT r.class_id, r.class_name, r.category_id, count(*) AS violations,
			coalesce(sum(r.points), 0) AS points, max(st.students) AS students
		FROM r JOIN st ON st.class_id IS NOT DISTINCT FROM r.class_id AND st.class_name = r.class_name
		GROUP BY r.class_id, r.class_name, r.category_id
		ORDER BY r.class_name, r.class_id NULLS LAST, r.category_id`, p.args...)
	if err != nil {
		return fmt.Errorf("report: classes: %w", err)
	}
	out.Classes = []api.RecapClassRow{}
	for _, c := range cells {
		n := len(out.Classes)
		if n == 0 || out.Classes[n-1].ClassName != c.ClassName || !sameID(out.Classes[n-1].ClassID, c.ClassID) {
			out.Classes = append(out.Classes, api.RecapClassRow{ClassID: c.ClassID, ClassName: c.ClassName,
				Students: c.Students, ByCategory: make([]int, len(out.Categories))})
			n++
		}
		row := &out.Classes[n-1]
		row.Violations += c.Violations
		row.Points += c.Points
		if i, ok := col[c.CategoryID]; ok {
			row.ByCategory[i] += c.Violations
		}
		out.Totals.Violations += c.Violations
		out.Totals.Points += c.Points
	}

	// Per student, with the highest live warning letter of the academic
	// year issued by the period's end.
	out.Students = []api.RecapStudentRow{}
	a := append(args{}, p.args...)
	end := a.add(p.q.To.AddDays(1).String())
	ay := a.add(p.ayStart.String())
	err = sqlx.SelectContext(ctx, db, &out.Students, `
		WITH r AS (
			SELECT v.student_id, count(*) AS violations, coalesce(sum(v.points), 0) AS points,
				(array_agg(v.class_name ORDER BY v.occurred_at DESC, v.id DESC))[1] AS class_name
			FROM violations v
			WHERE `+p.where+`
			GROUP BY v.student_id)
		SELECT r.student_id, s.full_name, s.nis, r.class_name, r.violations, r.points,
			coalesce(sp.level, 0) AS sp_level, coalesce(sp.name, '') AS sp_name,
			coalesce(yp.gross, 0) AS year_gross, coalesce(yp.reduced, 0) AS year_reduced, coalesce(yp.total, 0) AS year_total
		FROM r JOIN students s ON s.id = r.student_id
		LEFT JOIN LATERAL (
			SELECT p.gross, p.reduced, p.total FROM student_year_points(`+ay+`::date, `+end+`::date - 1) p
			WHERE p.student_id = r.student_id) yp ON true
		LEFT JOIN LATERAL (
			SELECT wl.level, wl.name FROM warning_letters wl
			WHERE wl.student_id = r.student_id AND wl.status <> 'withdrawn'
				AND wl.academic_year_start = `+ay+`::date
				AND wl.issued_at < (`+end+`::date::timestamp AT TIME ZONE 'Asia/Jakarta')
			ORDER BY wl.level DESC LIMIT 1) sp ON true
		ORDER BY r.points DESC, r.violations DESC, lower(s.full_name), s.id`, a...)
	if err != nil {
		return fmt.Errorf("report: students: %w", err)
	}
	out.Totals.Students = len(out.Students)
	return nil
}

func sameID(a, b *int64) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

// detailSQL selects the detail rows in the report's order: by time.
func detailSQL(p plan) string {
	return `SELECT v.id, to_char(v.occurred_on, 'YYYY-MM-DD') AS occurred_on, v.student_id, s.full_name AS student_name,
			v.class_name, vt.name AS type_name, vc.name AS category_name, v.description, v.points, v.handling_status
		FROM violations v
		JOIN students s ON s.id = v.student_id
		JOIN violation_types vt ON vt.id = v.violation_type_id
		JOIN violation_categories vc ON vc.id = vt.category_id
		WHERE ` + p.where + `
		ORDER BY v.occurred_at, v.id`
}

type detailRow struct {
	ID             int64  `db:"id"`
	OccurredOn     string `db:"occurred_on"`
	StudentID      int64  `db:"student_id"`
	StudentName    string `db:"student_name"`
	ClassName      string `db:"class_name"`
	TypeName       string `db:"type_name"`
	CategoryName   string `db:"category_name"`
	Description    string `db:"description"`
	Points         int    `db:"points"`
	HandlingStatus string `db:"handling_status"`
}

func (d detailRow) api() api.RecapDetailRow { return api.RecapDetailRow(d) }

// eachDetail streams the detail rows to fn, one at a time: the PDF of a
// school year never holds them all.
func eachDetail(ctx context.Context, db sqlx.QueryerContext, p plan, fn func(api.RecapDetailRow) error) error {
	rows, err := db.QueryxContext(ctx, detailSQL(p), p.args...)
	if err != nil {
		return fmt.Errorf("report: details: %w", err)
	}
	defer rows.Close()
	var d detailRow
	for rows.Next() {
		if err := rows.StructScan(&d); err != nil {
			return fmt.Errorf("report: details: %w", err)
		}
		if err := fn(d.api()); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("report: details: %w", err)
	}
	return nil
}

// details reads one page of the detail rows.
func details(ctx context.Context, db sqlx.QueryerContext, p plan, offset, limit int) ([]api.RecapDetailRow, error) {
	a := append(args{}, p.args...)
	q := detailSQL(p) + " LIMIT " + a.add(limit) + " OFFSET " + a.add(offset)
	var rows []detailRow
	if err := sqlx.SelectContext(ctx, db, &rows, q, a...); err != nil {
		return nil, fmt.Errorf("report: details: %w", err)
	}
	out := make([]api.RecapDetailRow, len(rows))
	for i, r := range rows {
		out[i] = r.api()
	}
	return out, nil
}

// readOnly runs fn in a read-only REPEATABLE READ transaction: the
// summary and the detail rows are one snapshot, so the PDF's totals match
// its rows even while violations are being recorded.
func (s *Store) readOnly(ctx context.Context, fn func(tx *sqlx.Tx) error) error {
	tx, err := s.db.BeginTxx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
	if err != nil {
		return fmt.Errorf("report: begin: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit()
}
