package attendancebench_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/attendancerecap"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// floorSemesterSQL is the floor of the semester's day recap: the bare
// statement any implementation must run, every student's days per status
// over the semester from attendance_days, the majority rule written out as
// a CASE (no function, no join, no scope, no class lines, no per-date
// figures).
const floorSemesterSQL = `SELECT student_id, count(*) FILTER (WHERE st = 'H'), count(*) FILTER (WHERE st = 'S'),
		count(*) FILTER (WHERE st = 'I'), count(*) FILTER (WHERE st = 'A'), count(*) FILTER (WHERE st = 'T'), count(*)
	FROM (SELECT student_id, CASE
			WHEN a >= greatest(h, s, i, t) THEN 'A' WHEN s >= greatest(h, i, t) THEN 'S'
			WHEN i >= greatest(h, t) THEN 'I' WHEN t >= h THEN 'T' ELSE 'H' END AS st
		FROM attendance_days WHERE date BETWEEN $1::date AND $2::date AND h + s + i + a + t > 0) x
	GROUP BY student_id`

// BenchmarkSemesterDaysYear measures the semester day recap with a whole
// school year present (see generate: 1,500 students, 3 million attendance
// rows, 300,000 per-day rows), for the semester of the generated year with
// the most school days: GET /attendance-recap?period=semester (the whole
// school: class lines with hours and days per status, students per day
// status for each date), GET /attendance-semester.xlsx (the e-Rapor
// workbook, a sheet per class) and GET /classes/{id}/attendance-semester
// (a class of 40), each beside the bare SQL floor from the same run. No
// figure is asserted: the target (< 200 ms) is printed beside them.
func BenchmarkSemesterDaysYear(b *testing.B) {
	env := apitest.New(b)
	ctx := context.Background()
	bk := env.As(perm.BK)
	y, err := generate(ctx, env.DB, bk.UserID, time.Now())
	if err != nil {
		b.Fatal(err)
	}
	s := &suite{env: env, y: y, bk: bk}

	// The semester holding the most generated days (the academic year
	// starts on 1 July, the default).
	prof := school.DefaultProfile()
	count := map[attendancerecap.SemesterSpan]int{}
	var sem attendancerecap.SemesterSpan
	for _, d := range y.Days {
		sp := attendancerecap.SemesterOf(prof, schoolday.MustParseDate(d))
		if count[sp]++; count[sp] > count[sem] {
			sem = sp
		}
	}
	from, to := sem.From.String(), sem.To.String()
	var rows int
	if err := env.DB.Get(&rows, `SELECT count(*) FROM attendance_days WHERE date BETWEEN $1::date AND $2::date`, from, to); err != nil {
		b.Fatal(err)
	}
	fmt.Printf("semester days: %s semester %d (%s..%s): %d school days, %d day rows of %d; generated in %.1f s\n",
		sem.AcademicYear(), sem.Number, from, to, count[sem], rows, y.Counts.Days, y.Took.Seconds())
	s.table = append(s.table, row{name: "generate the year (3M rows)", figure: y.Took, note: "once per run"})

	var check api.AttendanceSchoolRecap
	bk.Do("GET", "/api/v1/attendance-recap?period=semester&date="+from, nil).Want(http.StatusOK).JSON(&check)
	if len(check.Classes) != 40 || check.Days.H == 0 || check.Size != schoolStudents {
		b.Fatalf("semester recap: %d classes, %+v", len(check.Classes), check.Days)
	}
	floor := s.timeSQL(b, floorSemesterSQL, from, to)

	b.Run("SchoolSemesterRecap", func(b *testing.B) {
		got, _ := s.timeGet(b, "/api/v1/attendance-recap?period=semester&date="+from)
		s.report(b, row{name: "school semester day recap", figure: median(got), floor: floor, target: "< 200 ms",
			note: fmt.Sprintf("%d day rows; median of %d", rows, len(got))})
	})
	b.Run("SchoolSemesterXLSX", func(b *testing.B) {
		got, _ := s.timeGet(b, fmt.Sprintf("/api/v1/attendance-semester.xlsx?year=%d&semester=%d", sem.Year, sem.Number))
		s.report(b, row{name: "school semester workbook (40 sheets)", figure: median(got), floor: floor,
			note: fmt.Sprintf("median of %d", len(got))})
	})
	b.Run("ClassSemester", func(b *testing.B) {
		got, _ := s.timeGet(b, fmt.Sprintf("/api/v1/classes/%d/attendance-semester?year=%d&semester=%d", y.Class40, sem.Year, sem.Number))
		s.report(b, row{name: "class semester (40 students)", figure: median(got),
			note: fmt.Sprintf("median of %d", len(got))})
	})
	s.print()
}
