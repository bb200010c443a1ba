package attendancerecap_test

import (
	"context"
	"testing"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/attendancerecap"
	"github.com/tatib/tatib/server/internal/schoolday"
)

// BenchmarkSchoolMonthly: the school's monthly recap with a year of
// per-day counts present (1,500 students in 50 classes, 200 school days:
// 300,000 attendance_days rows, what 3 million attendance rows make). The
// whole-school benchmark with the attendance rows themselves is make bench's.
func BenchmarkSchoolMonthly(b *testing.B) {
	env := apitest.New(b)
	env.DB.MustExec(`INSERT INTO classes (name, grade) SELECT 'K' || g, 10 + g % 3 FROM generate_series(1, 50) g`)
	env.DB.MustExec(`INSERT INTO students (source_id, full_name, class_id)
		SELECT n, 'Siswa ' || n, (SELECT min(id) FROM classes) + n % 50 FROM generate_series(1, 1500) n`)
	env.DB.MustExec(`INSERT INTO attendance_days (student_id, date, h, s, i, a, t)
		SELECT s.id, d::date, CASE WHEN (s.id + k) % 10 = 0 THEN 7 ELSE 10 END, 0, (s.id + k) % 37 / 36,
			CASE WHEN (s.id + k) % 10 = 0 THEN 3 ELSE 0 END, (s.id + k) % 20 / 19
		FROM students s,
			LATERAL (SELECT d, row_number() OVER () AS k FROM generate_series('2025-07-14'::date, '2026-06-30', '1 day') d
				WHERE extract(isodow FROM d) < 6 LIMIT 200) days`)
	env.DB.MustExec(`ANALYZE attendance_days`)
	st := attendancerecap.NewStore(env.DB)
	p := attendancerecap.Period{Kind: attendancerecap.Monthly, From: schoolday.MustParseDate("2025-11-01"), To: schoolday.MustParseDate("2025-11-30")}
	b.ResetTimer()
	for b.Loop() {
		r, err := st.SchoolRecap(context.Background(), attendancerecap.Scope{}, p)
		if err != nil || len(r.Classes) != 50 || r.Hours.H == 0 {
			b.Fatalf("%v %d", err, len(r.Classes))
		}
	}
}
