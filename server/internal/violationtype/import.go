package violationtype

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/locale"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/xlsximport"
)

// ImportResult says what an import did, or in a preview (DryRun) would do,
// with every data row.
type ImportResult struct {
	DryRun            bool             `json:"dry_run" jsonschema_description:"true when this is a preview: nothing was saved"`
	Created           []ImportCreated  `json:"created"`
	Skipped           []ImportSkipped  `json:"skipped"`
	Rejected          []ImportRejected `json:"rejected"`
	CategoriesCreated []string         `json:"categories_created" jsonschema_description:"categories created (in a preview: that would be created), first spelling in the file"`
	Counts            ImportCounts     `json:"counts"`
}

// ImportCreated is a row that became (in a preview: would become) a type.
// ID is 0 in a preview.
type ImportCreated struct {
	Row      int    `json:"row"`
	ID       int64  `json:"id" jsonschema_description:"0 in a preview"`
	Name     string `json:"name"`
	Category string `json:"category"`
	Points   int    `json:"points"`
	// NewCategory is set when the row's category does not exist yet: a
	// typo shows up here before anything is saved.
	NewCategory bool `json:"new_category" jsonschema_description:"the row's category does not exist yet and is (would be) created"`
}

// Reason is why a row was skipped or rejected: a catalogue key with its
// parameters, and the text rendered in the request's language.
type Reason struct {
	Reason       string         `json:"reason" jsonschema_description:"rendered in the request's language"`
	ReasonCode   string         `json:"reason_code" jsonschema_description:"catalogue key, e.g. violationtype.row.example"`
	ReasonParams map[string]any `json:"reason_params,omitempty"`
}

func reason(key string, kv ...any) Reason {
	return Reason{ReasonCode: key, ReasonParams: locale.Params(kv...)}
}

func (r *Reason) render(lang locale.Lang) {
	r.Reason = locale.Render(lang, r.ReasonCode, r.ReasonParams)
}

// ImportSkipped is a row left out on purpose: a duplicate or an example.
type ImportSkipped struct {
	Row      int    `json:"row"`
	Name     string `json:"name"`
	Category string `json:"category"`
	Reason
}

// ImportRejected is a row that could not be used.
type ImportRejected struct {
	Row  int    `json:"row"`
	Name string `json:"name"`
	Reason
}

// ImportCounts are the sizes of the three lists.
type ImportCounts struct {
	Created  int `json:"created"`
	Skipped  int `json:"skipped"`
	Rejected int `json:"rejected"`
}

// Render fills every reason's text in lang.
func (res *ImportResult) Render(lang locale.Lang) {
	for i := range res.Skipped {
		res.Skipped[i].render(lang)
	}
	for i := range res.Rejected {
		res.Rejected[i].render(lang)
	}
}

// candidate is a row that passed the checks and waits for the database.
type candidate struct {
	row                   int
	category, name        string
	points                int
	sanction, description string
}

// checkRow turns a row into a candidate or a reason to reject it (ok false).
func checkRow(r ImportRow, sys map[string]string) (candidate, Reason, bool) {
	c := candidate{row: r.Num, category: NormalizeName(r.Category), name: NormalizeName(r.Name),
		sanction: cleanText(r.Sanction), description: cleanText(r.Description)}
	switch {
	case r.Formula != "":
		return c, reason("violationtype.row.formula", "cell", r.Formula), false
	case c.name == "":
		return c, reason("violationtype.row.name_required"), false
	case len([]rune(c.name)) > maxTypeName:
		return c, reason("violationtype.row.name_too_long", "max", maxTypeName), false
	case c.category == "":
		return c, reason("violationtype.row.category_required"), false
	case len([]rune(c.category)) > maxCategoryName:
		return c, reason("violationtype.row.category_too_long", "max", maxCategoryName), false
	case len([]rune(c.sanction)) > maxSanction:
		return c, reason("violationtype.row.sanction_too_long", "max", maxSanction), false
	case len([]rune(c.description)) > maxDescription:
		return c, reason("violationtype.row.description_too_long", "max", maxDescription), false
	}
	p, why, ok := parsePoints(r.Points)
	if !ok {
		return c, why, false
	}
	c.points = p
	if slug, ok := systemName(c.name, sys); ok {
		return c, reason("violationtype.row.system_type", "slug", slug), false
	}
	return c, Reason{}, true
}

// parsePoints accepts a whole number 0..MaxPoints; Excel may store 15 as
// "15" or "15.0".
func parsePoints(s string) (int, Reason, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, reason("violationtype.row.points_required"), false
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v != math.Trunc(v) || v < 0 {
		if r := []rune(s); len(r) > 20 {
			s = string(r[:20]) + "…"
		}
		return 0, reason("violationtype.row.points_not_whole", "value", s), false
	}
	if v > MaxPoints {
		return 0, reason("violationtype.row.points_too_high", "max", MaxPoints), false
	}
	return int(v), Reason{}, true
}

// Import creates types from parsed rows in one transaction: rejected rows
// are reported, example rows and duplicates (same name in the same category,
// in the file or stored) are skipped, missing categories are created. With
// dryRun it saves nothing and answers what it would do (the preview).
func (s *Store) Import(ctx context.Context, actor audit.Actor, filename string, rows []ImportRow, dryRun bool) (ImportResult, error) {
	res := ImportResult{DryRun: dryRun, Created: []ImportCreated{}, Skipped: []ImportSkipped{}, Rejected: []ImportRejected{}, CategoriesCreated: []string{}}
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		if err := lock(ctx, tx); err != nil {
			return err
		}
		sys, err := systemNames(ctx, tx)
		if err != nil {
			return err
		}
		st, err := xlsximport.LoadStored(ctx, tx, "violation_categories", "violation_types", nameKey)
		if err != nil {
			return err
		}
		catByKey, catName := st.CategoryID, st.CategoryName

		seen := map[string]int{} // key → row of its first occurrence
		var todo []candidate
		var newCats []string
		newCat := map[string]bool{}
		for _, r := range rows {
			if isExample(r.Name) {
				res.Skipped = append(res.Skipped, ImportSkipped{Row: r.Num, Name: NormalizeName(r.Name), Category: NormalizeName(r.Category),
					Reason: reason("violationtype.row.example")})
				continue
			}
			c, why, ok := checkRow(r, sys)
			if !ok {
				res.Rejected = append(res.Rejected, ImportRejected{Row: r.Num, Name: c.name, Reason: why})
				continue
			}
			ck := nameKey(c.category)
			key := ck + "\x00" + nameKey(c.name)
			if first, dup := seen[key]; dup {
				res.Skipped = append(res.Skipped, ImportSkipped{Row: r.Num, Name: c.name, Category: c.category,
					Reason: reason("violationtype.row.duplicate_in_file", "first", first)})
				continue
			}
			seen[key] = r.Num
			if id, ok := catByKey[ck]; ok {
				c.category = catName[ck]
				if st.Types[xlsximport.TypeKey(id, nameKey(c.name))] {
					res.Skipped = append(res.Skipped, ImportSkipped{Row: r.Num, Name: c.name, Category: c.category,
						Reason: reason("violationtype.row.exists", "category", c.category)})
					continue
				}
			} else if _, planned := catName[ck]; !planned {
				catName[ck] = c.category // the first spelling in the file names the new category
				newCats = append(newCats, c.category)
				newCat[ck] = true
			} else {
				c.category = catName[ck]
			}
			todo = append(todo, c)
		}
		if dryRun {
			for _, c := range todo {
				res.Created = append(res.Created, ImportCreated{Row: c.row, Name: c.name, Category: c.category, Points: c.points,
					NewCategory: newCat[nameKey(c.category)]})
			}
			res.CategoriesCreated = append(res.CategoriesCreated, newCats...)
			res.Counts = ImportCounts{Created: len(res.Created), Skipped: len(res.Skipped), Rejected: len(res.Rejected)}
			return nil
		}

		if len(newCats) > 0 {
			const q = `INSERT INTO violation_categories (name, colour, sort_order)
				SELECT t.name, 'gray', (SELECT coalesce(max(sort_order), 0) FROM violation_categories) + t.ord
				FROM unnest($1::text[]) WITH ORDINALITY AS t(name, ord)
				RETURNING id, name`
			var created []struct {
				ID   int64  `db:"id"`
				Name string `db:"name"`
			}
			if err := tx.SelectContext(ctx, &created, q, pq.Array(newCats)); err != nil {
				return fmt.Errorf("violationtype: import: create categories: %w", err)
			}
			for _, c := range created {
				catByKey[nameKey(c.Name)] = c.ID
			}
			res.CategoriesCreated = newCats
		}

		if len(todo) > 0 {
			taken, err := loadSlugs(ctx, tx)
			if err != nil {
				return err
			}
			var names, slugs, sanctions, descs []string
			var points, catIDs []int64
			for _, c := range todo {
				names, slugs = append(names, c.name), append(slugs, uniqueSlug(Slugify(c.name), taken))
				points, catIDs = append(points, int64(c.points)), append(catIDs, catByKey[nameKey(c.category)])
				sanctions, descs = append(sanctions, c.sanction), append(descs, c.description)
			}
			const q = `INSERT INTO violation_types (name, slug, points, category_id, default_sanction, description)
				SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::bigint[], $5::text[], $6::text[])
				RETURNING id, slug`
			var created []struct {
				ID   int64  `db:"id"`
				Slug string `db:"slug"`
			}
			if err := tx.SelectContext(ctx, &created, q, pq.Array(names), pq.Array(slugs), pq.Array(points),
				pq.Array(catIDs), pq.Array(sanctions), pq.Array(descs)); err != nil {
				return fmt.Errorf("violationtype: import: create types: %w", err)
			}
			idBySlug := make(map[string]int64, len(created))
			for _, c := range created {
				idBySlug[c.Slug] = c.ID
			}
			for i, c := range todo {
				res.Created = append(res.Created, ImportCreated{Row: c.row, ID: idBySlug[slugs[i]], Name: c.name, Category: c.category, Points: c.points,
					NewCategory: newCat[nameKey(c.category)]})
			}
		}
		res.Counts = ImportCounts{Created: len(res.Created), Skipped: len(res.Skipped), Rejected: len(res.Rejected)}
		ids := make([]int64, 0, len(res.Created))
		for _, c := range res.Created {
			ids = append(ids, c.ID)
		}
		return audit.Record(ctx, tx, actor, "violation_type.import", "violation_type", "", map[string]any{
			"file": filename, "created": res.Counts.Created, "skipped": res.Counts.Skipped, "rejected": res.Counts.Rejected,
			"categories_created": res.CategoriesCreated, "type_ids": ids})
	})
	if pg.IsUnique(err, "") {
		// A form saved the same category or type while the import ran.
		return ImportResult{}, apperr.New(apperr.Conflict, "violationtype.import.changed_meanwhile")
	}
	if err != nil {
		return ImportResult{}, err
	}
	return res, nil
}
