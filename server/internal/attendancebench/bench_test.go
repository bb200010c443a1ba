package attendancebench_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/attendance"
	"github.com/tatib/tatib/server/internal/sim/journal"
	"github.com/tatib/tatib/server/internal/timing"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// Repetitions: each first push, floor and form save on a date of its own,
// the median reported.
const (
	syncReps   = 7
	replayReps = 3
	formReps   = 7
	readReps   = 15
)

// BenchmarkAttendanceYear generates a school year of attendance once (about
// 3 million rows, see generate) and runs every attendance figure against
// it, each beside a floor measured in the same run: a whole school day
// pushed through POST /attendance/sync (automatic violations and letters
// included) against the bare set-based upsert of the same rows; the same
// push replayed; a 40 x 10 class-form save; the monthly recaps of a class
// and of the school against the bare aggregate of attendance_days; the
// weekly recap and the month calendars. It ends with a table of them all.
// No figure is asserted: the targets are printed beside them.
func BenchmarkAttendanceYear(b *testing.B) {
	env := apitest.New(b)
	ctx := context.Background()
	bk := env.As(perm.BK)
	admin := env.As(perm.Admin)
	now := time.Now()
	y, err := generate(ctx, env.DB, bk.UserID, now)
	if err != nil {
		b.Fatal(err)
	}
	fmt.Printf("attendance year: %d rows, %d student-days, %.1f%% A, %.1f%% T hours, %d violations, %d letters, %d school days %s..%s; generated in %.1f s\n",
		y.Counts.Attendance, y.Counts.Days, pct(y.Counts.A, y.Counts.Attendance), pct(y.Counts.T, y.Counts.Attendance),
		y.Counts.Violations, y.Counts.Letters, len(y.Days), y.Days[0], y.Days[len(y.Days)-1], y.Took.Seconds())
	fmt.Printf("attendance year: generation steps: %s\n", strings.Join(y.Steps, ", "))
	if y.Counts.Attendance != schoolStudents*lessonHours*schoolDays || y.Counts.Days != schoolStudents*schoolDays {
		b.Fatalf("generated %+v, want %d rows", y.Counts, schoolStudents*lessonHours*schoolDays)
	}
	s := &suite{env: env, y: y, bk: bk, admin: admin}
	s.table = append(s.table, row{name: "generate the year (3M rows)", figure: y.Took, note: "once per run"})

	b.Run("SchoolDaySync", s.schoolDaySync)
	b.Run("FormSave40x10", s.formSave)
	b.Run("MonthlyRecapSchool", s.monthlyRecapSchool)
	b.Run("MonthlyRecapClass", s.monthlyRecapClass)
	b.Run("WeeklyRecapClass", s.weeklyRecapClass)
	b.Run("WeeklyRecapSchool", s.weeklyRecapSchool)
	b.Run("CalendarClass", s.calendarClass)
	b.Run("CalendarStudent", s.calendarStudent)
	s.print()
	if os.Getenv("TATIB_BENCH_KEEP") != "" {
		// pgtestdb keeps the database of a failed test (its URL is in the
		// log above): the year to run EXPLAIN (ANALYZE, BUFFERS) on. Drop
		// it when done.
		b.Error("TATIB_BENCH_KEEP is set: the generated database is kept")
	}
}

type suite struct {
	env       *apitest.Env
	y         *year
	bk, admin *apitest.Client
	used      int
	table     []row
	lastPush  []byte
}

// row is one line of the final table.
type row struct {
	name          string
	figure, floor time.Duration
	target        string
	note          string
	missing       bool
}

// free takes a date with nothing stored; ok false when none is left (b.Loop
// asked for more rounds than the pool holds: the samples so far do).
func (s *suite) free() (date string, ok bool) {
	if s.used >= len(s.y.Free) {
		return "", false
	}
	s.used++
	return s.y.Free[s.used-1], true
}

// freePair takes two free dates: one for the figure, one for its floor.
func (s *suite) freePair() (date, floorDate string, ok bool) {
	if s.used+2 > len(s.y.Free) {
		return "", "", false
	}
	date, _ = s.free()
	floorDate, _ = s.free()
	return date, floorDate, true
}

// notBuilt records a part whose route is not there yet.
func (s *suite) notBuilt(b *testing.B, name string) {
	fmt.Printf("%s: not built yet (the route answers 404)\n", name)
	s.table = append(s.table, row{name: name, missing: true})
	b.Skip("not built yet")
}

// loadAverage is the host's one-minute load average, "?" where there is
// none: a figure measured beside other work says so.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	if f := strings.Fields(string(b)); len(f) > 0 {
		return f[0]
	}
	return "?"
}

func pct(n, of int) float64 {
	if of == 0 {
		return 0
	}
	return float64(n) * 100 / float64(of)
}

func median(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// report prints one figure with its floor and ratio and adds it to the
// table.
func (s *suite) report(b *testing.B, r row) {
	b.ReportMetric(ms(r.figure), "ms")
	if r.floor > 0 {
		b.ReportMetric(ms(r.floor), "floor-ms")
		b.ReportMetric(float64(r.figure)/float64(r.floor), "x-floor")
	}
	b.ReportMetric(0, "ns/op") // the figures above are what counts
	s.table = append(s.table, r)
}

func (s *suite) print() {
	var w strings.Builder
	fmt.Fprintf(&w, "\nAttendance at a school year's scale (%d rows, %d cores, load average %s)\n", s.y.Counts.Attendance, runtime.NumCPU(), loadAverage())
	fmt.Fprintf(&w, "%-34s %10s %10s %8s  %-10s %s\n", "", "median ms", "floor ms", "x floor", "target", "")
	for _, r := range s.table {
		if r.missing {
			fmt.Fprintf(&w, "%-34s %10s\n", r.name, "not built yet")
			continue
		}
		floor, ratio := "", ""
		if r.floor > 0 {
			floor, ratio = fmt.Sprintf("%.1f", ms(r.floor)), fmt.Sprintf("%.2f", float64(r.figure)/float64(r.floor))
		}
		fmt.Fprintf(&w, "%-34s %10.1f %10s %8s  %-10s %s\n", r.name, ms(r.figure), floor, ratio, r.target, r.note)
	}
	fmt.Fprint(os.Stdout, w.String())
}

// dayEntries is one school day of students as the E-Jurnal sends it
// (status words, source_student_id), from the journal simulator that
// `tatib-sim journal` and the demo use: about 10% of the hours A and 5% T.
func dayEntries(students []student, date string, seed uint64) []journalsim.Entry {
	js := make([]journalsim.Student, len(students))
	for i, st := range students {
		js[i] = journalsim.Student{SourceID: st.SourceID}
	}
	return journalsim.Day(js, date, seed, lessonHours)
}

// code is the stored status of an entry's word.
func code(b *testing.B, e journalsim.Entry) string {
	c, ok := attendance.ParseStatus(e.Status)
	if !ok || c == api.AttendanceNone {
		b.Fatalf("simulator status %q", e.Status)
	}
	return c
}

// floorUpsert is the floor of a push: the bare set-based upsert of the same
// rows (what any implementation must at least do), in its own transaction.
func (s *suite) floorUpsert(b *testing.B, date string, entries []journalsim.Entry, bySource map[int64]int64, userID any) time.Duration {
	b.Helper()
	ids := make([]int64, len(entries))
	hours := make([]int64, len(entries))
	codes := make([]string, len(entries))
	notes := make([]string, len(entries))
	for i, e := range entries {
		ids[i] = bySource[e.SourceStudentID]
		hours[i] = int64(e.LessonHour)
		codes[i] = code(b, e)
		if e.Notes != nil {
			notes[i] = *e.Notes
		}
	}
	const q = `INSERT INTO attendance (student_id, date, lesson_hour, status, from_journal, updated_by, updated_at, notes)
		SELECT u.s, $1::date, u.h, u.st, $6::bigint IS NULL, $6, now(), nullif(u.n, '')
		FROM unnest($2::bigint[], $3::smallint[], $4::text[], $5::text[]) AS u(s, h, st, n)
		ON CONFLICT (student_id, date, lesson_hour) DO UPDATE
		SET status = EXCLUDED.status, from_journal = EXCLUDED.from_journal, updated_by = EXCLUDED.updated_by,
		    updated_at = EXCLUDED.updated_at, notes = EXCLUDED.notes
		WHERE attendance.status <> EXCLUDED.status OR attendance.notes IS DISTINCT FROM EXCLUDED.notes`
	ctx := context.Background()
	start := time.Now()
	tx, err := s.env.DB.BeginTx(ctx, nil)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := tx.ExecContext(ctx, q, date, pq.Array(ids), pq.Array(hours), pq.Array(codes), pq.Array(notes), userID); err != nil {
		b.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	took := time.Since(start)
	// The floor's rows go again: the recaps read attendance_days, which the
	// floor does not keep.
	if _, err := s.env.DB.ExecContext(ctx, `DELETE FROM attendance WHERE date = $1`, date); err != nil {
		b.Fatal(err)
	}
	return took
}

func (s *suite) bySource() map[int64]int64 {
	m := make(map[int64]int64, len(s.y.Students))
	for _, st := range s.y.Students {
		m[st.SourceID] = st.ID
	}
	return m
}

// personDays is how many students of a pushed day (one per class) have a
// day a teacher already entered (S, a doctor's note) before the journal
// pushes it: the push keeps those cells for the person (the precedence
// rule, issue 22) and remembers what it sent as journal conflicts.
const personDays = 40

// personCells stores, untimed, a teacher's S for every hour of date for
// the first student of each class (and their day counts, as ApplyTx
// would), and returns how many cells that is.
func (s *suite) personCells(b *testing.B, date string) int {
	b.Helper()
	seen := map[int64]bool{}
	var ids []int64
	for _, st := range s.y.Students {
		if !seen[st.ClassID] && len(ids) < personDays {
			seen[st.ClassID] = true
			ids = append(ids, st.ID)
		}
	}
	ctx := context.Background()
	if _, err := s.env.DB.ExecContext(ctx, `INSERT INTO attendance (student_id, date, lesson_hour, status, from_journal, set_by, updated_by, updated_at)
		SELECT s, $2::date, h, 'S', false, 'user', $3, now() FROM unnest($1::bigint[]) s CROSS JOIN generate_series(1, $4::int) h ORDER BY 1, 3`,
		pq.Array(ids), date, s.bk.UserID, lessonHours); err != nil {
		b.Fatal(err)
	}
	if _, err := s.env.DB.ExecContext(ctx, `INSERT INTO attendance_days (student_id, date, s) SELECT s, $2::date, $3 FROM unnest($1::bigint[]) s`,
		pq.Array(ids), date, lessonHours); err != nil {
		b.Fatal(err)
	}
	return len(ids) * lessonHours
}

// schoolDaySync pushes a whole school day (1,500 x 10) for a new date
// through the journal API, the floor (the same rows' bare upsert for
// another new date) right after it, syncReps times; then replays the last
// push. On each pushed date personDays students' days were already
// entered by a teacher: the push keeps them (the precedence rule in
// place).
func (s *suite) schoolDaySync(b *testing.B) {
	res := s.admin.Do("POST", "/api/v1/settings/journal-token", nil)
	if res.Status == http.StatusNotFound || res.Status == http.StatusMethodNotAllowed {
		s.notBuilt(b, "school day push (15,000)")
		return
	}
	var tok api.JournalToken
	res.Want(http.StatusOK, http.StatusCreated).JSON(&tok)
	journal := s.env.Anonymous()
	bySource := s.bySource()
	// server: the handler's own time as the push log keeps it (reading and
	// parsing the body up to the commit), without the client and the wire.
	var push, server, floor, replay []time.Duration
	// stages: each push's Server-Timing (the handler's stages), by name.
	stages := map[string][]time.Duration{}
	var order []string
	var last api.JournalSyncResponse
	var violations, letters, kept int
	// pushDay pushes a whole school day for date and returns how long the
	// client waited and the handler's own time.
	pushDay := func(date string, seed uint64) (took, own time.Duration, entries []journalsim.Entry) {
		person := s.personCells(b, date)
		entries = dayEntries(s.y.Students, date, seed)
		body, err := json.Marshal(journalsim.Request{Token: tok.Token, Attendances: entries})
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		r := journal.Do("POST", "/api/v1/attendance/sync", body)
		took = time.Since(start)
		r.Want(http.StatusOK).JSON(&last)
		list, err := timing.Parse(r.Header.Get("Server-Timing"))
		if err != nil || len(list) == 0 {
			b.Fatalf("push %s: Server-Timing %q: %v", date, r.Header.Get("Server-Timing"), err)
		}
		var sum time.Duration
		for _, st := range list {
			if !slices.Contains(order, st.Name) {
				order = append(order, st.Name)
			}
			stages[st.Name] = append(stages[st.Name], st.Took)
			sum += st.Took
		}
		stages[clientStage] = append(stages[clientStage], took-sum)
		// The teachers' cells are kept (or unchanged where the journal
		// agrees); every other entry is new.
		if res := last.Results; res.Created != len(entries)-person || res.KeptByPerson+res.Unchanged != person || res.KeptByPerson == 0 {
			b.Fatalf("push %s: %+v, want %d created and %d kept or unchanged", date, res, len(entries)-person, person)
		}
		var serverMS int
		if err := s.env.DB.Get(&serverMS, `SELECT duration_ms FROM journal_pushes WHERE outcome = 'applied' ORDER BY id DESC LIMIT 1`); err != nil {
			b.Fatal(err)
		}
		s.lastPush = body
		return took, time.Duration(serverMS) * time.Millisecond, entries
	}
	// The first push after the generation meets cold pages (each student's
	// end of the primary key is its own leaf); a school's daily push finds
	// them as yesterday's push left them. It is reported on its own, and the
	// push and its floor then alternate which goes first.
	date, floorDate, ok := s.freePair()
	if !ok {
		b.Fatal("no free date")
	}
	cold, coldOwn, entries := pushDay(date, 99)
	stages = map[string][]time.Duration{} // the breakdown is of the warm pushes
	coldFloor := s.floorUpsert(b, floorDate, entries, bySource, nil)
	for b.Loop() {
		for i := range syncReps {
			date, floorDate, ok := s.freePair()
			if !ok {
				break
			}
			if i%2 == 1 {
				floor = append(floor, s.floorUpsert(b, floorDate, dayEntries(s.y.Students, date, uint64(i+1)), bySource, nil))
			}
			took, own, entries := pushDay(date, uint64(i+1))
			push, server = append(push, took), append(server, own)
			violations += last.Results.ViolationsCreated
			letters += last.Results.LettersIssued
			kept += last.Results.KeptByPerson
			if i%2 == 0 {
				floor = append(floor, s.floorUpsert(b, floorDate, entries, bySource, nil))
			}
		}
		for range replayReps {
			start := time.Now()
			r := journal.Do("POST", "/api/v1/attendance/sync", s.lastPush)
			replay = append(replay, time.Since(start))
			r.Want(http.StatusOK).JSON(&last)
			if last.Results.Unchanged+last.Results.KeptByPerson != schoolStudents*lessonHours ||
				last.Results.Created+last.Results.Updated+last.Results.ViolationsCreated != 0 {
				b.Fatalf("replay changed something: %+v", last.Results)
			}
		}
	}
	n := len(push)
	s.report(b, row{name: "school day push (15,000 entries)", figure: median(push), floor: median(floor), target: "<= 2.0 x",
		note: fmt.Sprintf("median of %d new dates; per push %d automatic violations, %.1f letters, %d cells kept for a teacher", n, violations/n,
			float64(letters)/float64(n), kept/n)})
	fmt.Printf("school day push, cold: %.0f ms (server's own time %.0f ms), floor %.0f ms\n", ms(cold), ms(coldOwn), ms(coldFloor))
	fmt.Printf("school day push: median %.0f ms (%s; server's own time %s), floor %.0f ms (%s), %.2f x floor\n",
		ms(median(push)), durs(push), durs(server), ms(median(floor)), durs(floor), float64(median(push))/float64(median(floor)))
	s.printStages(order, stages, push, floor)
	s.table = append(s.table, row{name: "  replayed (nothing changes)", figure: median(replay), floor: median(floor),
		note: fmt.Sprintf("median of %d", len(replay))})
	s.table = append(s.table, row{name: "  first push, cold pages", figure: cold, floor: coldFloor,
		note: fmt.Sprintf("once; the server's own time %.0f ms", ms(coldOwn))})
	fmt.Printf("school day replay: median %.0f ms (%s)\n", ms(median(replay)), durs(replay))
}

// clientStage is what the client waited beyond the handler's stages: the
// wire both ways, the router and middleware, writing the answer.
const clientStage = "client and wire"

// stageNotes say what each stage of a push covers (the marks in
// journal, attendance and points).
var stageNotes = map[string]string{
	"read":     "token checked, a push slot, the body read",
	"decode":   "JSON decoded and every entry validated, the school's profile",
	"students": "the push's students looked up by source id, the push id",
	"lock":     "dedup, the students' row locks (the ledger's)",
	"upsert":   "the upsert with kept cells, conflicts and day counts",
	"auto":     "automatic violations read, planned and written",
	"points":   "the ledger's totals, letters read, the point audit",
	"letters":  "warning letters settled and written",
	"parents":  "parents' messages queued",
	"notify":   "notifications of violations and letters",
	"audit":    "the batch's audit entries",
	"log":      "the push log row, parked entries",
	"commit":   "the commit",
}

// printStages prints the median of each stage of the first pushes (the
// pushes were measured with the stages, so their sum plus the client's
// share is the push) and the share of the push's median.
func (s *suite) printStages(order []string, stages map[string][]time.Duration, push, floor []time.Duration) {
	var w strings.Builder
	fmt.Fprintf(&w, "school day push by stage (median of %d pushes; the handler's Server-Timing):\n", len(push))
	fmt.Fprintf(&w, "  %-16s %9s %7s %8s  %s\n", "stage", "ms", "% push", "x floor", "")
	var sum time.Duration
	for _, name := range append(order, clientStage) {
		m := median(stages[name])
		sum += m
		fmt.Fprintf(&w, "  %-16s %9.1f %6.1f%% %8.2f  %s\n", name, ms(m), pct(int(m), int(median(push))), float64(m)/float64(median(floor)), stageNotes[name])
	}
	fmt.Fprintf(&w, "  %-16s %9.1f %6.1f%%           sum of the medians; the push's median %.1f ms, the floor's %.1f ms\n", "total", ms(sum),
		pct(int(sum), int(median(push))), ms(median(push)), ms(median(floor)))
	fmt.Print(w.String())
}

func durs(d []time.Duration) string {
	parts := make([]string, len(d))
	for i, x := range d {
		parts[i] = fmt.Sprintf("%.0f", ms(x))
	}
	return strings.Join(parts, " ")
}

// formSave saves a whole class form (40 students x 10 hours) for a new
// date as a counselor, against the bare upsert of the same 400 rows.
func (s *suite) formSave(b *testing.B) {
	var class []student
	for _, st := range s.y.Students {
		if st.ClassID == s.y.Class40 {
			class = append(class, st)
		}
	}
	path := func(date string) string { return fmt.Sprintf("/api/v1/classes/%d/attendance/%s", s.y.Class40, date) }
	if r := s.bk.Do("GET", path(s.y.Days[len(s.y.Days)-1]), nil); r.Status == http.StatusNotFound {
		s.notBuilt(b, "class form save (40 x 10)")
		return
	}
	bySource := s.bySource()
	var save, floor []time.Duration
	for b.Loop() {
		for i := range formReps {
			date, floorDate, ok := s.freePair()
			if !ok {
				break
			}
			entries := dayEntries(class, date, uint64(100+i))
			form := make([]api.AttendanceEntry, len(entries))
			for j, e := range entries {
				form[j] = api.AttendanceEntry{StudentID: bySource[e.SourceStudentID], LessonHour: e.LessonHour, Status: code(b, e)}
			}
			body, err := json.Marshal(api.SaveAttendanceRequest{Entries: form})
			if err != nil {
				b.Fatal(err)
			}
			start := time.Now()
			r := s.bk.Do("PUT", path(date), body)
			save = append(save, time.Since(start))
			var out api.SaveAttendanceResponse
			r.Want(http.StatusOK).JSON(&out)
			if out.Results.Created != len(form) {
				b.Fatalf("form save %s: %+v", date, out.Results)
			}
			floor = append(floor, s.floorUpsert(b, floorDate, entries, bySource, s.bk.UserID))
		}
	}
	s.report(b, row{name: "class form save (40 x 10)", figure: median(save), floor: median(floor),
		note: fmt.Sprintf("median of %d new dates; answers the stored form", len(save))})
}

// month is the last whole month before this one (Jakarta), full of school
// days.
func (s *suite) month() time.Time {
	t := time.Now().In(jakarta)
	return time.Date(t.Year(), t.Month()-1, 1, 0, 0, 0, 0, time.UTC)
}

// timeGet measures GET path readReps times after one warm-up; ok false when
// the route is not there yet.
func (s *suite) timeGet(b *testing.B, path string) ([]time.Duration, bool) {
	b.Helper()
	r := s.bk.Do("GET", path, nil)
	if r.Status == http.StatusNotFound {
		return nil, false
	}
	r.Want(http.StatusOK)
	var out []time.Duration
	for b.Loop() {
		for range readReps {
			start := time.Now()
			s.bk.Do("GET", path, nil).Want(http.StatusOK)
			out = append(out, time.Since(start))
		}
	}
	return out, true
}

// timeSQL measures the floor of a read: the bare aggregate readReps times.
func (s *suite) timeSQL(b *testing.B, q string, args ...any) time.Duration {
	b.Helper()
	ctx := context.Background()
	var out []time.Duration
	for range readReps {
		start := time.Now()
		rows, err := s.env.DB.QueryContext(ctx, q, args...)
		if err != nil {
			b.Fatal(err)
		}
		for rows.Next() {
		}
		if err := rows.Err(); err != nil {
			b.Fatal(err)
		}
		rows.Close()
		out = append(out, time.Since(start))
	}
	return median(out)
}

// The floors of the recaps: the bare aggregate of attendance_days over the
// period, per class (the school) or per student (a class), with the unique
// students per status.
const (
	floorSchoolSQL = `SELECT s.class_id, sum(d.h), sum(d.s), sum(d.i), sum(d.a), sum(d.t),
		count(DISTINCT d.student_id) FILTER (WHERE d.s > 0), count(DISTINCT d.student_id) FILTER (WHERE d.i > 0),
		count(DISTINCT d.student_id) FILTER (WHERE d.a > 0), count(DISTINCT d.student_id) FILTER (WHERE d.t > 0)
		FROM attendance_days d JOIN students s ON s.id = d.student_id
		WHERE d.date >= $1::date AND d.date < $2::date AND s.active
		GROUP BY s.class_id`
	floorClassSQL = `SELECT d.student_id, count(*), sum(d.h), sum(d.s), sum(d.i), sum(d.a), sum(d.t)
		FROM attendance_days d JOIN students s ON s.id = d.student_id
		WHERE d.date >= $1::date AND d.date < $2::date AND s.class_id = $3 AND s.active
		GROUP BY d.student_id`
)

func (s *suite) monthlyRecapSchool(b *testing.B) {
	m := s.month()
	name := fmt.Sprintf("school monthly recap (%s)", m.Format("2006-01"))
	got, ok := s.timeGet(b, "/api/v1/attendance-recap?period=monthly&date="+m.AddDate(0, 0, 14).Format(time.DateOnly))
	if !ok {
		s.notBuilt(b, name)
		return
	}
	floor := s.timeSQL(b, floorSchoolSQL, m.Format(time.DateOnly), m.AddDate(0, 1, 0).Format(time.DateOnly))
	s.report(b, row{name: name, figure: median(got), floor: floor, target: "< 100 ms", note: fmt.Sprintf("median of %d", len(got))})
}

func (s *suite) monthlyRecapClass(b *testing.B) {
	m := s.month()
	name := fmt.Sprintf("class monthly recap (%s)", m.Format("2006-01"))
	got, ok := s.timeGet(b, fmt.Sprintf("/api/v1/classes/%d/attendance-recap?period=monthly&date=%s", s.y.Class40, m.AddDate(0, 0, 14).Format(time.DateOnly)))
	if !ok {
		s.notBuilt(b, name)
		return
	}
	floor := s.timeSQL(b, floorClassSQL, m.Format(time.DateOnly), m.AddDate(0, 1, 0).Format(time.DateOnly), s.y.Class40)
	s.report(b, row{name: name, figure: median(got), floor: floor, note: fmt.Sprintf("median of %d", len(got))})
}

// week is a whole school week: the Monday of the sixth-last school day,
// and that day.
func (s *suite) week() (monday time.Time, day string) {
	day = s.y.Days[len(s.y.Days)-6]
	t, _ := time.Parse(time.DateOnly, day)
	return t.AddDate(0, 0, -(int(t.Weekday())+6)%7), day
}

func (s *suite) weeklyRecapClass(b *testing.B) {
	monday, day := s.week()
	name := "class weekly recap"
	got, ok := s.timeGet(b, fmt.Sprintf("/api/v1/classes/%d/attendance-recap?period=weekly&date=%s", s.y.Class40, day))
	if !ok {
		s.notBuilt(b, name)
		return
	}
	floor := s.timeSQL(b, floorClassSQL, monday.Format(time.DateOnly), monday.AddDate(0, 0, 7).Format(time.DateOnly), s.y.Class40)
	s.report(b, row{name: name, figure: median(got), floor: floor, note: fmt.Sprintf("week of %s, median of %d", monday.Format(time.DateOnly), len(got))})
}

func (s *suite) weeklyRecapSchool(b *testing.B) {
	monday, day := s.week()
	name := "school weekly recap"
	got, ok := s.timeGet(b, "/api/v1/attendance-recap?period=weekly&date="+day)
	if !ok {
		s.notBuilt(b, name)
		return
	}
	floor := s.timeSQL(b, floorSchoolSQL, monday.Format(time.DateOnly), monday.AddDate(0, 0, 7).Format(time.DateOnly))
	s.report(b, row{name: name, figure: median(got), floor: floor, note: fmt.Sprintf("week of %s, median of %d", monday.Format(time.DateOnly), len(got))})
}

func (s *suite) calendarClass(b *testing.B) {
	m := s.month().Format("2006-01")
	name := "class calendar (" + m + ")"
	got, ok := s.timeGet(b, fmt.Sprintf("/api/v1/classes/%d/attendance-calendar?month=%s", s.y.Class40, m))
	if !ok {
		s.notBuilt(b, name)
		return
	}
	s.report(b, row{name: name, figure: median(got), note: fmt.Sprintf("median of %d", len(got))})
}

func (s *suite) calendarStudent(b *testing.B) {
	m := s.month().Format("2006-01")
	name := "student calendar (" + m + ")"
	st := s.y.Students[len(s.y.Students)/2]
	got, ok := s.timeGet(b, fmt.Sprintf("/api/v1/students/%d/attendance-calendar?month=%s", st.ID, m))
	if !ok {
		s.notBuilt(b, name)
		return
	}
	s.report(b, row{name: name, figure: median(got), note: fmt.Sprintf("median of %d", len(got))})
}
