package attendance_test

import (
	"context"
	"fmt"
	"math/rand"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/attendance"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/pg/pgtest"
	"github.com/tatib/tatib/server/internal/violationtype"
)

// BenchmarkApplyDay stores a whole school day (1,500 students × 10 hours,
// ~10% A, ~5% T) through ApplyTx, each iteration a new day, and prints
// the bare set-based upsert of the same rows (the floor) beside it.
// The real figure is make bench's, through HTTP.
func BenchmarkApplyDay(b *testing.B) {
	ctx := context.Background()
	db := pgtest.New(b)
	must(b, pg.InTx(ctx, db, func(tx *sqlx.Tx) error { return violationtype.EnsureDefaults(ctx, tx) }))
	var class int64
	must(b, db.Get(&class, `INSERT INTO classes (name, grade) VALUES ('X', 10) RETURNING id`))
	var students []int64
	must(b, db.Select(&students, `INSERT INTO students (source_id, full_name, class_id)
		SELECT g, 'Siswa ' || g, $1 FROM generate_series(1, 1500) g RETURNING id`, class))
	rng := rand.New(rand.NewSource(1))
	dayEntries := func(date string) []attendance.Entry {
		out := make([]attendance.Entry, 0, len(students)*10)
		for _, st := range students {
			for h := 1; h <= 10; h++ {
				status := "H"
				switch r := rng.Intn(100); {
				case r < 10:
					status = "A"
				case r < 15:
					status = "T"
				}
				out = append(out, attendance.Entry{StudentID: st, Date: date, LessonHour: h, Status: status})
			}
		}
		return out
	}
	start := time.Date(2025, 8, 1, 0, 0, 0, 0, time.UTC)
	var applyTime, floorTime time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		e := dayEntries(start.AddDate(0, 0, 2*i).Format(time.DateOnly))
		floorDay := dayEntries(start.AddDate(0, 0, 2*i+1).Format(time.DateOnly))
		b.StartTimer()
		t0 := time.Now()
		must(b, pg.InTx(ctx, db, func(tx *sqlx.Tx) error {
			_, err := attendance.ApplyTx(ctx, tx, e, journal)
			return err
		}))
		applyTime += time.Since(t0)
		b.StopTimer()
		t1 := time.Now()
		must(b, bareUpsert(ctx, db, floorDay))
		floorTime += time.Since(t1)
		b.StartTimer()
	}
	b.StopTimer()
	b.ReportMetric(float64(applyTime.Milliseconds())/float64(b.N), "apply-ms/day")
	b.ReportMetric(float64(floorTime.Milliseconds())/float64(b.N), "floor-ms/day")
	if floorTime > 0 {
		b.ReportMetric(float64(applyTime)/float64(floorTime), "ratio")
	}
	fmt.Printf("ApplyTx %v per day, bare upsert %v, ratio %.2f\n", applyTime/time.Duration(b.N), floorTime/time.Duration(b.N),
		float64(applyTime)/float64(floorTime))
}

// bareUpsert is the floor: the same rows in one unnest upsert.
func bareUpsert(ctx context.Context, db *sqlx.DB, e []attendance.Entry) error {
	n := len(e)
	sids, dates, hours, statuses := make([]int64, n), make([]string, n), make([]int64, n), make([]string, n)
	for i, x := range e {
		sids[i], dates[i], hours[i], statuses[i] = x.StudentID, x.Date, int64(x.LessonHour), x.Status
	}
	return pg.InTx(ctx, db, func(tx *sqlx.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO attendance (student_id, date, lesson_hour, status, from_journal)
			SELECT * , true FROM unnest($1::bigint[], $2::date[], $3::smallint[], $4::text[])
			ON CONFLICT (student_id, date, lesson_hour) DO UPDATE SET status = EXCLUDED.status, updated_at = now()`,
			pq.Array(sids), pq.Array(dates), pq.Array(hours), pq.Array(statuses))
		return err
	})
}
