package demo_test

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/demo"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/pg/pgtest"
	journalsim "github.com/tatib/tatib/server/internal/sim/journal"
	"github.com/tatib/tatib/server/internal/violation"
)

// demoDB is a database with the demo school loaded as of now.
func demoDB(t *testing.T, now time.Time) *sqlx.DB {
	t.Helper()
	ctx := context.Background()
	db := pgtest.New(t)
	must(t, pg.InTx(ctx, db, func(tx *sqlx.Tx) error {
		return demo.TypesTx(ctx, tx)
	}))
	res, err := demo.LoadSchool(ctx, db, slog.New(slog.NewTextHandler(io.Discard, nil)), io.Discard, demo.SchoolOptions{Now: now})
	if err != nil || !res.Loaded {
		t.Fatalf("demo school: %+v %v", res, err)
	}
	return db
}

func loadDemoViolations(t *testing.T, db *sqlx.DB, now time.Time) demo.ViolationResult {
	t.Helper()
	res, err := demo.LoadViolations(context.Background(), db, slog.New(slog.NewTextHandler(io.Discard, nil)), demo.ViolationOptions{Now: now})
	if err != nil || !res.Loaded {
		t.Fatalf("demo violations: %+v %v", res, err)
	}
	t.Logf("demo violations: %d violations, %d handling records, %d letters in %v", res.Violations, res.Handlings, res.Letters, res.Took)
	return res
}

func count(t *testing.T, db *sqlx.DB, q string, args ...any) int {
	t.Helper()
	var n int
	must(t, db.Get(&n, q, args...))
	return n
}

// TestDemo: the demo school gets a plausible semester of violations: most
// students with none or a few, some at SP 1, a few at SP 2, exactly one at
// SP 3, all of them punctual in the demo's attendance; handling states
// mixed and consistent, tens of cases open; letters at every status;
// school days and hours in Jakarta; one point-audit entry per violation.
// A second load does nothing.
func TestDemo(t *testing.T) {
	t.Parallel()
	jakarta, err := time.LoadLocation("Asia/Jakarta")
	must(t, err)
	// Mid-semester (the academic year began in July) and right after the
	// year began (the window reaches into the previous year).
	for name, now := range map[string]time.Time{
		"MidYear":   time.Date(2026, 3, 18, 11, 30, 0, 0, jakarta),
		"YearStart": time.Date(2026, 7, 8, 9, 0, 0, 0, jakarta),
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			db := demoDB(t, now)
			res := loadDemoViolations(t, db, now)

			n := count(t, db, `SELECT count(*) FROM violations`)
			if n != res.Violations || n < 800 || n > 3000 {
				t.Fatalf("violations: %d (result %d), want 800–3000", n, res.Violations)
			}
			if a := count(t, db, `SELECT count(*) FROM point_audit WHERE action = 'record'`); a != n {
				t.Fatalf("point audit entries %d, violations %d", a, n)
			}
			none := count(t, db, `SELECT count(*) FROM students s WHERE NOT EXISTS (SELECT 1 FROM violations v WHERE v.student_id = s.id)`)
			if none < 500 || none > 900 {
				t.Fatalf("students without violations: %d of 1200", none)
			}

			// Dates: within the last five months, Monday to Saturday, 07:00–14:00
			// Jakarta, never in the future.
			from := now.AddDate(0, -5, 0).Format(time.DateOnly)
			bad := count(t, db, `SELECT count(*) FROM violations WHERE occurred_on < $1::date OR occurred_at > $2
				OR extract(isodow FROM occurred_on) = 7
				OR occurred_on <> (occurred_at AT TIME ZONE 'Asia/Jakarta')::date
				OR (occurred_at AT TIME ZONE 'Asia/Jakarta')::time NOT BETWEEN '07:00' AND '14:00'
				OR location NOT IN ('Kantin', 'Gerbang sekolah', 'Kelas', 'Lapangan', 'Toilet', 'Parkiran')
				OR description = '' OR created_at < occurred_at OR created_at > $2`, from, now)
			if bad != 0 {
				t.Fatalf("%d violations outside school days and hours, the window, or without a place and a description", bad)
			}

			// Letters: each level reached by the students RecordTx says, the SP 3
			// to exactly one student, every status present.
			var perLevel []struct {
				Level    int `db:"level"`
				Students int `db:"students"`
			}
			must(t, db.Select(&perLevel, `SELECT level, count(DISTINCT student_id) AS students FROM warning_letters
				WHERE status <> 'withdrawn' GROUP BY level ORDER BY level`))
			if len(perLevel) != 3 || perLevel[0].Students < 10 || perLevel[1].Students < 2 || perLevel[2].Students != 1 {
				t.Fatalf("letters per level: %+v", perLevel)
			}
			for _, st := range []string{"draft", "printed", "signed", "delivered"} {
				if c := count(t, db, `SELECT count(*) FROM warning_letters WHERE status = $1`, st); c == 0 {
					t.Fatalf("no %s letter", st)
				}
			}
			if c := count(t, db, `SELECT count(*) FROM warning_letters w WHERE w.issued_at > $1
				OR (w.status IN ('printed', 'signed', 'delivered')) <> (w.printed_at IS NOT NULL)
				OR (w.status IN ('signed', 'delivered')) <> (w.signed_at IS NOT NULL)
				OR (w.status = 'delivered') <> (w.delivered_at IS NOT NULL)
				OR w.printed_at < w.issued_at OR w.signed_at < w.printed_at OR w.delivered_at < w.signed_at
				OR (SELECT count(*) FROM warning_letter_events e WHERE e.letter_id = w.id AND e.status <> 'raised')
				   <> 1 + (w.printed_at IS NOT NULL)::int + (w.signed_at IS NOT NULL)::int + (w.delivered_at IS NOT NULL)::int
				OR EXISTS (SELECT 1 FROM warning_letter_events e WHERE e.letter_id = w.id AND e.status = 'raised' AND (e.at < w.issued_at OR e.at > $1))`, now); c != 0 {
				t.Fatalf("%d letters with times or events that do not match their status", c)
			}
			// One open letter per student, every level reached covered once.
			if c := count(t, db, `SELECT count(*) FROM (SELECT student_id FROM warning_letters WHERE status IN ('draft', 'printed', 'signed')
				GROUP BY student_id HAVING count(*) > 1) x`); c != 0 {
				t.Fatalf("%d students with more than one open letter", c)
			}
			if c := count(t, db, `SELECT count(*) FROM (SELECT student_id, l FROM warning_letters, unnest(levels_covered) l
				WHERE status <> 'withdrawn' GROUP BY 1, 2 HAVING count(*) > 1) x`); c != 0 {
				t.Fatalf("%d levels covered twice", c)
			}

			// Notifications date from their violations; only the last
			// days' stay unread.
			if c := count(t, db, `SELECT count(*) FROM notifications`); c == 0 {
				t.Fatal("the demo violations notified nobody")
			}
			if c := count(t, db, `SELECT count(*) FROM notifications n JOIN violations v ON v.id = n.violation_id
				WHERE n.created_at <> v.created_at OR (n.read_at IS NULL AND v.created_at < now() - interval '3 days')`); c != 0 {
				t.Fatalf("%d demo notifications not dated from their violation, or old and unread", c)
			}

			// The students with letters are punctual in the demo's
			// attendance, which is loaded next and so never raises one
			// (the demo promises exactly one SP 3).
			var lettered []int64
			must(t, db.Select(&lettered, `SELECT DISTINCT s.source_id FROM warning_letters w JOIN students s ON s.id = w.student_id`))
			for _, src := range lettered {
				if !journalsim.HabitOf(demo.Seed, src).Punctual {
					t.Fatalf("student %d has a letter from behaviour but is not punctual in the demo's attendance", src)
				}
			}

			// Standing: the students with letters are at that level in the
			// academic year their violations fall in.
			var sp3 int64
			must(t, db.Get(&sp3, `SELECT student_id FROM warning_letters WHERE level = 3`))
			var day time.Time
			must(t, db.Get(&day, `SELECT max(occurred_at) FROM violations WHERE student_id = $1`, sp3))
			p, err := violation.Points(context.Background(), db, sp3, day)
			must(t, err)
			if p.Level != 3 || p.Total < 150 || p.Total >= 200 {
				t.Fatalf("SP 3 student's standing: %+v", p)
			}
			if name == "MidYear" {
				p, err := violation.Points(context.Background(), db, sp3, now)
				must(t, err)
				if p.Level != 3 {
					t.Fatalf("SP 3 student's standing today: %+v", p)
				}
			}

			// Handling: every state present, the counselors' open queue
			// tens of cases (mostly the last week's), not hundreds;
			// records exactly where the state says so, resolved ones with
			// who and when.
			for _, st := range []string{"in_progress", "resolved"} {
				if c := count(t, db, `SELECT count(*) FROM violations WHERE handling_status = $1`, st); c < n/20 {
					t.Fatalf("%d %s violations of %d", c, st, n)
				}
			}
			if c := count(t, db, `SELECT count(*) FROM violations WHERE handling_status = 'unhandled'`); c < 10 || c > 99 {
				t.Fatalf("%d unhandled violations of %d, want tens", c, n)
			}
			if c := count(t, db, `SELECT count(*) FROM violations v WHERE
				(v.handling_status = 'unhandled') = EXISTS (SELECT 1 FROM handlings h WHERE h.violation_id = v.id)
				OR (v.handling_status = 'resolved') <> (v.handled_at IS NOT NULL AND v.handled_by IS NOT NULL)
				OR v.handled_at > $1`, now); c != 0 {
				t.Fatalf("%d violations whose handling state does not match their records", c)
			}
			if c := count(t, db, `SELECT count(*) FROM handlings h WHERE h.created_at > $1 OR h.handled_on > $1::date
				OR NOT EXISTS (SELECT 1 FROM handling_participants p WHERE p.handling_id = h.id AND p.role = 'Siswa')
				OR NOT EXISTS (SELECT 1 FROM handling_participants p WHERE p.handling_id = h.id AND p.user_id IS NOT NULL)`, now); c != 0 {
				t.Fatalf("%d handling records in the future or without the student and a staff member", c)
			}
			if c := count(t, db, `SELECT count(*) FROM violations WHERE verified_at IS NOT NULL`); c == 0 || c > n/4 {
				t.Fatalf("%d verified of %d", c, n)
			}

			// Once only, even after every violation is gone.
			again, err := demo.LoadViolations(context.Background(), db, slog.New(slog.NewTextHandler(io.Discard, nil)), demo.ViolationOptions{Now: now})
			if err != nil || again.Loaded {
				t.Fatalf("second load: %+v %v", again, err)
			}
			_, err = db.Exec(`DELETE FROM warning_letters; DELETE FROM violations`)
			must(t, err)
			again, err = demo.LoadViolations(context.Background(), db, slog.New(slog.NewTextHandler(io.Discard, nil)), demo.ViolationOptions{Now: now})
			if err != nil || again.Loaded || count(t, db, `SELECT count(*) FROM violations`) != 0 {
				t.Fatalf("load after deleting everything: %+v %v", again, err)
			}
		})
	}
}

// TestDemoDeterministic: the same seed and day give the same violations.
func TestDemoDeterministic(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 2, 10, 13, 0, 0, 0, time.UTC)
	var sums [2]string
	for i := range sums {
		db := demoDB(t, now)
		loadDemoViolations(t, db, now)
		must(t, db.Get(&sums[i], `SELECT md5(string_agg(concat_ws('|', s.source_id, v.violation_type_id, v.occurred_at, v.points,
			v.location, v.handling_status, v.verified_at IS NOT NULL), ',' ORDER BY v.id))
			FROM violations v JOIN students s ON s.id = v.student_id`))
	}
	if sums[0] != sums[1] {
		t.Fatalf("two loads differ: %s %s", sums[0], sums[1])
	}
}

// TestDemoNotWithoutDemoSchool: a real school (no demo school loaded) gets
// no demo violations.
func TestDemoNotWithoutDemoSchool(t *testing.T) {
	t.Parallel()
	db := pgtest.New(t)
	res, err := demo.LoadViolations(context.Background(), db, slog.New(slog.NewTextHandler(io.Discard, nil)), demo.ViolationOptions{})
	if err != nil || res.Loaded || count(t, db, `SELECT count(*) FROM settings WHERE key = 'demo_violations'`) != 0 {
		t.Fatalf("%+v %v", res, err)
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
