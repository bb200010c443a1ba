package violationtype

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// writeLock serialises changes that assign slugs or create defaults, so two
// replicas booting at once, or an import racing a form, never pick the same
// slug. Master data changes rarely; the wait is negligible.
const writeLockSQL = `SELECT pg_advisory_xact_lock(hashtext('tatib.violationtype'))`

func lock(ctx context.Context, q sqlx.ExecerContext) error {
	if _, err := q.ExecContext(ctx, writeLockSQL); err != nil {
		return fmt.Errorf("violationtype: lock: %w", err)
	}
	return nil
}

type defaultCategory struct {
	Name, Colour string
}

// DefaultCategories are created when the categories table is empty.
var DefaultCategories = []defaultCategory{
	{"Ringan", "yellow"},
	{"Sedang", "orange"},
	{"Berat", "red"},
}

// DefaultThresholds are created when the thresholds table is empty.
var DefaultThresholds = []Threshold{
	{Level: 1, Name: "SP 1", MinPoints: 50, Colour: "yellow", DefaultText: "Berdasarkan catatan tata tertib sekolah, siswa tersebut telah mengumpulkan poin pelanggaran yang mencapai batas Surat Peringatan 1 (SP 1). " +
		"Kami mengharapkan perhatian dan kerja sama Bapak/Ibu orang tua/wali untuk membimbing putra/putri Bapak/Ibu agar tidak mengulangi pelanggaran dan lebih mematuhi tata tertib sekolah."},
	{Level: 2, Name: "SP 2", MinPoints: 100, Colour: "orange", DefaultText: "Meskipun telah menerima Surat Peringatan 1, siswa tersebut masih melakukan pelanggaran sehingga poinnya mencapai batas Surat Peringatan 2 (SP 2). " +
		"Dengan ini kami mengundang Bapak/Ibu orang tua/wali untuk hadir ke sekolah guna membicarakan pembinaan bersama guru BK dan wali kelas."},
	{Level: 3, Name: "SP 3", MinPoints: 150, Colour: "red", DefaultText: "Poin pelanggaran siswa tersebut telah mencapai batas Surat Peringatan 3 (SP 3), peringatan terakhir dari sekolah. " +
		"Bapak/Ibu orang tua/wali wajib hadir ke sekolah. Apabila pelanggaran berulang, sekolah akan mengambil tindakan sesuai tata tertib, termasuk pengembalian siswa kepada orang tua."},
}

// DefaultHandlingTypes are created when the handling types table is empty.
var DefaultHandlingTypes = []string{
	"Teguran Lisan", "Teguran Tertulis", "Pembinaan BK", "Panggilan Orang Tua",
	"Home Visit", "Skorsing", "Tugas Sosial", "Lainnya",
}

// DefaultSummonsHandlingTypes are the default handling types that summon
// the parent (summons_parent): recording one queues the summons message.
var DefaultSummonsHandlingTypes = []string{"Panggilan Orang Tua"}

// Preset is a violation type Tatib creates itself: the system types, and a
// school's starting list (the demo school's, internal/demo).
type Preset struct {
	Category, Name, Slug  string
	Points                int
	Sanction, Description string
}

// SystemTypes always exist; they are placed in the category named Ringan
// (or the first category when an admin renamed it).
var SystemTypes = []Preset{
	{"Ringan", "Alpha", SlugAlpha, 15, "Pembinaan oleh wali kelas",
		"Tidak hadir tanpa keterangan. Dicatat otomatis dari absensi: poin per hari = poin ÷ 10 × jam alpha, dibulatkan, minimal 1."},
	{"Ringan", "Terlambat", SlugTerlambat, 2, "Teguran lisan",
		"Terlambat datang ke sekolah. Dicatat otomatis dari absensi dengan poin tetap."},
}

// EnsureDefaults creates the default master data that is missing, through q
// (a transaction; it takes an advisory lock for the rest of it):
//   - categories, SP thresholds and handling types only when their table is
//     empty, so a default an admin deliberately deleted or renamed is not
//     brought back on the next start;
//   - the system types alpha and terlambat whenever they are missing, since
//     attendance needs them.
//
// It is idempotent. The boot calls it on every start; the application reset
// calls it after emptying the tables, which re-creates every default.
func EnsureDefaults(ctx context.Context, q sqlx.ExtContext) error {
	if err := lock(ctx, q); err != nil {
		return err
	}
	var names, colours []string
	var orders []int64
	for i, c := range DefaultCategories {
		names, colours, orders = append(names, c.Name), append(colours, c.Colour), append(orders, int64(i+1))
	}
	const qCat = `INSERT INTO violation_categories (name, colour, sort_order)
		SELECT * FROM unnest($1::text[], $2::text[], $3::int[])
		WHERE NOT EXISTS (SELECT 1 FROM violation_categories)`
	if _, err := q.ExecContext(ctx, qCat, pq.Array(names), pq.Array(colours), pq.Array(orders)); err != nil {
		return fmt.Errorf("violationtype: default categories: %w", err)
	}

	var levels, mins []int64
	var tnames, tcolours, texts []string
	for _, t := range DefaultThresholds {
		levels, mins = append(levels, int64(t.Level)), append(mins, int64(t.MinPoints))
		tnames, tcolours, texts = append(tnames, t.Name), append(tcolours, t.Colour), append(texts, t.DefaultText)
	}
	const qThr = `INSERT INTO sp_thresholds (level, name, min_points, colour, default_text)
		SELECT * FROM unnest($1::int[], $2::text[], $3::int[], $4::text[], $5::text[])
		WHERE NOT EXISTS (SELECT 1 FROM sp_thresholds)`
	if _, err := q.ExecContext(ctx, qThr, pq.Array(levels), pq.Array(tnames), pq.Array(mins), pq.Array(tcolours), pq.Array(texts)); err != nil {
		return fmt.Errorf("violationtype: default thresholds: %w", err)
	}

	const qHand = `INSERT INTO handling_types (name, sort_order, summons_parent)
		SELECT name, ord, name = ANY($2::text[]) FROM unnest($1::text[]) WITH ORDINALITY AS t(name, ord)
		WHERE NOT EXISTS (SELECT 1 FROM handling_types)`
	if _, err := q.ExecContext(ctx, qHand, pq.Array(DefaultHandlingTypes), pq.Array(DefaultSummonsHandlingTypes)); err != nil {
		return fmt.Errorf("violationtype: default handling types: %w", err)
	}

	var snames, slugs, sanctions, descs []string
	var points []int64
	for _, t := range SystemTypes {
		snames, slugs, points = append(snames, t.Name), append(slugs, t.Slug), append(points, int64(t.Points))
		sanctions, descs = append(sanctions, t.Sanction), append(descs, t.Description)
	}
	// A missing system type whose default name is taken in its category
	// (an admin's own "Alpha") gets the slug as its name instead.
	const qSys = `INSERT INTO violation_types (name, slug, points, category_id, default_sanction, description, is_system)
		SELECT CASE WHEN EXISTS (SELECT 1 FROM violation_types v WHERE v.category_id = c.id AND lower(v.name) = lower(t.name))
		            THEN t.slug ELSE t.name END,
		       t.slug, t.points, c.id, t.sanction, t.description, true
		FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[]) AS t(name, slug, points, sanction, description)
		CROSS JOIN LATERAL (SELECT id FROM violation_categories
		                    ORDER BY lower(name) = 'ringan' DESC, sort_order, id LIMIT 1) c
		WHERE NOT EXISTS (SELECT 1 FROM violation_types v WHERE v.slug = t.slug)`
	if _, err := q.ExecContext(ctx, qSys, pq.Array(snames), pq.Array(slugs), pq.Array(points), pq.Array(sanctions), pq.Array(descs)); err != nil {
		return fmt.Errorf("violationtype: system types: %w", err)
	}
	const qMark = `UPDATE violation_types SET is_system = true, active = true, updated_at = now()
		WHERE slug = ANY($1) AND (NOT is_system OR NOT active)`
	if _, err := q.ExecContext(ctx, qMark, pq.Array(SystemSlugs)); err != nil {
		return fmt.Errorf("violationtype: system types: %w", err)
	}
	return nil
}

// EnsureList adds types when there is no non-system type yet (a fresh
// database), so an admin's own list is never touched. Missing default
// categories are created for them; a type whose category is not among
// them, nor already there, is skipped.
func EnsureList(ctx context.Context, q sqlx.ExtContext, types []Preset) error {
	if err := lock(ctx, q); err != nil {
		return err
	}
	var has bool
	if err := sqlx.GetContext(ctx, q, &has, `SELECT EXISTS (SELECT 1 FROM violation_types WHERE NOT is_system)`); err != nil {
		return fmt.Errorf("violationtype: list: %w", err)
	}
	if has {
		return nil
	}
	var cnames, ccolours []string
	for _, c := range DefaultCategories {
		cnames, ccolours = append(cnames, c.Name), append(ccolours, c.Colour)
	}
	const qCat = `INSERT INTO violation_categories (name, colour, sort_order)
		SELECT t.name, t.colour, (SELECT coalesce(max(sort_order), 0) FROM violation_categories) + t.ord
		FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS t(name, colour, ord)
		ON CONFLICT DO NOTHING`
	if _, err := q.ExecContext(ctx, qCat, pq.Array(cnames), pq.Array(ccolours)); err != nil {
		return fmt.Errorf("violationtype: list categories: %w", err)
	}
	taken, err := loadSlugs(ctx, q)
	if err != nil {
		return err
	}
	var cats, names, slugs, sanctions, descs []string
	var points []int64
	for _, t := range types {
		cats, names, points = append(cats, t.Category), append(names, t.Name), append(points, int64(t.Points))
		slugs = append(slugs, uniqueSlug(Slugify(t.Name), taken))
		sanctions, descs = append(sanctions, t.Sanction), append(descs, t.Description)
	}
	const qTypes = `INSERT INTO violation_types (name, slug, points, category_id, default_sanction, description)
		SELECT t.name, t.slug, t.points, c.id, t.sanction, t.description
		FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::text[], $6::text[])
		     AS t(category, name, slug, points, sanction, description)
		JOIN violation_categories c ON lower(c.name) = lower(t.category)
		ON CONFLICT DO NOTHING`
	if _, err := q.ExecContext(ctx, qTypes, pq.Array(cats), pq.Array(names), pq.Array(slugs), pq.Array(points), pq.Array(sanctions), pq.Array(descs)); err != nil {
		return fmt.Errorf("violationtype: list types: %w", err)
	}
	return nil
}
