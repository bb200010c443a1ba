package achievement

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/locale"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/violationtype"
	"github.com/tatib/tatib/server/internal/xlsximport"
	"github.com/tatib/tatib/server/internal/xlsxw"
	"github.com/tatib/tatib/shared/api"
)

// The import's columns: kategori, nama, one column of points per level,
// deskripsi. The file is read with the violation-type import's checks and
// limits (violationtype.SheetRows).
const (
	colCategory = iota
	colName
	colSekolah
	colKabupaten
	colProvinsi
	colNasional
	colInternasional
	colDescription
	numCols
)

var headerAliases = map[string]int{
	"kategori": colCategory, "category": colCategory,
	"nama": colName, "name": colName,
	"sekolah": colSekolah, "school": colSekolah,
	"kabupaten": colKabupaten, "kabupaten/kota": colKabupaten, "kota": colKabupaten, "regency": colKabupaten,
	"provinsi": colProvinsi, "province": colProvinsi,
	"nasional": colNasional, "national": colNasional,
	"internasional": colInternasional, "international": colInternasional,
	"deskripsi": colDescription, "description": colDescription,
}

var colLabels = [numCols]string{"kategori", "nama", "sekolah", "kabupaten/kota", "provinsi", "nasional", "internasional", "deskripsi"}

// TemplateFilename is the download name of the import template.
const TemplateFilename = "templat-jenis-prestasi.xlsx"

// header maps the header row: kategori, nama and at least one level are
// required, none twice.
var header = xlsximport.Header{
	Aliases: headerAliases, Labels: colLabels[:],
	Key:      func(c string) string { return strings.ReplaceAll(violationtype.NameKey(c), " ", "") },
	Required: [][]int{{colCategory}, {colName}, {colSekolah, colKabupaten, colProvinsi, colNasional, colInternasional}},
	Twice:    "achievement.import.header_twice", Missing: "achievement.import.headers_missing",
}

func mapHeader(cells []string) ([numCols]int, error) {
	cols, err := header.Map(cells)
	return [numCols]int(cols), err
}

type importCandidate struct {
	row      api.AchievementImportRow
	category int64
	name     string
	points   api.LevelPoints
	desc     string
}

// Import reads an .xlsx of achievement types and creates the new ones in
// one transaction; a row naming a type its category already holds (or an
// earlier row held) is skipped, a bad row refused with its reason. dryRun
// answers the same without saving (the preview).
func (s *Store) Import(ctx context.Context, actor audit.Actor, lang locale.Lang, filename string, data []byte, dryRun bool) (api.AchievementImportResult, error) {
	res := api.AchievementImportResult{DryRun: dryRun, Created: []api.AchievementImportRow{}, Skipped: []api.AchievementImportRow{}, Rejected: []api.AchievementImportRow{}}
	rows, err := violationtype.SheetRows(data)
	if err != nil {
		return res, err
	}
	cols, err := mapHeader(rows[0].Cells)
	if err != nil {
		return res, err
	}
	reason := func(r *api.AchievementImportRow, key string, kv ...any) {
		r.Code, r.Reason = key, locale.Render(lang, key, locale.Params(kv...))
	}
	err = pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		// One import at a time: two imports of one file create each type once.
		if _, err := tx.ExecContext(ctx, `LOCK TABLE achievement_types IN SHARE ROW EXCLUSIVE MODE`); err != nil {
			return fmt.Errorf("achievement: import lock: %w", err)
		}
		st, err := xlsximport.LoadStored(ctx, tx, "achievement_categories", "achievement_types", violationtype.NameKey)
		if err != nil {
			return err
		}
		catByKey, taken := st.CategoryID, st.Types
		key := func(cat int64, name string) string { return xlsximport.TypeKey(cat, violationtype.NameKey(name)) }
		var add []importCandidate
		for _, sr := range rows[1:] {
			cell := func(c int) string {
				if i := cols[c]; i >= 0 && i < len(sr.Cells) {
					return strings.TrimSpace(sr.Cells[i])
				}
				return ""
			}
			r := api.AchievementImportRow{Row: sr.Num, Category: violationtype.NormalizeName(cell(colCategory)), Name: violationtype.NormalizeName(cell(colName))}
			if violationtype.IsExample(r.Name) {
				continue
			}
			cand := importCandidate{row: r, name: r.Name, desc: violationtype.CleanText(cell(colDescription))}
			catID, ok := catByKey[violationtype.NameKey(r.Category)]
			bad := ""
			var badKV []any
			switch {
			case r.Name == "":
				bad = "achievement.import.name_required"
			case utf8.RuneCountInString(r.Name) > maxTypeName:
				bad, badKV = "achievement.type.name_too_long", []any{"max", maxTypeName}
			case !ok:
				bad, badKV = "achievement.import.category_unknown", []any{"category", r.Category}
			case utf8.RuneCountInString(cand.desc) > maxDescription:
				bad, badKV = "achievement.description_too_long", []any{"max", maxDescription}
			}
			cand.category = catID
			if bad == "" {
				targets := []**int{&cand.points.Sekolah, &cand.points.Kabupaten, &cand.points.Provinsi, &cand.points.Nasional, &cand.points.Internasional}
				for i, c := range []int{colSekolah, colKabupaten, colProvinsi, colNasional, colInternasional} {
					v := cell(c)
					if v == "" {
						continue
					}
					n, err := strconv.Atoi(strings.TrimSuffix(v, ".0"))
					if err != nil || n < 0 || n > MaxPoints {
						bad, badKV = "achievement.import.points_invalid", []any{"column", colLabels[c], "max", MaxPoints}
						break
					}
					*targets[i] = &n
				}
			}
			if bad == "" {
				f := apperr.Fields{}
				validatePoints(f, &cand.points)
				if len(f) > 0 {
					bad = "achievement.type.points_required"
				}
			}
			if bad != "" {
				reason(&r, bad, badKV...)
				res.Rejected = append(res.Rejected, r)
				continue
			}
			if k := key(catID, r.Name); taken[k] {
				reason(&r, "achievement.import.duplicate")
				res.Skipped = append(res.Skipped, r)
				continue
			} else {
				taken[k] = true
			}
			res.Created = append(res.Created, r)
			add = append(add, cand)
		}
		if dryRun || len(add) == 0 {
			return nil
		}
		n := len(add)
		catIDs, names, descs := make([]int64, n), make([]string, n), make([]string, n)
		pts := make([][]*int, 5)
		for i := range pts {
			pts[i] = make([]*int, n)
		}
		for i, c := range add {
			catIDs[i], names[i], descs[i] = c.category, c.name, c.desc
			for j, v := range []*int{c.points.Sekolah, c.points.Kabupaten, c.points.Provinsi, c.points.Nasional, c.points.Internasional} {
				pts[j][i] = v
			}
		}
		arr := func(v []*int) any {
			out := make([]any, len(v))
			for i, p := range v {
				if p != nil {
					out[i] = int64(*p)
				}
			}
			return pq.Array(out)
		}
		const q = `INSERT INTO achievement_types (category_id, name, description, points_sekolah, points_kabupaten, points_provinsi, points_nasional, points_internasional)
			SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::int[], $5::int[], $6::int[], $7::int[], $8::int[])`
		if _, err := tx.ExecContext(ctx, q, pq.Array(catIDs), pq.Array(names), pq.Array(descs),
			arr(pts[0]), arr(pts[1]), arr(pts[2]), arr(pts[3]), arr(pts[4])); err != nil {
			return fmt.Errorf("achievement: import insert: %w", err)
		}
		return audit.Record(ctx, tx, actor, "achievement_type.import", "achievement_type", "",
			map[string]any{"file": filename, "created": n, "skipped": len(res.Skipped), "rejected": len(res.Rejected)})
	})
	return res, err
}

// Template builds the import template in lang: the header row and example
// rows (marked "Contoh:", never imported).
func Template(lang locale.Lang) ([]byte, error) {
	t := func(key string, kv ...any) string { return locale.Render(lang, key, locale.Params(kv...)) }
	ex := t("achievement.template.example_prefix") + " "
	return xlsximport.Template{
		Sheet: t("achievement.template.sheet"),
		Columns: []xlsxw.Column{
			{Title: "kategori", Width: 16}, {Title: "nama", Width: 48},
			{Title: "sekolah", Width: 10}, {Title: "kabupaten/kota", Width: 14},
			{Title: "provinsi", Width: 10}, {Title: "nasional", Width: 10},
			{Title: "internasional", Width: 14}, {Title: "deskripsi", Width: 40},
		},
		Examples: [][]any{
			{"Akademik", ex + t("achievement.template.example1"), 10, 20, 30, 50, 75, ""},
			{"Non-akademik", ex + t("achievement.template.example2"), 10, 20, 30, 50, 75, ""},
			{"Sikap/Karakter", ex + t("achievement.template.example3"), 5, "", "", "", "", ""},
		},
		HelpSheet: t("achievement.template.help_sheet"),
		Help: []string{t("achievement.template.help_columns"), t("achievement.template.help_points", "max", MaxPoints),
			t("achievement.template.help_duplicates"), t("achievement.template.help_examples", "prefix", strings.TrimSpace(ex))},
	}.Build()
}
