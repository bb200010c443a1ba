package achievement

import (
	"context"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/violationtype"
	"github.com/tatib/tatib/shared/api"
)

func isFK(err error) bool {
	var pe *pq.Error
	return errors.As(err, &pe) && pe.Code == "23503"
}

// ---- categories ----

const categorySelect = `SELECT c.id, c.name, c.sort_order, c.created_at, c.updated_at,
	(SELECT count(*) FROM achievement_types t WHERE t.category_id = c.id) AS type_count
	FROM achievement_categories c`

// ListCategories returns every category in screen order.
func (s *Store) ListCategories(ctx context.Context) ([]api.AchievementCategory, error) {
	out := []api.AchievementCategory{}
	if err := s.db.SelectContext(ctx, &out, categorySelect+` ORDER BY c.sort_order, lower(c.name), c.id`); err != nil {
		return nil, fmt.Errorf("achievement: list categories: %w", err)
	}
	return out, nil
}

func getCategory(ctx context.Context, q sqlx.QueryerContext, catID int64) (api.AchievementCategory, error) {
	var c api.AchievementCategory
	err := sqlx.GetContext(ctx, q, &c, categorySelect+` WHERE c.id = $1`, catID)
	return c, pg.Error(err, "entity.achievement_category")
}

func validateCategory(in *api.AchievementCategoryInput, create bool) error {
	f := apperr.Fields{}
	if in.Name != nil {
		n := violationtype.NormalizeName(*in.Name)
		in.Name = &n
		switch {
		case n == "":
			f.Add("name", "achievement.category.name_required")
		case utf8.RuneCountInString(n) > maxCategoryName:
			f.Add("name", "achievement.category.name_too_long", "max", maxCategoryName)
		}
	} else if create {
		f.Add("name", "achievement.category.name_required")
	}
	if in.SortOrder != nil && (*in.SortOrder < 0 || *in.SortOrder > 10000) {
		f.Add("sort_order", "achievement.category.sort_order_range")
	}
	return invalid(f)
}

func invalid(f apperr.Fields) error {
	if len(f) == 0 {
		return nil
	}
	return &apperr.Error{Code: apperr.Invalid, Msg: apperr.M("achievement.invalid"), Fields: f}
}

func categoryNameTaken(name string) error {
	return apperr.New(apperr.Invalid, "achievement.invalid").WithField("name", "achievement.category.name_exists", "name", name)
}

// CreateCategory stores a new category; without sort_order it goes last.
func (s *Store) CreateCategory(ctx context.Context, actor audit.Actor, in api.AchievementCategoryInput) (api.AchievementCategory, error) {
	if err := validateCategory(&in, true); err != nil {
		return api.AchievementCategory{}, err
	}
	var c api.AchievementCategory
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		const q = `INSERT INTO achievement_categories (name, sort_order)
			VALUES ($1, coalesce($2, (SELECT coalesce(max(sort_order), 0) + 1 FROM achievement_categories))) RETURNING id`
		var newID int64
		if err := tx.GetContext(ctx, &newID, q, *in.Name, in.SortOrder); err != nil {
			if pg.IsUnique(err, "achievement_categories_name_key") {
				return categoryNameTaken(*in.Name)
			}
			return fmt.Errorf("achievement: create category: %w", err)
		}
		var err error
		if c, err = getCategory(ctx, tx, newID); err != nil {
			return err
		}
		return audit.Record(ctx, tx, actor, "achievement_category.create", "achievement_category", id(c.ID),
			map[string]any{"name": c.Name, "sort_order": c.SortOrder})
	})
	return c, err
}

// UpdateCategory changes the present fields of a category.
func (s *Store) UpdateCategory(ctx context.Context, actor audit.Actor, catID int64, in api.AchievementCategoryInput) (api.AchievementCategory, error) {
	if err := validateCategory(&in, false); err != nil {
		return api.AchievementCategory{}, err
	}
	var c api.AchievementCategory
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		before, err := getCategory(ctx, tx, catID)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE achievement_categories SET name = coalesce($2, name),
			sort_order = coalesce($3, sort_order), updated_at = now() WHERE id = $1`, catID, in.Name, in.SortOrder); err != nil {
			if pg.IsUnique(err, "achievement_categories_name_key") {
				return categoryNameTaken(*in.Name)
			}
			return fmt.Errorf("achievement: update category: %w", err)
		}
		if c, err = getCategory(ctx, tx, catID); err != nil {
			return err
		}
		return audit.Record(ctx, tx, actor, "achievement_category.update", "achievement_category", id(c.ID),
			map[string]any{"name": map[string]any{"from": before.Name, "to": c.Name}, "sort_order": map[string]any{"from": before.SortOrder, "to": c.SortOrder}})
	})
	return c, err
}

// DeleteCategory removes an empty category; one holding types is a conflict.
func (s *Store) DeleteCategory(ctx context.Context, actor audit.Actor, catID int64) error {
	return pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		var c api.AchievementCategory
		if err := tx.GetContext(ctx, &c, categorySelect+` WHERE c.id = $1 FOR UPDATE OF c`, catID); err != nil {
			return pg.Error(err, "entity.achievement_category")
		}
		if c.TypeCount > 0 {
			return apperr.New(apperr.Conflict, "achievement.category.has_types", "name", c.Name, "count", c.TypeCount)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM achievement_categories WHERE id = $1`, catID); err != nil {
			return fmt.Errorf("achievement: delete category: %w", err)
		}
		return audit.Record(ctx, tx, actor, "achievement_category.delete", "achievement_category", id(c.ID), map[string]any{"name": c.Name})
	})
}

// ---- types ----

const typeSelect = `SELECT t.id, t.category_id, c.name AS category_name, t.name, t.description, t.active,
	t.points_sekolah, t.points_kabupaten, t.points_provinsi, t.points_nasional, t.points_internasional,
	(SELECT count(*) FROM achievements a WHERE a.achievement_type_id = t.id) AS use_count,
	t.created_at, t.updated_at
	FROM achievement_types t JOIN achievement_categories c ON c.id = t.category_id`

type typeRow struct {
	api.AchievementType
	api.LevelPoints
}

func (r typeRow) out() api.AchievementType {
	t := r.AchievementType
	t.Points = r.LevelPoints
	return t
}

func selectTypes(ctx context.Context, q sqlx.QueryerContext, where string, args ...any) ([]api.AchievementType, error) {
	var rows []typeRow
	if err := sqlx.SelectContext(ctx, q, &rows, typeSelect+" "+where, args...); err != nil {
		return nil, fmt.Errorf("achievement: types: %w", err)
	}
	out := make([]api.AchievementType, len(rows))
	for i, r := range rows {
		out[i] = r.out()
	}
	return out, nil
}

// TypeFilter narrows the type list.
type TypeFilter struct {
	Q          string
	CategoryID int64
	Active     *bool
}

// ListTypes returns the types matching f in category order, then by name.
func (s *Store) ListTypes(ctx context.Context, f TypeFilter) ([]api.AchievementType, error) {
	return selectTypes(ctx, s.db, `WHERE ($1 = '' OR position(lower($1) IN lower(t.name || ' ' || c.name || ' ' || t.description)) > 0)
		AND ($2 = 0 OR t.category_id = $2) AND ($3::boolean IS NULL OR t.active = $3)
		ORDER BY c.sort_order, lower(c.name), c.id, lower(t.name), t.id`, f.Q, f.CategoryID, f.Active)
}

func getType(ctx context.Context, q sqlx.QueryerContext, typeID int64) (api.AchievementType, error) {
	ts, err := selectTypes(ctx, q, `WHERE t.id = $1`, typeID)
	if err != nil {
		return api.AchievementType{}, err
	}
	if len(ts) == 0 {
		return api.AchievementType{}, apperr.New(apperr.NotFound, "achievement.type.not_found")
	}
	return ts[0], nil
}

func validatePoints(f apperr.Fields, p *api.LevelPoints) {
	n := 0
	for _, v := range []*int{p.Sekolah, p.Kabupaten, p.Provinsi, p.Nasional, p.Internasional} {
		if v == nil {
			continue
		}
		n++
		if *v < 0 || *v > MaxPoints {
			f.Add("points", "achievement.type.points_range", "max", MaxPoints)
			return
		}
	}
	if n == 0 {
		f.Add("points", "achievement.type.points_required")
	}
}

// validateType checks in; create requires the category, the name and the
// points.
func validateType(in *api.AchievementTypeInput, create bool) error {
	f := apperr.Fields{}
	if in.Name != nil {
		n := violationtype.NormalizeName(*in.Name)
		in.Name = &n
		switch {
		case n == "":
			f.Add("name", "achievement.type.name_required")
		case utf8.RuneCountInString(n) > maxTypeName:
			f.Add("name", "achievement.type.name_too_long", "max", maxTypeName)
		}
	} else if create {
		f.Add("name", "achievement.type.name_required")
	}
	if in.CategoryID == nil && create {
		f.Add("category_id", "achievement.type.category_required")
	}
	if in.Points != nil {
		validatePoints(f, in.Points)
	} else if create {
		f.Add("points", "achievement.type.points_required")
	}
	if in.Description != nil {
		d := violationtype.CleanText(*in.Description)
		in.Description = &d
		if utf8.RuneCountInString(d) > maxDescription {
			f.Add("description", "achievement.description_too_long", "max", maxDescription)
		}
	}
	return invalid(f)
}

func typeNameTaken(name string) error {
	return apperr.New(apperr.Invalid, "achievement.invalid").WithField("name", "achievement.type.name_exists", "name", name)
}

func categoryMustExist(ctx context.Context, q sqlx.QueryerContext, catID int64) error {
	var n int
	if err := sqlx.GetContext(ctx, q, &n, `SELECT count(*) FROM achievement_categories WHERE id = $1`, catID); err != nil {
		return fmt.Errorf("achievement: category: %w", err)
	}
	if n == 0 {
		return apperr.New(apperr.Invalid, "achievement.invalid").WithField("category_id", "achievement.type.category_not_found")
	}
	return nil
}

// CreateType stores a new type.
func (s *Store) CreateType(ctx context.Context, actor audit.Actor, in api.AchievementTypeInput) (api.AchievementType, error) {
	if err := validateType(&in, true); err != nil {
		return api.AchievementType{}, err
	}
	var t api.AchievementType
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		if err := categoryMustExist(ctx, tx, *in.CategoryID); err != nil {
			return err
		}
		p := in.Points
		const q = `INSERT INTO achievement_types (category_id, name, points_sekolah, points_kabupaten, points_provinsi,
			points_nasional, points_internasional, description, active) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`
		var newID int64
		if err := tx.GetContext(ctx, &newID, q, *in.CategoryID, *in.Name, p.Sekolah, p.Kabupaten, p.Provinsi, p.Nasional,
			p.Internasional, deref(in.Description), in.Active == nil || *in.Active); err != nil {
			if pg.IsUnique(err, "achievement_types_category_name_key") {
				return typeNameTaken(*in.Name)
			}
			return fmt.Errorf("achievement: create type: %w", err)
		}
		var err error
		if t, err = getType(ctx, tx, newID); err != nil {
			return err
		}
		return audit.Record(ctx, tx, actor, "achievement_type.create", "achievement_type", id(t.ID),
			map[string]any{"name": t.Name, "category": t.CategoryName, "points": t.Points})
	})
	return t, err
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// UpdateType changes the present fields of a type. Achievements already
// recorded keep the points they were recorded with.
func (s *Store) UpdateType(ctx context.Context, actor audit.Actor, typeID int64, in api.AchievementTypeInput) (api.AchievementType, error) {
	if err := validateType(&in, false); err != nil {
		return api.AchievementType{}, err
	}
	var t api.AchievementType
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		before, err := getType(ctx, tx, typeID)
		if err != nil {
			return err
		}
		if in.CategoryID != nil {
			if err := categoryMustExist(ctx, tx, *in.CategoryID); err != nil {
				return err
			}
		}
		p := before.Points
		if in.Points != nil {
			p = *in.Points
		}
		const q = `UPDATE achievement_types SET category_id = coalesce($2, category_id), name = coalesce($3, name),
			points_sekolah = $4, points_kabupaten = $5, points_provinsi = $6, points_nasional = $7, points_internasional = $8,
			description = coalesce($9, description), active = coalesce($10, active), updated_at = now() WHERE id = $1`
		if _, err := tx.ExecContext(ctx, q, typeID, in.CategoryID, in.Name, p.Sekolah, p.Kabupaten, p.Provinsi, p.Nasional,
			p.Internasional, in.Description, in.Active); err != nil {
			if pg.IsUnique(err, "achievement_types_category_name_key") {
				return typeNameTaken(deref(in.Name))
			}
			return fmt.Errorf("achievement: update type: %w", err)
		}
		if t, err = getType(ctx, tx, typeID); err != nil {
			return err
		}
		return audit.Record(ctx, tx, actor, "achievement_type.update", "achievement_type", id(t.ID),
			map[string]any{"before": map[string]any{"name": before.Name, "points": before.Points, "active": before.Active},
				"after": map[string]any{"name": t.Name, "points": t.Points, "active": t.Active}})
	})
	return t, err
}

// DeleteType removes a type never used; a used one is a conflict
// (deactivate it instead).
func (s *Store) DeleteType(ctx context.Context, actor audit.Actor, typeID int64) error {
	return pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		t, err := getType(ctx, tx, typeID)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM achievement_types WHERE id = $1`, typeID); err != nil {
			if isFK(err) {
				return apperr.New(apperr.Conflict, "achievement.type.in_use", "name", t.Name)
			}
			return fmt.Errorf("achievement: delete type: %w", err)
		}
		return audit.Record(ctx, tx, actor, "achievement_type.delete", "achievement_type", id(t.ID), map[string]any{"name": t.Name})
	})
}
