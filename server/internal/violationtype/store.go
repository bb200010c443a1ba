package violationtype

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/pg"
)

// Store reads and writes the violation master data.
type Store struct {
	db *sqlx.DB
}

// NewStore returns a Store.
func NewStore(db *sqlx.DB) *Store { return &Store{db: db} }

func id(n int64) string { return strconv.FormatInt(n, 10) }

func isFK(err error) bool {
	var pe *pq.Error
	return errors.As(err, &pe) && pe.Code == "23503"
}

// ---- categories ----------------------------------------------------------

const categorySelect = `SELECT c.id, c.name, c.colour, c.sort_order, c.created_at, c.updated_at,
	(SELECT count(*) FROM violation_types t WHERE t.category_id = c.id) AS type_count,
	(SELECT count(*) FROM violation_types t WHERE t.category_id = c.id AND t.active) AS active_type_count
	FROM violation_categories c`

// ListCategories returns every category in screen order.
func (s *Store) ListCategories(ctx context.Context) ([]Category, error) {
	out := []Category{}
	if err := s.db.SelectContext(ctx, &out, categorySelect+` ORDER BY c.sort_order, lower(c.name), c.id`); err != nil {
		return nil, fmt.Errorf("violationtype: list categories: %w", err)
	}
	return out, nil
}

func getCategory(ctx context.Context, q sqlx.QueryerContext, catID int64) (Category, error) {
	var c Category
	err := sqlx.GetContext(ctx, q, &c, categorySelect+` WHERE c.id = $1`, catID)
	return c, pg.Error(err, "entity.category")
}

func categoryNameTaken(name string) error {
	return apperr.New(apperr.Invalid, "violationtype.category.name_taken").
		WithField("name", "violationtype.category.name_exists", "name", name)
}

// CreateCategory stores a new category; without sort_order it goes last.
func (s *Store) CreateCategory(ctx context.Context, actor audit.Actor, in CategoryInput) (Category, error) {
	f := apperr.Fields{}
	validateCategory(f, &in, true)
	if err := f.Err(); err != nil {
		return Category{}, err
	}
	colour := "gray"
	if in.Colour != nil {
		colour = *in.Colour
	}
	var c Category
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		const q = `INSERT INTO violation_categories (name, colour, sort_order)
			VALUES ($1, $2, coalesce($3, (SELECT coalesce(max(sort_order), 0) + 1 FROM violation_categories)))
			RETURNING id`
		var newID int64
		if err := tx.GetContext(ctx, &newID, q, *in.Name, colour, in.SortOrder); err != nil {
			if pg.IsUnique(err, "violation_categories_name_key") {
				return categoryNameTaken(*in.Name)
			}
			return fmt.Errorf("violationtype: create category: %w", err)
		}
		var err error
		if c, err = getCategory(ctx, tx, newID); err != nil {
			return err
		}
		return audit.Record(ctx, tx, actor, "violation_category.create", "violation_category", id(c.ID),
			map[string]any{"name": c.Name, "colour": c.Colour, "sort_order": c.SortOrder})
	})
	return c, err
}

// UpdateCategory changes the present fields of a category.
func (s *Store) UpdateCategory(ctx context.Context, actor audit.Actor, catID int64, in CategoryInput) (Category, error) {
	f := apperr.Fields{}
	validateCategory(f, &in, false)
	if err := f.Err(); err != nil {
		return Category{}, err
	}
	var c Category
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		before, err := getCategory(ctx, tx, catID)
		if err != nil {
			return err
		}
		const q = `UPDATE violation_categories SET name = coalesce($2, name), colour = coalesce($3, colour),
			sort_order = coalesce($4, sort_order), updated_at = now() WHERE id = $1`
		if _, err := tx.ExecContext(ctx, q, catID, in.Name, in.Colour, in.SortOrder); err != nil {
			if pg.IsUnique(err, "violation_categories_name_key") {
				return categoryNameTaken(*in.Name)
			}
			return fmt.Errorf("violationtype: update category: %w", err)
		}
		if c, err = getCategory(ctx, tx, catID); err != nil {
			return err
		}
		return audit.Record(ctx, tx, actor, "violation_category.update", "violation_category", id(c.ID), changes(
			"name", before.Name, c.Name, "colour", before.Colour, c.Colour, "sort_order", before.SortOrder, c.SortOrder))
	})
	return c, err
}

// DeleteCategory removes an empty category; one that still holds types is a
// conflict.
func (s *Store) DeleteCategory(ctx context.Context, actor audit.Actor, catID int64) error {
	return pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		var c Category
		err := tx.GetContext(ctx, &c, categorySelect+` WHERE c.id = $1 FOR UPDATE OF c`, catID)
		if err != nil {
			return pg.Error(err, "entity.category")
		}
		if c.TypeCount > 0 {
			return apperr.New(apperr.Conflict, "violationtype.category.has_types", "name", c.Name, "count", c.TypeCount)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM violation_categories WHERE id = $1`, catID); err != nil {
			if isFK(err) {
				return apperr.New(apperr.Conflict, "violationtype.category.in_use", "name", c.Name)
			}
			return fmt.Errorf("violationtype: delete category: %w", err)
		}
		return audit.Record(ctx, tx, actor, "violation_category.delete", "violation_category", id(c.ID), map[string]any{"name": c.Name})
	})
}

// changes builds audit details from name, before, after triples, keeping
// only what changed.
func changes(kv ...any) map[string]any {
	out := map[string]any{}
	for i := 0; i+2 < len(kv); i += 3 {
		if kv[i+1] != kv[i+2] {
			out[kv[i].(string)] = map[string]any{"from": kv[i+1], "to": kv[i+2]}
		}
	}
	return out
}

// ---- types ----------------------------------------------------------------

const typeSelect = `SELECT t.id, t.name, t.slug, t.points, t.category_id, t.default_sanction, t.description,
	t.active, t.is_system, t.created_at, t.updated_at,
	c.id AS "category.id", c.name AS "category.name", c.colour AS "category.colour", c.sort_order AS "category.sort_order"
	FROM violation_types t JOIN violation_categories c ON c.id = t.category_id`

// TypeFilter narrows the type list.
type TypeFilter struct {
	Q          string
	CategoryID int64
	Active     *bool
}

// ListTypes returns the types matching f, grouped by category order, then by
// name.
func (s *Store) ListTypes(ctx context.Context, f TypeFilter) ([]Type, error) {
	const q = typeSelect + `
		WHERE ($1 = '' OR position(lower($1) IN lower(t.name || ' ' || t.slug || ' ' || t.default_sanction || ' ' || t.description || ' ' || c.name)) > 0)
		  AND ($2 = 0 OR t.category_id = $2)
		  AND ($3::boolean IS NULL OR t.active = $3)
		ORDER BY c.sort_order, lower(c.name), c.id, t.is_system DESC, lower(t.name), t.id`
	out := []Type{}
	if err := s.db.SelectContext(ctx, &out, q, f.Q, f.CategoryID, f.Active); err != nil {
		return nil, fmt.Errorf("violationtype: list types: %w", err)
	}
	return out, nil
}

// GetType returns one type.
func GetType(ctx context.Context, q sqlx.QueryerContext, typeID int64) (Type, error) {
	var t Type
	err := sqlx.GetContext(ctx, q, &t, typeSelect+` WHERE t.id = $1`, typeID)
	return t, pg.Error(err, "entity.violation_type")
}

// TypeBySlug returns the type with slug (alpha, terlambat) through q, for
// features that record violations automatically.
func TypeBySlug(ctx context.Context, q sqlx.QueryerContext, slug string) (Type, error) {
	var t Type
	err := sqlx.GetContext(ctx, q, &t, typeSelect+` WHERE t.slug = $1`, slug)
	return t, pg.Error(err, "entity.violation_type")
}

func loadSlugs(ctx context.Context, q sqlx.QueryerContext) (map[string]bool, error) {
	var list []string
	if err := sqlx.SelectContext(ctx, q, &list, `SELECT slug FROM violation_types`); err != nil {
		return nil, fmt.Errorf("violationtype: slugs: %w", err)
	}
	taken := make(map[string]bool, len(list))
	for _, s := range list {
		taken[s] = true
	}
	return taken, nil
}

// systemNames maps the name keys of the system types to their slugs.
func systemNames(ctx context.Context, q sqlx.QueryerContext) (map[string]string, error) {
	var rows []struct {
		Name string `db:"name"`
		Slug string `db:"slug"`
	}
	if err := sqlx.SelectContext(ctx, q, &rows, `SELECT name, slug FROM violation_types WHERE is_system`); err != nil {
		return nil, fmt.Errorf("violationtype: system names: %w", err)
	}
	out := map[string]string{}
	for _, r := range rows {
		out[nameKey(r.Name)] = r.Slug
	}
	return out, nil
}

func categoryMustExist(ctx context.Context, q sqlx.QueryerContext, catID int64) (string, error) {
	var name string
	err := sqlx.GetContext(ctx, q, &name, `SELECT name FROM violation_categories WHERE id = $1`, catID)
	if errors.Is(err, sql.ErrNoRows) {
		return "", apperr.New(apperr.Invalid, "violationtype.category.not_found").
			WithField("category_id", "violationtype.category.not_found")
	}
	if err != nil {
		return "", fmt.Errorf("violationtype: category: %w", err)
	}
	return name, nil
}

func typeNameTaken(name, category string) error {
	return apperr.New(apperr.Invalid, "violationtype.type.name_taken").
		WithField("name", "violationtype.type.name_exists", "name", name, "category", category)
}

func systemNameRefused(slug string) error {
	return apperr.New(apperr.Invalid, "violationtype.type.system_name").
		WithField("name", "violationtype.type.system_name_field", "slug", slug)
}

func slugTaken() error {
	return apperr.New(apperr.Invalid, "violationtype.type.code_taken").
		WithField("slug", "violationtype.type.code_taken_field")
}

func slugReserved() error {
	return apperr.New(apperr.Invalid, "violationtype.type.code_reserved").
		WithField("slug", "violationtype.type.code_reserved_field")
}

// CreateType stores a new, non-system type. Its slug is the given one or
// one made from the name.
func (s *Store) CreateType(ctx context.Context, actor audit.Actor, in TypeInput) (Type, error) {
	if err := in.Validate(true); err != nil {
		return Type{}, err
	}
	var t Type
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		if err := lock(ctx, tx); err != nil {
			return err
		}
		catName, err := categoryMustExist(ctx, tx, *in.CategoryID)
		if err != nil {
			return err
		}
		sys, err := systemNames(ctx, tx)
		if err != nil {
			return err
		}
		if slug, ok := systemName(*in.Name, sys); ok {
			return systemNameRefused(slug)
		}
		taken, err := loadSlugs(ctx, tx)
		if err != nil {
			return err
		}
		slug := ""
		if in.Slug != nil {
			slug = *in.Slug
		}
		switch {
		case slug == "":
			slug = uniqueSlug(Slugify(*in.Name), taken)
		case isSystemSlug(slug):
			return slugReserved()
		case taken[slug]:
			return slugTaken()
		}
		active := in.Active == nil || *in.Active
		const q = `INSERT INTO violation_types (name, slug, points, category_id, default_sanction, description, active)
			VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`
		var newID int64
		if err := tx.GetContext(ctx, &newID, q, *in.Name, slug, *in.Points, *in.CategoryID,
			deref(in.DefaultSanction), deref(in.Description), active); err != nil {
			if pg.IsUnique(err, "violation_types_category_name_key") {
				return typeNameTaken(*in.Name, catName)
			}
			return fmt.Errorf("violationtype: create type: %w", err)
		}
		if t, err = GetType(ctx, tx, newID); err != nil {
			return err
		}
		return audit.Record(ctx, tx, actor, "violation_type.create", "violation_type", id(t.ID),
			map[string]any{"name": t.Name, "slug": t.Slug, "points": t.Points, "category": t.Category.Name})
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

// UpdateType changes the present fields of a type. A system type keeps its
// slug (a different slug is a field error) and stays active. Points of
// violations already recorded are copies and never change here.
func (s *Store) UpdateType(ctx context.Context, actor audit.Actor, typeID int64, in TypeInput) (Type, error) {
	if err := in.Validate(false); err != nil {
		return Type{}, err
	}
	var t Type
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		if err := lock(ctx, tx); err != nil {
			return err
		}
		before, err := GetType(ctx, tx, typeID)
		if err != nil {
			return err
		}
		f := apperr.Fields{}
		if before.IsSystem {
			if in.Slug != nil && *in.Slug != before.Slug {
				f.Add("slug", "violationtype.type.system_code_fixed", "slug", before.Slug)
			}
			if in.Active != nil && !*in.Active {
				f.Add("active", "violationtype.type.system_always_active")
			}
		} else {
			if in.Slug != nil && *in.Slug != before.Slug {
				if isSystemSlug(*in.Slug) {
					return slugReserved()
				}
				var used bool
				if err := tx.GetContext(ctx, &used, `SELECT EXISTS (SELECT 1 FROM violation_types WHERE slug = $1 AND id <> $2)`, *in.Slug, typeID); err != nil {
					return fmt.Errorf("violationtype: slug check: %w", err)
				}
				if used {
					return slugTaken()
				}
			}
			if in.Name != nil && nameKey(*in.Name) != nameKey(before.Name) {
				sys, err := systemNames(ctx, tx)
				if err != nil {
					return err
				}
				if slug, ok := systemName(*in.Name, sys); ok {
					return systemNameRefused(slug)
				}
			}
		}
		if err := f.Err(); err != nil {
			return err
		}
		catName := before.Category.Name
		if in.CategoryID != nil && *in.CategoryID != before.CategoryID {
			if catName, err = categoryMustExist(ctx, tx, *in.CategoryID); err != nil {
				return err
			}
		}
		const q = `UPDATE violation_types SET name = coalesce($2, name), slug = coalesce($3, slug),
			points = coalesce($4, points), category_id = coalesce($5, category_id),
			default_sanction = coalesce($6, default_sanction), description = coalesce($7, description),
			active = coalesce($8, active), updated_at = now()
			WHERE id = $1`
		if _, err := tx.ExecContext(ctx, q, typeID, in.Name, in.Slug, in.Points, in.CategoryID,
			in.DefaultSanction, in.Description, in.Active); err != nil {
			if pg.IsUnique(err, "violation_types_category_name_key") {
				return typeNameTaken(deref(in.Name), catName)
			}
			if pg.IsUnique(err, "violation_types_slug_key") {
				return slugTaken()
			}
			return fmt.Errorf("violationtype: update type: %w", err)
		}
		if t, err = GetType(ctx, tx, typeID); err != nil {
			return err
		}
		return audit.Record(ctx, tx, actor, "violation_type.update", "violation_type", id(t.ID), changes(
			"name", before.Name, t.Name, "slug", before.Slug, t.Slug, "points", before.Points, t.Points,
			"category", before.Category.Name, t.Category.Name, "default_sanction", before.DefaultSanction, t.DefaultSanction,
			"description", before.Description, t.Description, "active", before.Active, t.Active))
	})
	return t, err
}

// InUse counts the recorded violations of a type. The violations table
// arrives with a later feature; until it exists nothing is in use. The
// violations feature must keep this query true to its table (the
// violations.violation_type_id column) — the delete rule depends on it.
func InUse(ctx context.Context, q sqlx.QueryerContext, typeID int64) (int, error) {
	var exists bool
	if err := sqlx.GetContext(ctx, q, &exists, `SELECT to_regclass('violations') IS NOT NULL`); err != nil {
		return 0, fmt.Errorf("violationtype: in use: %w", err)
	}
	if !exists {
		return 0, nil
	}
	var n int
	if err := sqlx.GetContext(ctx, q, &n, `SELECT count(*) FROM violations WHERE violation_type_id = $1`, typeID); err != nil {
		return 0, fmt.Errorf("violationtype: in use: %w", err)
	}
	return n, nil
}

func inUseConflict(name string, n int) error {
	if n > 0 {
		return apperr.New(apperr.Conflict, "violationtype.type.in_use_count", "name", name, "count", n)
	}
	return apperr.New(apperr.Conflict, "violationtype.type.in_use", "name", name)
}

// DeleteType removes a type that is neither a system type nor used by a
// recorded violation.
func (s *Store) DeleteType(ctx context.Context, actor audit.Actor, typeID int64) error {
	return pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		var t Type
		if err := tx.GetContext(ctx, &t, typeSelect+` WHERE t.id = $1 FOR UPDATE OF t`, typeID); err != nil {
			return pg.Error(err, "entity.violation_type")
		}
		if t.IsSystem {
			return apperr.New(apperr.Conflict, "violationtype.type.system_not_deletable", "name", t.Name)
		}
		n, err := InUse(ctx, tx, typeID)
		if err != nil {
			return err
		}
		if n > 0 {
			return inUseConflict(t.Name, n)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM violation_types WHERE id = $1`, typeID); err != nil {
			if isFK(err) {
				return inUseConflict(t.Name, 0)
			}
			return fmt.Errorf("violationtype: delete type: %w", err)
		}
		return audit.Record(ctx, tx, actor, "violation_type.delete", "violation_type", id(t.ID),
			map[string]any{"name": t.Name, "slug": t.Slug, "points": t.Points, "category": t.Category.Name})
	})
}

// ---- thresholds ------------------------------------------------------------

// ListThresholds returns every SP level in order.
func ListThresholds(ctx context.Context, q sqlx.QueryerContext) ([]Threshold, error) {
	out := []Threshold{}
	err := sqlx.SelectContext(ctx, q, &out, `SELECT id, level, name, min_points, colour, default_text, updated_at
		FROM sp_thresholds ORDER BY level`)
	if err != nil {
		return nil, fmt.Errorf("violationtype: thresholds: %w", err)
	}
	return out, nil
}

// ListThresholds returns every SP level in order.
func (s *Store) ListThresholds(ctx context.Context) ([]Threshold, error) {
	return ListThresholds(ctx, s.db)
}

// ReplaceThresholds makes the stored levels exactly in.Thresholds: levels
// are updated in place (their ids stay), new ones added, higher ones removed.
func (s *Store) ReplaceThresholds(ctx context.Context, actor audit.Actor, in ThresholdsInput) ([]Threshold, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	var out []Threshold
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		if _, err := tx.ExecContext(ctx, `LOCK TABLE sp_thresholds IN SHARE ROW EXCLUSIVE MODE`); err != nil {
			return fmt.Errorf("violationtype: lock thresholds: %w", err)
		}
		before, err := ListThresholds(ctx, tx)
		if err != nil {
			return err
		}
		var levels, mins []int64
		var names, colours, texts []string
		for _, t := range in.Thresholds {
			levels, mins = append(levels, int64(t.Level)), append(mins, int64(t.MinPoints))
			names, colours, texts = append(names, t.Name), append(colours, t.Colour), append(texts, t.DefaultText)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM sp_thresholds WHERE level > $1`, len(in.Thresholds)); err != nil {
			return fmt.Errorf("violationtype: thresholds: %w", err)
		}
		const q = `INSERT INTO sp_thresholds (level, name, min_points, colour, default_text)
			SELECT * FROM unnest($1::int[], $2::text[], $3::int[], $4::text[], $5::text[])
			ON CONFLICT (level) DO UPDATE SET name = excluded.name, min_points = excluded.min_points,
				colour = excluded.colour, default_text = excluded.default_text, updated_at = now()`
		if _, err := tx.ExecContext(ctx, q, pq.Array(levels), pq.Array(names), pq.Array(mins), pq.Array(colours), pq.Array(texts)); err != nil {
			return fmt.Errorf("violationtype: thresholds: %w", err)
		}
		if out, err = ListThresholds(ctx, tx); err != nil {
			return err
		}
		summary := func(list []Threshold) []map[string]any {
			r := []map[string]any{}
			for _, t := range list {
				r = append(r, map[string]any{"level": t.Level, "name": t.Name, "min_points": t.MinPoints})
			}
			return r
		}
		return audit.Record(ctx, tx, actor, "sp_threshold.replace", "sp_threshold", "",
			map[string]any{"before": summary(before), "after": summary(out)})
	})
	return out, err
}

// ---- handling types ----------------------------------------------------------

const handlingSelect = `SELECT id, name, sort_order, active, summons_parent, created_at, updated_at FROM handling_types`

// ListHandlingTypes returns the handling types in screen order, optionally
// only active (or inactive) ones.
func (s *Store) ListHandlingTypes(ctx context.Context, active *bool) ([]HandlingType, error) {
	out := []HandlingType{}
	err := s.db.SelectContext(ctx, &out, handlingSelect+` WHERE ($1::boolean IS NULL OR active = $1) ORDER BY sort_order, lower(name), id`, active)
	if err != nil {
		return nil, fmt.Errorf("violationtype: handling types: %w", err)
	}
	return out, nil
}

func getHandlingType(ctx context.Context, q sqlx.QueryerContext, htID int64) (HandlingType, error) {
	var h HandlingType
	err := sqlx.GetContext(ctx, q, &h, handlingSelect+` WHERE id = $1`, htID)
	return h, pg.Error(err, "entity.handling_type")
}

func handlingNameTaken(name string) error {
	return apperr.New(apperr.Invalid, "violationtype.handling.name_taken").
		WithField("name", "violationtype.handling.name_exists", "name", name)
}

// CreateHandlingType stores a new handling type; without sort_order it goes
// last.
func (s *Store) CreateHandlingType(ctx context.Context, actor audit.Actor, in HandlingTypeInput) (HandlingType, error) {
	f := apperr.Fields{}
	validateHandlingType(f, &in, true)
	if err := f.Err(); err != nil {
		return HandlingType{}, err
	}
	var h HandlingType
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		const q = `INSERT INTO handling_types (name, sort_order, active, summons_parent)
			VALUES ($1, coalesce($2, (SELECT coalesce(max(sort_order), 0) + 1 FROM handling_types)), $3, $4)
			RETURNING id, name, sort_order, active, summons_parent, created_at, updated_at`
		summons := in.SummonsParent != nil && *in.SummonsParent
		if err := tx.GetContext(ctx, &h, q, *in.Name, in.SortOrder, in.Active == nil || *in.Active, summons); err != nil {
			if pg.IsUnique(err, "handling_types_name_key") {
				return handlingNameTaken(*in.Name)
			}
			return fmt.Errorf("violationtype: create handling type: %w", err)
		}
		return audit.Record(ctx, tx, actor, "handling_type.create", "handling_type", id(h.ID),
			map[string]any{"name": h.Name, "summons_parent": h.SummonsParent})
	})
	return h, err
}

// UpdateHandlingType changes the present fields of a handling type.
func (s *Store) UpdateHandlingType(ctx context.Context, actor audit.Actor, htID int64, in HandlingTypeInput) (HandlingType, error) {
	f := apperr.Fields{}
	validateHandlingType(f, &in, false)
	if err := f.Err(); err != nil {
		return HandlingType{}, err
	}
	var h HandlingType
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		before, err := getHandlingType(ctx, tx, htID)
		if err != nil {
			return err
		}
		const q = `UPDATE handling_types SET name = coalesce($2, name), sort_order = coalesce($3, sort_order),
			active = coalesce($4, active), summons_parent = coalesce($5, summons_parent), updated_at = now() WHERE id = $1
			RETURNING id, name, sort_order, active, summons_parent, created_at, updated_at`
		if err := tx.GetContext(ctx, &h, q, htID, in.Name, in.SortOrder, in.Active, in.SummonsParent); err != nil {
			if pg.IsUnique(err, "handling_types_name_key") {
				return handlingNameTaken(*in.Name)
			}
			return fmt.Errorf("violationtype: update handling type: %w", err)
		}
		return audit.Record(ctx, tx, actor, "handling_type.update", "handling_type", id(h.ID), changes(
			"name", before.Name, h.Name, "sort_order", before.SortOrder, h.SortOrder, "active", before.Active, h.Active,
			"summons_parent", before.SummonsParent, h.SummonsParent))
	})
	return h, err
}

// DeleteHandlingType removes a handling type. Handling records that refer to
// it (a later feature, by a foreign key without cascade) make it a conflict:
// deactivate it instead.
func (s *Store) DeleteHandlingType(ctx context.Context, actor audit.Actor, htID int64) error {
	return pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		h, err := getHandlingType(ctx, tx, htID)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM handling_types WHERE id = $1`, htID); err != nil {
			if isFK(err) {
				return apperr.New(apperr.Conflict, "violationtype.handling.in_use", "name", h.Name)
			}
			return fmt.Errorf("violationtype: delete handling type: %w", err)
		}
		return audit.Record(ctx, tx, actor, "handling_type.delete", "handling_type", id(h.ID), map[string]any{"name": h.Name})
	})
}
