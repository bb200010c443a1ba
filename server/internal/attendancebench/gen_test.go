package attendancebench_test

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/violationtype"
)

// The school of the benchmark: a public senior high school of 1,500
// students in 40 classes (grades 10-12, three departments; 15 classes of
// 40, the class form's 40 x 10, and 25 of 36), 10 lesson hours a day, 200
// school days of attendance, 30,000 violations. The SQL below spells the
// same numbers out.
const (
	schoolStudents = 1500
	lessonHours    = 10
	schoolDays     = 200
	// sourceBase: student i (1..1500) has student-affairs id sourceBase+i,
	// what the journal sends.
	sourceBase = 100000
)

var jakarta = func() *time.Location {
	l, err := time.LoadLocation("Asia/Jakarta")
	if err != nil {
		panic(err)
	}
	return l
}()

// year is the generated school year.
type year struct {
	// Days are the school days with attendance, oldest first.
	Days []string
	// Free are weekend dates of the last months with nothing stored, newest
	// first: each first push, floor and form save takes its own.
	Free []string
	// Students are the active students (id and student-affairs id), by
	// class then name order of generation.
	Students []student
	// Class40 is a class of 40 students (the form's 40 x 10).
	Class40 int64
	Counts  yearCounts
	Took    time.Duration
	// Steps: how long each statement of the generation took.
	Steps []string
}

type student struct {
	ID       int64 `db:"id"`
	SourceID int64 `db:"source_id"`
	ClassID  int64 `db:"class_id"`
}

type yearCounts struct {
	Attendance int `db:"attendance"`
	Days       int `db:"days"`
	A          int `db:"a"`
	T          int `db:"t"`
	Violations int `db:"violations"`
	Letters    int `db:"letters"`
}

// generate fills db (a fresh migrated database) with a school year ending
// yesterday (Jakarta), set-based: one INSERT ... SELECT per table, then
// VACUUM and ANALYZE. The shape of a day follows the journal simulator's: a few
// students often miss whole days, anyone may skip a run of hours, some are
// sick or excused all day, a quarter are late for the first hour; over the
// year about 10% of hours are A and 5% T. The year's 30,000 violations are
// manual ones (uniforms, hair, leaving class, a few fights), skewed toward
// some students, with the warning letters their totals reached; the
// automatic alpha and late violations of the stored days are not
// generated: at these rates they would be about 150,000 and put every
// student past every threshold, which no school has.
func generate(ctx context.Context, db *sqlx.DB, bkID int64, now time.Time) (*year, error) {
	start := time.Now()
	today := now.In(jakarta)
	yesterday := time.Date(today.Year(), today.Month(), today.Day()-1, 0, 0, 0, 0, time.UTC).Format(time.DateOnly)
	y := &year{}
	err := pg.InTx(ctx, db, func(tx *sqlx.Tx) error {
		if err := violationtype.EnsureDefaults(ctx, tx); err != nil {
			return err
		}
		for _, st := range genStatements {
			t0 := time.Now()
			if _, err := tx.ExecContext(ctx, st.sql, st.args(yesterday, bkID)...); err != nil {
				return fmt.Errorf("generate %s: %w", st.name, err)
			}
			y.Steps = append(y.Steps, fmt.Sprintf("%s %.1fs", st.name, time.Since(t0).Seconds()))
		}
		if err := tx.SelectContext(ctx, &y.Days, `SELECT to_char(date, 'YYYY-MM-DD') FROM bench_days ORDER BY date`); err != nil {
			return err
		}
		// Weekends of the last 40 weeks: nothing stored, never before the
		// previous academic year (the form refuses those).
		const qFree = `SELECT to_char(d, 'YYYY-MM-DD') FROM generate_series($1::date - 280, $1::date, interval '1 day') d
			WHERE extract(isodow FROM d) >= 6 ORDER BY d DESC`
		if err := tx.SelectContext(ctx, &y.Free, qFree, yesterday); err != nil {
			return err
		}
		if err := tx.SelectContext(ctx, &y.Students, `SELECT id, source_id, class_id FROM students ORDER BY class_id, id`); err != nil {
			return err
		}
		return tx.GetContext(ctx, &y.Class40, `SELECT class_id FROM students GROUP BY class_id HAVING count(*) = 40 ORDER BY class_id LIMIT 1`)
	})
	if err != nil {
		return nil, err
	}
	// A school's database is vacuumed as it grows; without it autovacuum
	// would sweep the fresh 3 million rows during the first measurements.
	t0 := time.Now()
	if _, err := db.ExecContext(ctx, `VACUUM (ANALYZE) attendance, attendance_days, violations, warning_letters, students`); err != nil {
		return nil, fmt.Errorf("generate: vacuum: %w", err)
	}
	if _, err := db.ExecContext(ctx, `ANALYZE`); err != nil {
		return nil, fmt.Errorf("generate: analyze: %w", err)
	}
	y.Steps = append(y.Steps, fmt.Sprintf("vacuum and analyze %.1fs", time.Since(t0).Seconds()))
	const qCount = `SELECT (SELECT count(*) FROM attendance) AS attendance, (SELECT count(*) FROM attendance_days) AS days,
		(SELECT coalesce(sum(a), 0) FROM attendance_days) AS a, (SELECT coalesce(sum(t), 0) FROM attendance_days) AS t,
		(SELECT count(*) FROM violations) AS violations, (SELECT count(*) FROM warning_letters) AS letters`
	if err := db.GetContext(ctx, &y.Counts, qCount); err != nil {
		return nil, err
	}
	y.Took = time.Since(start)
	return y, nil
}

type genStatement struct {
	name string
	sql  string
	args func(yesterday string, bkID int64) []any
}

func none(string, int64) []any { return nil }

// genStatements build the year in order, in one transaction; the temporary
// tables go with it.
var genStatements = []genStatement{
	{"departments", `INSERT INTO departments (code, name) VALUES
		('MIPA', 'Matematika dan Ilmu Pengetahuan Alam'), ('IPS', 'Ilmu Pengetahuan Sosial'), ('BHS', 'Bahasa dan Budaya')`, none},
	// 14 classes of grade 10, 13 of 11 and 13 of 12, spread over the
	// departments: "X MIPA 1", "XI IPS 2", ...
	{"homeroom teachers", `INSERT INTO users (username, name, role, password_hash)
		SELECT 'walikelas' || c, 'Wali Kelas ' || c, 'wali_kelas', '!' FROM generate_series(1, 40) c`, none},
	{"classes", `INSERT INTO classes (name, grade, department_id, academic_year, homeroom_teacher_id, source_id)
		SELECT CASE g.grade WHEN 10 THEN 'X' WHEN 11 THEN 'XI' ELSE 'XII' END || ' ' || d.code || ' ' ||
		       row_number() OVER (PARTITION BY g.grade, d.code ORDER BY g.c),
		       g.grade, d.id, '', u.id, 500 + g.c
		FROM (SELECT c, CASE WHEN c <= 14 THEN 10 WHEN c <= 27 THEN 11 ELSE 12 END AS grade FROM generate_series(1, 40) c) g
		JOIN departments d ON d.code = (ARRAY['MIPA', 'MIPA', 'IPS', 'BHS'])[1 + g.c % 4]
		JOIN users u ON u.username = 'walikelas' || g.c
		ORDER BY g.c`, none},
	// Students 1..600 in the first 15 classes (40 each), 601..1500 in the
	// other 25 (36 each).
	{"students", `INSERT INTO students (source_id, nisn, nis, full_name, gender, class_id, active, synced_at)
		SELECT ` + fmt.Sprint(sourceBase) + ` + i, lpad((7100000000 + i * 37)::text, 10, '0'), (24000 + i)::text,
		       (ARRAY['Ahmad', 'Putri', 'Budi', 'Siti', 'Rizky', 'Dewi', 'Fajar', 'Ayu', 'Dimas', 'Nur', 'Bagus', 'Intan',
		              'Yoga', 'Rani', 'Arief', 'Wulan', 'Hendra', 'Lestari', 'Agus', 'Maya'])[1 + i % 20] || ' ' ||
		       (ARRAY['Pratama', 'Wijaya', 'Saputra', 'Lestari', 'Hidayat', 'Kusuma', 'Santoso', 'Rahmawati', 'Nugroho',
		              'Permata', 'Setiawan', 'Anggraini', 'Siregar', 'Harahap', 'Utami'])[1 + (i * 7) % 15] ||
		       CASE WHEN i % 3 = 0 THEN ' ' || (ARRAY['Putra', 'Ramadhan', 'Sari', 'Maulana'])[1 + i % 4] ELSE '' END,
		       CASE WHEN i % 2 = 0 THEN 'P' ELSE 'L' END,
		       c.id, true, now()
		FROM generate_series(1, 1500) i
		JOIN classes c ON c.source_id = 500 + CASE WHEN i <= 600 THEN 1 + (i - 1) / 40 ELSE 16 + (i - 601) / 36 END
		ORDER BY i`, none},
	// The 200 most recent weekdays up to yesterday outside the year-end and
	// mid-year holidays.
	{"days", `CREATE TEMP TABLE bench_days ON COMMIT DROP AS
		SELECT d::date AS date FROM generate_series($1::date - 400, $1::date, interval '1 day') d
		WHERE extract(isodow FROM d) < 6
		  AND to_char(d, 'MM-DD') NOT BETWEEN '06-22' AND '07-12'
		  AND to_char(d, 'MM-DD') < '12-22' AND to_char(d, 'MM-DD') > '01-02'
		ORDER BY d DESC LIMIT 200`, func(y string, _ int64) []any { return []any{y} }},
	// One row per student and day: the day's kind (A absent, S sick, I
	// excused, P present) and, for a present day, a run of skipped hours and
	// how late they came. 8% of students are "often absent".
	{"student days", `CREATE TEMP TABLE bench_sd ON COMMIT DROP AS
		SELECT student_id, date,
		       CASE WHEN r1 < absent THEN 'A' WHEN r1 < absent + 0.03 THEN 'S' WHEN r1 < absent + 0.05 THEN 'I' ELSE 'P' END AS kind,
		       CASE WHEN r2 < 0.21 THEN 1 + floor(r3 * 9)::int ELSE 99 END AS skip_from,
		       1 + floor(r4 * 4)::int AS skip_len,
		       CASE WHEN r5 < 0.34 * 0.45 THEN 2 WHEN r5 < 0.34 THEN 1 ELSE 0 END AS late_to,
		       r6 < 0.06 AS late_break
		FROM (SELECT s.id AS student_id, d.date,
		             CASE WHEN (s.id * 2654435761) % 1000 < 80 THEN 0.55 ELSE 0.01 END AS absent,
		             random() AS r1, random() AS r2, random() AS r3, random() AS r4, random() AS r5, random() AS r6
		      FROM students s CROSS JOIN bench_days d ORDER BY s.id, d.date) x`, none},
	// 3,000,000 rows in key order (the primary key's index grows at its
	// right edge), as the journal would have pushed them after school.
	{"attendance", `INSERT INTO attendance (student_id, date, lesson_hour, status, from_journal, set_by, updated_at, notes)
		SELECT sd.student_id, sd.date, h,
		       CASE sd.kind WHEN 'P' THEN
		           CASE WHEN h >= sd.skip_from AND h < sd.skip_from + sd.skip_len THEN 'A'
		                WHEN h <= sd.late_to OR (h = 5 AND sd.late_break) THEN 'T' ELSE 'H' END
		       ELSE sd.kind END,
		       true, 'journal', (sd.date + time '14:30') AT TIME ZONE 'Asia/Jakarta',
		       CASE sd.kind WHEN 'S' THEN 'Surat dokter' WHEN 'I' THEN 'Izin orang tua' END
		FROM bench_sd sd CROSS JOIN generate_series(1, 10) h`, none},
	{"attendance days", `INSERT INTO attendance_days (student_id, date, h, s, i, a, t)
		SELECT student_id, date, count(*) FILTER (WHERE status = 'H'), count(*) FILTER (WHERE status = 'S'),
		       count(*) FILTER (WHERE status = 'I'), count(*) FILTER (WHERE status = 'A'), count(*) FILTER (WHERE status = 'T')
		FROM attendance GROUP BY student_id, date ORDER BY student_id, date`, none},
	{"violation types", `INSERT INTO violation_types (name, slug, points, category_id, default_sanction)
		SELECT t.name, t.slug, t.points, c.id, t.sanction
		FROM (VALUES ('Atribut seragam tidak lengkap', 'atribut-tidak-lengkap', 5, 'Ringan', 'Teguran lisan'),
		             ('Rambut tidak rapi', 'rambut-tidak-rapi', 5, 'Ringan', 'Teguran lisan'),
		             ('Membuang sampah sembarangan', 'buang-sampah', 3, 'Ringan', 'Membersihkan kelas'),
		             ('Keluar kelas tanpa izin', 'keluar-kelas', 10, 'Sedang', 'Pembinaan wali kelas'),
		             ('Berkelahi', 'berkelahi', 40, 'Berat', 'Panggilan orang tua')) t(name, slug, points, category, sanction)
		JOIN violation_categories c ON c.name = t.category`, none},
	// 30,000 violations on school days between 07:00 and 14:00 Jakarta,
	// students picked with a skew (some often, most rarely); the older ones
	// mostly handled.
	{"violations", `INSERT INTO violations (student_id, class_id, class_name, violation_type_id, occurred_at, occurred_on, points,
		    sanction, location, recorded_by, recorded_by_name, source, handling_status, handled_at)
		SELECT st.id, st.class_id, c.name, vt.id, (v.day + time '07:00' + v.mins * interval '1 minute') AT TIME ZONE 'Asia/Jakarta',
		       v.day, vt.points, vt.default_sanction, 'Kelas', $1, 'Guru BK', 'manual',
		       CASE WHEN v.day < current_date - 30 AND v.hr < 0.8 THEN 'resolved' WHEN v.hr < 0.3 THEN 'in_progress' ELSE 'unhandled' END,
		       CASE WHEN v.day < current_date - 30 AND v.hr < 0.8 THEN (v.day + 3) + time '10:00' END
		FROM (SELECT 1 + floor(1500 * random() ^ 2)::int AS sidx, ds[1 + floor(random() * array_length(ds, 1))::int] AS day,
		             floor(random() * 420)::int AS mins, random() AS tr, random() AS hr
		      FROM generate_series(1, 30000), (SELECT array_agg(date ORDER BY date) AS ds FROM bench_days) days) v
		JOIN students st ON st.source_id = ` + fmt.Sprint(sourceBase) + ` + v.sidx
		JOIN classes c ON c.id = st.class_id
		JOIN violation_types vt ON vt.slug = CASE WHEN v.tr < 0.35 THEN 'atribut-tidak-lengkap' WHEN v.tr < 0.65 THEN 'rambut-tidak-rapi'
		     WHEN v.tr < 0.85 THEN 'buang-sampah' WHEN v.tr < 0.98 THEN 'keluar-kelas' ELSE 'berkelahi' END
		ORDER BY v.day, v.mins`, func(_ string, bk int64) []any { return []any{bk} }},
	// Every level each student's total reached in each academic year (from
	// July 1): delivered in the past year, one letter per level; in this
	// one a single open draft covering them all (one open letter per
	// student and year, docs/points.md).
	{"letters", `WITH t AS (
		    SELECT v.student_id, make_date(extract(year FROM v.occurred_on - interval '6 months')::int, 7, 1) AS ay,
		           sum(v.points) AS total, max(v.occurred_at) AS last_at
		    FROM violations v GROUP BY 1, 2),
		r AS (SELECT t.*, th.level, th.name, th.min_points,
		             t.ay < make_date(extract(year FROM $1::date - interval '6 months')::int, 7, 1) AS past
		      FROM t JOIN sp_thresholds th ON th.min_points <= t.total)
		INSERT INTO warning_letters (student_id, class_id, class_name, level, name, min_points, academic_year_start, points, status,
		    issued_at, delivered_at, levels_covered)
		SELECT r.student_id, st.class_id, c.name, r.level, r.name, r.min_points, r.ay, r.total, 'delivered', r.last_at,
		       r.last_at + interval '7 days', ARRAY[r.level]
		FROM r JOIN students st ON st.id = r.student_id JOIN classes c ON c.id = st.class_id WHERE r.past
		UNION ALL
		SELECT r.student_id, st.class_id, c.name, max(r.level),
		       CASE WHEN count(*) = 1 THEN min(r.name) ELSE (array_agg(r.name ORDER BY r.level))[1] || '–' || max(r.level) END,
		       max(r.min_points), r.ay, r.total, 'draft', r.last_at, NULL, array_agg(r.level ORDER BY r.level)
		FROM r JOIN students st ON st.id = r.student_id JOIN classes c ON c.id = st.class_id WHERE NOT r.past
		GROUP BY r.student_id, st.class_id, c.name, r.ay, r.total, r.last_at`, func(y string, _ int64) []any { return []any{y} }},
}
