package pointspolicy_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/locale"
	"github.com/tatib/tatib/server/internal/pointspolicy"
	schoolprofile "github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/server/internal/violationtype"
	"github.com/tatib/tatib/shared/api"
)

// BenchmarkSimulate: the simulator over a school year (1,500 students in
// 50 classes, 30,000 violations of 20 types, 3,000 verified achievements,
// 200 school days of attendance) with SP 1 moved from 50 to 60, a type's
// points changed and a draft policy (offset, then amnesty, which replays
// the year day by day), beside the floor: the bare aggregate of the
// year's totals per student. Target: under 500 ms per simulation.
func BenchmarkSimulate(b *testing.B) {
	env := apitest.New(b)
	ctx := context.Background()
	if err := violationtype.Boot(ctx, env.Deps); err != nil {
		b.Fatal(err)
	}
	now := time.Now()
	// The data spreads over the current academic year up to today.
	start := schoolprofile.DefaultProfile().YearStartOf(schoolday.DateOf(now)).String()
	env.DB.MustExec(`INSERT INTO classes (name, grade) SELECT 'K' || g, 10 + g % 3 FROM generate_series(1, 50) g`)
	env.DB.MustExec(`INSERT INTO students (source_id, full_name, class_id)
		SELECT n, 'Siswa ' || n, (SELECT min(id) FROM classes) + n % 50 FROM generate_series(1, 1500) n`)
	env.DB.MustExec(`INSERT INTO violation_types (name, slug, points, category_id)
		SELECT 'Jenis ' || n, 'jenis-' || n, 1 + n % 7, (SELECT min(id) FROM violation_categories) FROM generate_series(1, 20) n`)
	// 20 violations per student over the last 110 days of the year.
	env.DB.MustExec(`INSERT INTO violations (student_id, violation_type_id, occurred_at, occurred_on, points, class_id, class_name, source)
		SELECT s.id, t.id, (d + time '07:00') AT TIME ZONE 'Asia/Jakarta', d, t.points, s.class_id, 'K', 'manual'
		FROM students s, generate_series(1, 20) k,
		    LATERAL (SELECT id, points FROM violation_types WHERE NOT is_system ORDER BY id OFFSET (s.id + k) % 20 LIMIT 1) t,
		    LATERAL (SELECT GREATEST($1::date, current_date - ((s.id * 7 + k * 5) % 110)::int) AS d) dd
		`, start)
	env.DB.MustExec(`INSERT INTO achievement_types (category_id, name, points_sekolah) VALUES ((SELECT min(id) FROM achievement_categories), 'Lomba', 10)`)
	env.DB.MustExec(`INSERT INTO achievements (achievement_type_id, level, points, achieved_on, verified_at)
		SELECT (SELECT min(id) FROM achievement_types), 'sekolah', 10, current_date - (n % 100)::int, now() FROM generate_series(1, 3000) n`)
	env.DB.MustExec(`INSERT INTO achievement_students (achievement_id, student_id)
		SELECT a.id, (SELECT min(id) FROM students) + a.id % 1500 FROM achievements a`)
	env.DB.MustExec(`INSERT INTO attendance_days (student_id, date, h)
		SELECT s.id, d::date, 10 FROM students s, generate_series($1::date, current_date, '1 day') d WHERE extract(isodow FROM d) < 6`, start)
	env.DB.MustExec(`ANALYZE`)
	var typeID int64
	if err := env.DB.Get(&typeID, `SELECT min(id) FROM violation_types WHERE NOT is_system`); err != nil {
		b.Fatal(err)
	}
	var n int
	_ = env.DB.Get(&n, `SELECT count(*) FROM violations`)
	drafts := []api.SimulateRequest{
		{Thresholds: []api.SimulateThreshold{{Level: 1, MinPoints: 60}, {Level: 2, MinPoints: 100}, {Level: 3, MinPoints: 150}}},
		{TypePoints: []api.SimulateTypePoints{{TypeID: typeID, Points: 20}},
			Policy: &api.PointsPolicy{Mode: "offset", OffsetCapPercent: 50, AmnestyCleanSchoolDays: 20, AmnestyPoints: 10}},
		{Policy: &api.PointsPolicy{Mode: "amnesty", OffsetCapPercent: 50, AmnestyCleanSchoolDays: 20, AmnestyPoints: 10}},
	}
	var simTime, floorTime time.Duration
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		t0 := time.Now()
		res, err := pointspolicy.Simulate(ctx, env.DB, locale.ID, drafts[i%len(drafts)], now)
		if err != nil || res.Students != 1500 {
			b.Fatalf("%v, %d students", err, res.Students)
		}
		simTime += time.Since(t0)
		t1 := time.Now()
		var totals []int
		if err := env.DB.Select(&totals, `SELECT sum(points)::int FROM violations WHERE occurred_on >= $1::date GROUP BY student_id`, start); err != nil {
			b.Fatal(err)
		}
		floorTime += time.Since(t1)
	}
	per, floor := simTime/time.Duration(b.N), floorTime/time.Duration(b.N)
	b.ReportMetric(float64(per.Microseconds())/1000, "sim-ms")
	b.ReportMetric(float64(floor.Microseconds())/1000, "floor-ms")
	fmt.Printf("Simulate (%d violations, 1,500 students, 3,000 achievements) %v per simulation, bare aggregate %v, ratio %.2f (target < 500 ms)\n",
		n, per, floor, float64(per)/float64(floor))
}
